import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminCaller, startTestService, type StartedService } from '../support/started-service.ts';
import { startSmtpCatcher, type SmtpCatcher } from '../notices/smtp-catcher.ts';

const day = 86_400_000;
const hour = 3_600_000;
const t0 = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();

// A client with extended access to v1 is spared v1's brownouts and hears of v1 by its own date;
// the others are browned out and told of the window. The service as it starts, with its clock.
describe('brownouts and extended access, through the running service', () => {
  let now = t0;
  let smtp: SmtpCatcher;
  let service: StartedService;
  let admin: ReturnType<typeof adminCaller>;
  const keys: Record<string, string> = {};
  const ids: Record<string, string> = {};
  const own = t0 + 120 * day;
  const call = (who: string) =>
    fetch(`${service.base}/api/v1/users`, { headers: { authorization: `Bearer ${keys[who]}` } });
  const mailTo = (address: string) => smtp.messages.filter((m) => m.envelopeTo.includes(address));

  before(async () => {
    smtp = await startSmtpCatcher();
    service = await startTestService({
      clock: { now: () => now },
      file: {
        rateLimit: { max: 1_000_000, windowSeconds: 60 },
        notices: { intervalSeconds: 0 },
        versions: {
          v1: {
            deprecatedAt: iso(t0 - 130 * day),
            sunsetAt: iso(t0 + 60 * day),
            extendedAccessUntil: iso(t0 + 150 * day),
            replacement: 'v2',
          },
        },
      },
      env: {
        VERSIONARY_SMTP_URL: smtp.url,
        VERSIONARY_MAIL_FROM: 'Versionary <notices@versionary.test>',
        VERSIONARY_NOTICE_SECRET: 'notice-secret-0123456789-0123456789',
      },
    });
    admin = adminCaller(service);
    for (const name of ['acme', 'globex']) {
      const client = await admin('POST', '/admin/v1/clients', { name, contacts: [`dev@${name}.test`] });
      ids[name] = (JSON.parse(client.body) as { id: string }).id;
      const key = await admin('POST', '/admin/v1/api-keys', { name, roles: ['read'], clientId: ids[name] });
      keys[name] = (JSON.parse(key.body) as { key: string }).key;
      assert.equal((await call(name)).status, 200);
    }
    const granted = await admin('POST', '/admin/v1/extended-access-grants', {
      clientId: ids.acme,
      version: 'v1',
      until: iso(own),
      reason: 'a quarter more for the nightly sync',
    });
    assert.equal(granted.statusCode, 201, granted.body);
  });
  after(async () => {
    await service?.stop();
    await smtp?.close();
  });

  it("dates the client with extended access's notice by its own date", async () => {
    const run = await admin('POST', '/admin/v1/notices/run', {});
    assert.equal(run.statusCode, 200, run.body);
    const [acme] = mailTo('dev@acme.test');
    const [globex] = mailTo('dev@globex.test');
    assert.match(acme?.text ?? '', new RegExp(`Sunset date\\s*:?\\s*${iso(own)}`), acme?.text);
    assert.match(globex?.text ?? '', new RegExp(`Sunset date\\s*:?\\s*${iso(t0 + 60 * day)}`), globex?.text);
  });

  it('spares the client with extended access a brownout of every client, and does not announce it to it', async () => {
    const startsAt = t0 + 2 * day;
    const planned = await admin('POST', '/admin/v1/brownouts', {
      version: 'v1',
      startsAt: iso(startsAt),
      endsAt: iso(startsAt + hour),
    });
    assert.equal(planned.statusCode, 201, planned.body);
    const run = await admin('POST', '/admin/v1/notices/run', {});
    assert.equal(run.statusCode, 200, run.body);
    const announced = smtp.messages.filter((m) => m.subject?.includes('Planned brownout'));
    assert.deepEqual(
      announced.map((m) => m.envelopeTo.join()),
      ['dev@globex.test'],
    );
    now = startsAt + 60_000;
    assert.equal((await call('globex')).status, 410);
    assert.equal((await call('acme')).status, 200, 'the client with extended access is served');
    now = t0;
  });
});
