import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launchBrowser, saveScreenshot, seriousViolations, type TestBrowser } from '../support/browser.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';
import { breaksBundle } from './breaks-support.ts';
import { addClient, call } from './dashboard-support.ts';

// "What breaks for me" in Chromium: a consumer that called only GET /users/{id} on v1 sees the one
// v2 change that reaches it, not the list or posts changes, picks versions with the form, and the
// page passes axe-core with the CSP on and nothing fetched from elsewhere.
describe('what breaks for me, in Chromium', { timeout: 240_000 }, () => {
  let t: TestApp;
  let browser: TestBrowser;
  let acme: string;
  before(async () => {
    t = await createTestApp({ anonymous: true, bundle: breaksBundle() });
    acme = await addClient(t, { id: 'cl_acme', name: 'Acme', roles: ['read', 'write'] });
    const globex = await addClient(t, { id: 'cl_globex', name: 'Globex' });
    const user = await t.app.inject({
      method: 'POST',
      url: '/api/v2/users',
      headers: { authorization: `Bearer ${acme}` },
      payload: { name: 'Ada' },
    });
    await call(t, { key: acme, url: `/api/v1/users/${(user.json() as { id: number }).id}`, times: 2 });
    // Another client's calls to the list: its change must not show for Acme.
    await call(t, { key: globex, url: '/api/v1/users' });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser(address);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('a consumer that called only GET /users/{id} on v1 sees only the change that touches it', async () => {
    const { page, errors } = await browser.open('/portal/sign-in');
    await page.getByLabel('API key').fill(acme);
    await Promise.all([page.waitForURL(/\/portal$/), page.getByRole('button', { name: 'Sign in' }).click()]);
    await Promise.all([page.waitForURL(/\/portal\/breaks\?from=v1&to=v2$/), page.locator('.breaks-link').click()]);
    assert.equal(await page.getByLabel('The version you call now').inputValue(), 'v1');
    assert.equal(await page.getByLabel('The version you move to').inputValue(), 'v2');
    const changes = page.locator('section.break');
    assert.equal(await changes.count(), 1);
    assert.equal(await changes.locator('h3').innerText(), 'The response no longer has the field "login".');
    assert.deepEqual(
      await page.locator('tr[data-endpoint]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-endpoint'))),
      ['GET /users/{id}'],
    );
    const text = await page.locator('main').innerText();
    for (const absent of ['GET /users/{id}/posts', 'changed type', 'a list (JSON array)'])
      assert.ok(!text.includes(absent), `"${absent}" is not on the page`);
    assert.match(text, /Before\s+The response had the field login\./);
    await saveScreenshot(page, 'portal-breaks');
    assert.deepEqual(await seriousViolations(page), []);
    // The form is a plain GET: same versions picked, nothing breaks.
    await page.getByLabel('The version you call now').selectOption('v2');
    await Promise.all([
      page.waitForURL(/\/portal\/breaks\?from=v2&to=v2$/),
      page.getByRole('button', { name: 'Show what breaks' }).click(),
    ]);
    assert.equal(await page.locator('section.break').count(), 0);
    assert.match(await page.locator('#breaks-summary').innerText(), /nothing changes/);
    assert.deepEqual(await seriousViolations(page), []);
    await page.setViewportSize({ width: 375, height: 740 });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `page is ${overflow}px wider than a phone`);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('made no request outside the service', () => {
    assert.deepEqual(browser.outside, []);
  });
});
