import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { adminCaller, startTestService, type StartedService } from '../support/started-service.ts';
import { startSmtpCatcher, type SmtpCatcher } from '../notices/smtp-catcher.ts';

const day = 86_400_000;
const t0 = Date.now();
const iso = (at: number) => new Date(at).toISOString();
/** Midnight UTC of the day `at` falls in. */
const midnight = (at: number) => `${iso(at).slice(0, 10)}T00:00:00.000Z`;
const form = 'application/x-www-form-urlencoded';

interface Event {
  type: string;
  data: {
    client: { id: string };
    kind: string;
    subject: { version: string; sunsetAt: string };
    exemption: { requestId: string; decision: string; until: string | null; cap: string | null; reason: string | null };
  };
}

/** A webhook receiver on loopback that keeps each event's body. */
async function startReceiver(): Promise<{ url: string; events: Event[]; server: Server }> {
  const events: Event[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      events.push(JSON.parse(body) as Event);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, events, server };
}

/** Wait until `found` gives something: delivery happens after the decision's answer, in the background. */
async function eventually<T>(what: string, found: () => T | undefined): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = found();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`never came: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// The service as it starts (startService), a real SMTP server and a webhook receiver. The worker's
// timer is off (`intervalSeconds: 0`): what arrives was queued by the decision and delivered on its nudge.
describe('a decision on a request for extended access is told to the client, by its channels', () => {
  let smtp: SmtpCatcher;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let service: StartedService;
  let admin: ReturnType<typeof adminCaller>;
  const ids: Record<string, string> = {};
  const requests: Record<string, string> = {};
  const cap = t0 + 100 * day;

  before(async () => {
    smtp = await startSmtpCatcher();
    receiver = await startReceiver();
    service = await startTestService({
      file: {
        rateLimit: { max: 1_000_000, windowSeconds: 60 },
        webhooks: { allowPrivateTargets: ['loopback'] },
        notices: { intervalSeconds: 0 },
        versions: {
          v1: {
            deprecatedAt: iso(t0 - 200 * day),
            sunsetAt: iso(t0 + 10 * day),
            extendedAccessUntil: iso(cap),
            migrationUrl: 'https://docs.example.com/v1-to-v2',
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
    const clients = {
      acme: { contacts: ['dev@acme.test'], webhooks: [{ url: receiver.url }] },
      globex: { contacts: ['ops@globex.test'], webhooks: [] },
    };
    for (const [name, body] of Object.entries(clients)) {
      const client = await admin('POST', '/admin/v1/clients', { name, ...body });
      assert.equal(client.statusCode, 201, client.body);
      ids[name] = (JSON.parse(client.body) as { id: string }).id;
      const made = await admin('POST', '/admin/v1/api-keys', { name, roles: ['read'], clientId: ids[name] });
      const key = (JSON.parse(made.body) as { key: string }).key;
      const called = await fetch(`${service.base}/api/v1/users`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(called.status, 200);
      // The consumer asks from its dashboard, as people do.
      const signedIn = await fetch(`${service.base}/portal/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': form },
        body: `key=${encodeURIComponent(key)}`,
      });
      const cookie = signedIn.headers
        .getSetCookie()
        .find((c) => c.startsWith('versionary_portal='))!
        .split(';')[0]!;
      const page = await (await fetch(`${service.base}/portal`, { headers: { cookie, accept: 'text/html' } })).text();
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page)?.[1];
      assert.ok(csrf, page.slice(0, 300));
      const asked = await fetch(`${service.base}/portal/extended-access-requests`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, accept: 'text/html', 'content-type': form, origin: service.base },
        body: new URLSearchParams({ _csrf: csrf, subject: 'version:v1', reason: `${name} ships in March` }).toString(),
      });
      assert.equal(asked.status, 303);
    }
    const listed = JSON.parse((await admin('GET', '/admin/v1/extended-access-requests')).body) as {
      data: Array<{ id: string; clientId: string }>;
    };
    for (const name of ['acme', 'globex']) requests[name] = listed.data.find((r) => r.clientId === ids[name])!.id;
    assert.equal(smtp.messages.length, 0, 'nothing was sent before a decision');
  });
  after(async () => {
    await service?.stop();
    await smtp?.close();
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  it('a grant through the management API mails the contact its date and calls its webhook with exemption.granted', async () => {
    const until = midnight(t0 + 60 * day);
    const granted = await admin('POST', `/admin/v1/extended-access-requests/${requests.acme}/decisions`, {
      decision: 'granted',
      until,
      reason: 'until your March release',
    });
    assert.equal(granted.statusCode, 200, granted.body);
    const mail = await eventually('the granted email', () =>
      smtp.messages.find((m) => m.envelopeTo.includes('dev@acme.test')),
    );
    assert.equal(mail.subject, `Extended access to v1 granted until ${until.slice(0, 10)}`);
    assert.match(mail.text ?? '', new RegExp(`Your calls are answered until: ${until.slice(0, 10)}`));
    assert.match(mail.text ?? '', /Note: until your March release/);
    assert.match(mail.text ?? '', new RegExp(`Latest date extended access may reach: ${iso(cap)}`));
    assert.match(mail.text ?? '', /Unsubscribe: http/);
    assert.match(mail.html || '', /<h1>Extended access to v1 granted until/);
    const event = await eventually('the exemption.granted webhook', () =>
      receiver.events.find((e) => e.type === 'exemption.granted'),
    );
    assert.equal(event.data.client.id, ids.acme);
    assert.equal(event.data.kind, 'granted');
    assert.equal(event.data.subject.version, 'v1');
    assert.deepEqual(event.data.exemption, {
      requestId: requests.acme,
      decision: 'granted',
      until,
      cap: iso(cap),
      reason: 'until your March release',
    });
  });

  it('a decline mails the contact the reason, and each decision is told once', async () => {
    const declined = await admin('POST', `/admin/v1/extended-access-requests/${requests.globex}/decisions`, {
      decision: 'declined',
      reason: 'v2 has been ready for a year',
    });
    assert.equal(declined.statusCode, 200, declined.body);
    const mail = await eventually('the declined email', () =>
      smtp.messages.find((m) => m.envelopeTo.includes('ops@globex.test')),
    );
    assert.equal(mail.subject, 'Extended access to v1 declined: v2 has been ready for a year');
    assert.match(mail.text ?? '', /Reason: v2 has been ready for a year/);
    assert.doesNotMatch(mail.text ?? '', /answered until/);

    // A pass of the worker plans the schedule's notices: the decisions are not told again.
    const run = await admin('POST', '/admin/v1/notices/run', {});
    assert.equal(run.statusCode, 200, run.body);
    const decisions = smtp.messages.filter((m) => /^Extended access/.test(m.subject ?? ''));
    assert.deepEqual(decisions.map((m) => m.envelopeTo.join()).sort(), ['dev@acme.test', 'ops@globex.test']);
    assert.equal(receiver.events.filter((e) => e.type.startsWith('exemption.')).length, 1);
    const rows = JSON.parse((await admin('GET', '/admin/v1/notices?kind=declined')).body) as {
      data: Array<{ type: string; status: string; channel: string }>;
    };
    assert.deepEqual(
      rows.data.map((r) => [r.type, r.channel, r.status]),
      [['exemption.declined', 'email', 'sent']],
    );
  });
});
