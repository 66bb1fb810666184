import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createVersionaryClient, type DeprecationNotice } from '../../src/client/index.ts';
import { adminCaller, startTestService } from '../support/started-service.ts';

const day = 86_400_000;
const t0 = Date.now();
const iso = (at: number) => new Date(at).toISOString();
const json = (res: { body: string }): unknown => JSON.parse(res.body);

// "A concrete sunset date is given": `versionary/client` reads the client with extended access's own date from
// `Sunset`, the one concrete date that applies to it, and counts its days from there.
test('versionary/client: a client with an extension sees its own Sunset after the public one', async () => {
  let now = t0;
  const service = await startTestService({
    clock: { now: () => now },
    file: {
      versions: {
        v1: {
          deprecatedAt: iso(t0 - 200 * day),
          sunsetAt: iso(t0 + 10 * day),
          extendedAccessUntil: iso(t0 + 100 * day),
          migrationUrl: 'https://docs.example.com/v1-to-v2',
        },
      },
    },
  });
  try {
    const admin = adminCaller(service);
    const client = json(await admin('POST', '/admin/v1/clients', { name: 'Acme', contacts: [] })) as { id: string };
    const key = json(await admin('POST', '/admin/v1/api-keys', { name: 'acme', roles: ['read'], clientId: client.id }));
    const granted = await admin('POST', '/admin/v1/extended-access-grants', {
      clientId: client.id,
      version: 'v1',
      until: iso(t0 + 50 * day),
      reason: 'renewal',
    });
    assert.equal(granted.statusCode, 201, granted.body);
    now = t0 + 20 * day;
    const notices: DeprecationNotice[] = [];
    const v1 = createVersionaryClient({
      baseUrl: `${service.base}/api`,
      version: 1,
      now: () => now,
      onDeprecation: (n) => notices.push(n),
    });
    const res = await v1.fetch('/users', { headers: { authorization: `Bearer ${(key as { key: string }).key}` } });
    assert.equal(res.status, 200);
    assert.equal(notices.length, 1);
    assert.equal(notices[0]!.sunsetAt?.getTime(), t0 + 50 * day, 'its own date, not the public sunset');
    assert.equal(notices[0]!.daysLeft, 30);
    assert.equal(notices[0]!.guideUrl, 'https://docs.example.com/v1-to-v2');
  } finally {
    await service.stop();
  }
});
