import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { adminCaller, startTestService, type StartedService } from '../support/started-service.ts';
import { startSmtpCatcher, type SmtpCatcher } from '../notices/smtp-catcher.ts';

const day = 86_400_000;
const hour = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

interface Item {
  id: string;
  startsAt: string;
  endsAt: string;
  target: { all: boolean; clients: string[] | null; calledWithinDays: number | null };
}

/** A webhook receiver on loopback that keeps each event's body. */
async function startReceiver(): Promise<{ url: string; events: Array<{ type: string }>; server: Server }> {
  const events: Array<{ type: string }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      events.push(JSON.parse(body) as { type: string });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, events, server };
}

// The service as it starts (startService), a real SMTP server and a webhook receiver: a brownout
// aimed at some clients refuses those alone during its window, and each was told before it began.
describe('targeted brownouts, through the running service', () => {
  let smtp: SmtpCatcher;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let service: StartedService;
  let admin: ReturnType<typeof adminCaller>;
  const sunsetAt = Date.now() + 60 * day;
  const keys: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const cancel = async (path: string) =>
    (
      await fetch(`${service.base}${path}`, {
        method: 'DELETE',
        headers: { authorization: 'Bearer test-admin-key-0123456789' },
      })
    ).status;
  const call = (path: string, who?: string) =>
    fetch(`${service.base}${path}`, who ? { headers: { authorization: `Bearer ${keys[who]}` } } : {});

  before(async () => {
    smtp = await startSmtpCatcher();
    receiver = await startReceiver();
    service = await startTestService({
      file: {
        rateLimit: { max: 1_000_000, windowSeconds: 60 },
        webhooks: { allowPrivateTargets: ['loopback'] },
        notices: { intervalSeconds: 0 },
        versions: { v1: { deprecatedAt: iso(Date.now() - 130 * day), sunsetAt: iso(sunsetAt), replacement: 'v2' } },
      },
      env: {
        VERSIONARY_SMTP_URL: smtp.url,
        VERSIONARY_MAIL_FROM: 'Versionary <notices@versionary.test>',
        VERSIONARY_NOTICE_SECRET: 'notice-secret-0123456789-0123456789',
      },
    });
    admin = adminCaller(service);
    const clients = {
      acme: { contacts: ['dev@acme.test'], webhooks: [{ url: receiver.url }] },
      globex: { contacts: ['ops@globex.test'], webhooks: [] },
      initech: { contacts: ['it@initech.test'], webhooks: [] },
    };
    for (const [name, body] of Object.entries(clients)) {
      const client = await admin('POST', '/admin/v1/clients', { name, ...body });
      assert.equal(client.statusCode, 201, client.body);
      ids[name] = (JSON.parse(client.body) as { id: string }).id;
      const key = await admin('POST', '/admin/v1/api-keys', { name, roles: ['read'], clientId: ids[name] });
      assert.equal(key.statusCode, 201, key.body);
      keys[name] = (JSON.parse(key.body) as { key: string }).key;
    }
    const bare = await admin('POST', '/admin/v1/api-keys', { name: 'bare', roles: ['read'] });
    assert.equal(bare.statusCode, 201, bare.body);
    keys.bare = (JSON.parse(bare.body) as { key: string }).key;
    ids.bare = (JSON.parse(bare.body) as { id: string }).id;
    // acme and globex still call v1; initech has moved to v2.
    for (const [who, path] of [
      ['acme', '/api/v1/users'],
      ['globex', '/api/v1/users'],
      ['initech', '/api/v2/users'],
    ] as const)
      assert.equal((await call(path, who)).status, 200);
    // They have been told of the deprecation already (one notice per client and subject a pass).
    const told = await admin('POST', '/admin/v1/notices/run', {});
    assert.equal(told.statusCode, 200, told.body);
  });
  after(async () => {
    await service?.stop();
    await smtp?.close();
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  it('tells its targets first, then refuses them alone during its window', async () => {
    const startsAt = Date.now() + 3000;
    const planned = await admin('POST', '/admin/v1/brownouts', {
      version: 'v1',
      startsAt: iso(startsAt),
      endsAt: iso(startsAt + hour),
      target: { clients: [ids.acme] },
    });
    assert.equal(planned.statusCode, 201, planned.body);
    const brownout = JSON.parse(planned.body) as Item;
    assert.deepEqual(brownout.target, { all: false, clients: [ids.acme], calledWithinDays: null });
    assert.equal((await call('/api/v1/users', 'acme')).status, 200, 'not before the window');
    const toldBefore = smtp.messages.length;
    assert.equal(toldBefore, 2, 'acme and globex were told of the deprecation');

    const run = await admin('POST', '/admin/v1/notices/run', {});
    assert.equal(run.statusCode, 200, run.body);
    const brownoutMail = smtp.messages.slice(toldBefore).filter((m) => m.subject?.includes('Planned brownout'));
    assert.deepEqual(
      brownoutMail.map((m) => m.envelopeTo.join()),
      ['dev@acme.test'],
      'the target is mailed, the others are not',
    );
    assert.match(brownoutMail[0]!.text ?? '', new RegExp(brownout.startsAt));
    assert.ok(
      receiver.events.some((e) => e.type === 'version.brownout_scheduled'),
      `the target's webhook is called: ${receiver.events.map((e) => e.type).join()}`,
    );

    // Wait for the window (no speed asserted: only that it is in force once it has begun).
    while (Date.now() < startsAt) await new Promise((resolve) => setTimeout(resolve, 100));
    const refused = await call('/api/v1/users', 'acme');
    assert.equal(refused.status, 410);
    const problem = (await refused.json()) as { detail: string; brownout: { id: string } };
    assert.match(problem.detail, /planned brownout aimed at your client/);
    assert.equal(problem.brownout.id, brownout.id);
    assert.equal((await call('/api/v1/users', 'globex')).status, 200, 'an untargeted client is served');
    assert.equal((await call('/api/v1/users', 'bare')).status, 200, 'a key without a client is served');
    const lifecycle = (await (await call('/api/versions')).json()) as {
      versions: Array<{ name: string; brownouts: unknown[] }>;
    };
    assert.deepEqual(lifecycle.versions.find((v) => v.name === 'v1')?.brownouts, [], 'not in the public document');
    assert.equal(await cancel(`/admin/v1/brownouts/${brownout.id}`), 204);
    assert.equal((await call('/api/v1/users', 'acme')).status, 200, 'cancelled');
  });

  // A key without a client is counted, and browned out, under its own id.
  it('aims at the clients that called the version lately, fixed and recorded when planned', async () => {
    const startsAt = sunsetAt - 20 * day;
    const res = await admin('POST', '/admin/v1/brownouts', {
      version: 'v1',
      startsAt: iso(startsAt),
      endsAt: iso(startsAt + hour),
      target: { calledWithinDays: 30 },
    });
    assert.equal(res.statusCode, 201, res.body);
    const item = JSON.parse(res.body) as Item;
    assert.deepEqual(item.target, {
      all: false,
      clients: [ids.acme, ids.globex, ids.bare].sort(),
      calledWithinDays: 30,
    });
    const listed = JSON.parse((await admin('GET', '/admin/v1/brownouts')).body) as { data: Item[] };
    assert.deepEqual(listed.data.find((b) => b.id === item.id)?.target, item.target);
    assert.equal(await cancel(`/admin/v1/brownouts/${item.id}`), 204);
  });

  it('refuses a bad target with every problem at once', async () => {
    const both = await admin('POST', '/admin/v1/brownouts', {
      version: 'v1',
      startsAt: iso(sunsetAt - 10 * day),
      endsAt: iso(sunsetAt - 10 * day + hour),
      target: { all: true, clients: [ids.acme] },
    });
    assert.equal(both.statusCode, 400, both.body);
    const unknown = await admin('POST', '/admin/v1/brownouts', {
      version: 'v1',
      startsAt: iso(sunsetAt + day),
      endsAt: iso(sunsetAt + day + hour),
      target: { clients: ['cl_nobody'] },
    });
    assert.equal(unknown.statusCode, 400, unknown.body);
    const problem = JSON.parse(unknown.body) as { errors: Array<{ pointer: string }> };
    assert.deepEqual(problem.errors.map((e) => e.pointer).sort(), ['', '/target/clients/0']);
    const nobody = await admin('POST', '/admin/v1/brownouts', {
      version: 'v1',
      endpoint: 'DELETE /users/{id}',
      startsAt: iso(sunsetAt - 10 * day),
      endsAt: iso(sunsetAt - 10 * day + hour),
      target: { calledWithinDays: 7 },
    });
    assert.equal(nobody.statusCode, 400, nobody.body);
    assert.match(nobody.body, /no client called DELETE \/users\/\{id\} of v1 in the last 7 days/);
  });

  it("generates a progressive schedule from v1's sunset: three windows, longer as it nears", async () => {
    const res = await admin('POST', '/admin/v1/brownout-schedules', {
      version: 'v1',
      target: { calledWithinDays: 30 },
    });
    assert.equal(res.statusCode, 201, res.body);
    const windows = (JSON.parse(res.body) as { data: Item[] }).data;
    assert.deepEqual(
      windows.map((w) => [
        (sunsetAt - Date.parse(w.startsAt)) / day,
        (Date.parse(w.endsAt) - Date.parse(w.startsAt)) / hour,
      ]),
      [
        [30, 1],
        [14, 4],
        [7, 24],
      ],
    );
    assert.ok(windows.every((w) => w.target.calledWithinDays === 30 && w.target.clients?.length === 3));
    const again = await admin('POST', '/admin/v1/brownout-schedules', { version: 'v1' });
    assert.equal(again.statusCode, 400, 'overlaps are refused');
    const problem = JSON.parse(again.body) as { errors: Array<{ pointer: string }> };
    assert.deepEqual(
      problem.errors.map((e) => e.pointer),
      ['/steps/0', '/steps/1', '/steps/2'],
    );
    const late = await admin('POST', '/admin/v1/brownout-schedules', {
      version: 'v1',
      steps: [{ before: '90d', duration: '1h' }],
    });
    assert.equal(late.statusCode, 400);
    assert.match(late.body, /step 1: the window would start in the past/);
    for (const w of windows) assert.equal(await cancel(`/admin/v1/brownouts/${w.id}`), 204);
  });
});
