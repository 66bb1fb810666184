import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { launchBrowser, saveScreenshot, seriousViolations, type TestBrowser } from '../support/browser.ts';
import { createTestApp, testAdminKey, type TestApp } from '../support/test-app.ts';
import { addClient, call } from './dashboard-support.ts';

// The dashboard in Chromium: the sign-in form, the cookie, the warnings and the SVG charts as a
// person sees them, with the CSP on and nothing fetched from elsewhere.
describe('dashboard in Chromium', { timeout: 240_000 }, () => {
  let t: TestApp;
  let browser: TestBrowser;
  let acme: string;
  before(async () => {
    t = await createTestApp({ anonymous: true });
    acme = await addClient(t, {
      id: 'cl_acme',
      name: 'Acme <b>&</b> "Sons"',
      contacts: [{ email: 'dev@acme.test', subscribed: true }],
      roles: ['read', 'write'],
    });
    const globex = await addClient(t, { id: 'cl_globex', name: 'Globex' });
    const user = await t.app.inject({
      method: 'POST',
      url: '/api/v2/users',
      headers: { authorization: `Bearer ${acme}` },
      payload: { name: 'Ada' },
    });
    await call(t, { key: acme, url: '/api/v1/users', times: 4 });
    await call(t, { key: acme, url: `/api/v1/users/${(user.json() as { id: number }).id}`, times: 2 });
    await call(t, { key: globex, url: '/api/v1/users' });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser(address);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const signInAs = async (key: string): Promise<{ page: Page; errors: string[] }> => {
    const opened = await browser.open('/portal');
    assert.ok(opened.page.url().endsWith('/portal/sign-in'), 'signed out: the sign-in page');
    await opened.page.getByLabel('API key').fill(key);
    await Promise.all([
      opened.page.waitForURL(/\/portal$/),
      opened.page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    return opened;
  };

  it('a consumer signs in, sees warnings naming exactly the endpoints it called, its chart, and signs out', async () => {
    const { page, errors } = await signInAs(acme);
    assert.equal(await page.locator('.client-name').innerText(), 'Acme <b>&</b> "Sons"', 'the name shows as text');
    assert.deepEqual(
      await page.locator('#warnings [data-subject]').evaluateAll((s) => s.map((e) => e.getAttribute('data-subject'))),
      ['v1'],
    );
    assert.deepEqual(
      await page.locator('tr[data-endpoint]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-endpoint'))),
      ['GET /users', 'GET /users/{id}'],
    );
    const chart = page.locator('#consumer-usage svg');
    assert.equal(await chart.count(), 1);
    assert.ok((await chart.boundingBox())!.height > 100, 'the chart has a size');
    assert.equal(await page.locator('#consumer-usage polyline').count(), 1);
    await saveScreenshot(page, 'portal-consumer');
    assert.deepEqual(await seriousViolations(page), []);
    const cookies = await browser.context.cookies();
    const session = cookies.find((c) => c.name === 'versionary_portal');
    assert.ok(session && session.httpOnly && session.sameSite === 'Strict' && session.path === '/portal');
    assert.equal(await page.evaluate(() => document.cookie), '', 'scripts cannot read the cookie');
    await Promise.all([page.waitForURL(/\/portal\/sign-in$/), page.getByRole('button', { name: 'Sign out' }).click()]);
    assert.equal(
      (await browser.context.cookies()).some((c) => c.name === 'versionary_portal'),
      false,
    );
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('the admin signs in and sees the timeline, usage, ranked clients and the burn-down', async () => {
    const { page, errors } = await signInAs(testAdminKey);
    assert.equal(await page.locator('h1').innerText(), 'API owner dashboard');
    assert.equal(await page.locator('#lifecycle-timeline svg .lane').count(), 2);
    assert.equal(await page.locator('#admin-usage polyline').count(), 1);
    assert.deepEqual(
      await page
        .locator('#calling tr[data-client]')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-client'))),
      ['cl_acme', 'cl_globex'],
    );
    assert.equal(await page.locator('#burn-down-v1 svg').count(), 1);
    await saveScreenshot(page, 'portal-admin');
    assert.deepEqual(await seriousViolations(page), []);
    await page.setViewportSize({ width: 375, height: 740 });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `page is ${overflow}px wider than a phone`);
    await saveScreenshot(page, 'portal-admin-phone');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('a forged cookie lands on the sign-in page', async () => {
    const origin = new URL(t.app.listeningOrigin);
    await browser.context.addCookies([
      {
        name: 'versionary_portal',
        value: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.forged',
        domain: origin.hostname,
        path: '/portal',
      },
    ]);
    const { page, errors } = await browser.open('/portal');
    assert.ok(page.url().endsWith('/portal/sign-in'));
    assert.equal(await page.getByLabel('API key').count(), 1);
    assert.deepEqual(await seriousViolations(page), []);
    await saveScreenshot(page, 'portal-sign-in');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('made no request outside the service', () => {
    assert.deepEqual(browser.outside, []);
  });
});
