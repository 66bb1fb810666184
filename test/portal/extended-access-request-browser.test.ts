import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { launchBrowser, seriousViolations, type TestBrowser } from '../support/browser.ts';
import { adminCaller, startTestService, type StartedService } from '../support/started-service.ts';
import { startSmtpCatcher, type SmtpCatcher } from '../notices/smtp-catcher.ts';

const day = 86_400_000;
const t0 = Date.now();
const iso = (at: number) => new Date(at).toISOString();
const isoDay = (at: number) => iso(at).slice(0, 10);
const adminKey = 'test-admin-key-0123456789';
const contacts: Record<string, string> = { acme: 'dev@acme.test', globex: 'ops@globex.test' };

// The request-and-grant flow in Chromium, through the service as startService composes it: a
// consumer asks for extended access with a reason, the owner grants one request and declines
// another, and the consumer's page shows the grant and its date, or the reason; its contact
// gets the decision by email (a real SMTP server).
describe('asking for and granting extended access in Chromium', { timeout: 240_000 }, () => {
  let service: StartedService;
  let browser: TestBrowser;
  let smtp: SmtpCatcher;
  const keys: Record<string, string> = {};
  /** The email sent to `to`, once it has come: delivery follows the decision, in the background. */
  const mailTo = async (to: string) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const mail = smtp.messages.find((m) => m.envelopeTo.includes(to));
      if (mail) return mail;
      if (Date.now() > deadline) assert.fail(`no email to ${to}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  before(async () => {
    smtp = await startSmtpCatcher();
    service = await startTestService({
      env: {
        VERSIONARY_SMTP_URL: smtp.url,
        VERSIONARY_MAIL_FROM: 'Versionary <notices@versionary.test>',
        VERSIONARY_NOTICE_SECRET: 'notice-secret-0123456789-0123456789',
      },
      file: {
        // Only the decisions are sent: the worker's timer (the schedule's notices) is off.
        notices: { intervalSeconds: 0 },
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
    const admin = adminCaller(service);
    for (const name of ['acme', 'globex']) {
      const made = await admin('POST', '/admin/v1/clients', { name, contacts: [contacts[name]] });
      const client = JSON.parse(made.body) as {
        id: string;
      };
      const key = await admin('POST', '/admin/v1/api-keys', { name, roles: ['read'], clientId: client.id });
      keys[name] = (JSON.parse(key.body) as { key: string }).key;
      const called = await fetch(`${service.base}/api/v1/users`, {
        headers: { authorization: `Bearer ${keys[name]}` },
      });
      assert.equal(called.status, 200);
    }
    browser = await launchBrowser(service.base);
  });
  after(async () => {
    await browser?.close();
    await service?.stop();
    await smtp?.close();
  });

  const signInAs = async (key: string): Promise<{ page: Page; errors: string[] }> => {
    const opened = await browser.open('/portal');
    await opened.page.getByLabel('API key').fill(key);
    await Promise.all([
      opened.page.waitForURL(/\/portal$/),
      opened.page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    return opened;
  };
  const signOut = async (page: Page) => {
    await Promise.all([page.waitForURL(/\/portal\/sign-in$/), page.getByRole('button', { name: 'Sign out' }).click()]);
    await page.close();
  };
  const ask = async (key: string, reason: string) => {
    const { page, errors } = await signInAs(key);
    const form = page.locator('form.ask-extended-access');
    assert.equal(await form.count(), 1, 'one form: v1, which it calls and which has a cap');
    // The browser refuses an empty reason before anything is sent.
    assert.equal(await form.getByLabel('Reason').evaluate((i: HTMLInputElement) => i.required), true);
    await form.getByLabel('Reason').fill(reason);
    await Promise.all([
      page.waitForURL(/\/portal(#extended-access)?$/),
      form.getByRole('button', { name: 'Ask for extended access' }).click(),
    ]);
    assert.equal(await page.locator('form.ask-extended-access').count(), 0, 'asked once');
    assert.match(await page.locator('#extended-access-requests').innerText(), new RegExp(`pending.*${reason}`, 's'));
    assert.deepEqual(errors, []);
    await signOut(page);
  };

  it('a consumer asks, the owner grants within the cap, and the consumer sees its grant and date', async () => {
    await ask(keys.acme!, 'our mobile release ships in March');
    const { page, errors } = await signInAs(adminKey);
    const pending = page.locator('.pending-request');
    assert.equal(await pending.count(), 1);
    assert.match(await pending.innerText(), /asks for v1: “our mobile release ships in March”/);
    const until = pending.locator('form.grant input[name="until"]');
    assert.equal(await until.getAttribute('max'), isoDay(t0 + 100 * day), 'the cap is the limit');
    assert.equal(await until.inputValue(), isoDay(t0 + 100 * day), 'and the default');
    await until.fill(isoDay(t0 + 60 * day));
    await Promise.all([
      page.waitForURL(/\/portal(#extended-access)?$/),
      pending.getByRole('button', { name: 'Grant' }).click(),
    ]);
    assert.equal(await page.locator('.pending-request').count(), 0);
    assert.match(await page.locator('#all-grants').innerText(), new RegExp(`v1\\s+${isoDay(t0 + 60 * day)}`));
    assert.deepEqual(await seriousViolations(page), []);
    assert.deepEqual(errors, []);
    await signOut(page);

    const consumer = await signInAs(keys.acme!);
    assert.equal(await consumer.page.locator('#grants .grant-until').innerText(), isoDay(t0 + 60 * day));
    assert.match(await consumer.page.locator('#extended-access-requests').innerText(), /granted/);
    assert.deepEqual(await seriousViolations(consumer.page), []);
    await signOut(consumer.page);
    const mail = await mailTo(contacts.acme!);
    assert.equal(mail.subject, `Extended access to v1 granted until ${isoDay(t0 + 60 * day)}`);
    assert.match(mail.text ?? '', new RegExp(`Your calls are answered until: ${isoDay(t0 + 60 * day)}`));
  });

  it('the owner declines a second request with a reason, and the consumer reads it', async () => {
    await ask(keys.globex!, 'we need one more quarter');
    const { page } = await signInAs(adminKey);
    const pending = page.locator('.pending-request');
    await pending.locator('form.decline').getByLabel('Reason').fill('v2 has every field you call');
    await Promise.all([
      page.waitForURL(/\/portal(#extended-access)?$/),
      pending.getByRole('button', { name: 'Decline' }).click(),
    ]);
    assert.equal(await page.locator('.pending-request').count(), 0);
    await signOut(page);
    const consumer = await signInAs(keys.globex!);
    const requests = await consumer.page.locator('#extended-access-requests').innerText();
    assert.match(requests, /declined/);
    assert.match(requests, /v2 has every field you call/);
    assert.equal(await consumer.page.locator('#grants').innerText(), 'No grant of extended access.');
    assert.deepEqual(browser.outside, []);
    await signOut(consumer.page);
    const mail = await mailTo(contacts.globex!);
    assert.equal(mail.subject, 'Extended access to v1 declined: v2 has every field you call');
    assert.match(mail.text ?? '', /Reason: v2 has every field you call/);
    assert.equal(smtp.messages.length, 2, 'one email per decision, and nothing else');
  });
});
