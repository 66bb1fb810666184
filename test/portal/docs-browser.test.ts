import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launchBrowser, saveScreenshot, seriousViolations, type TestBrowser } from '../support/browser.ts';
import { createTestApp, testConsumerKey, type TestApp } from '../support/test-app.ts';

// A real socket and a real Chromium: what only a browser shows (the reference rendering, the CSP
// holding, accessibility, phone width).
// v1 deprecated when v2 shipped, with six months' notice; the test stands 22 days before its sunset.
const lifecycle = {
  versions: {
    v1: { releasedAt: '2025-01-15T00:00:00Z', deprecatedAt: '2026-03-02T00:00:00Z', sunsetAt: '2026-09-01T00:00:00Z' },
    v2: { releasedAt: '2026-03-02T00:00:00Z' },
  },
};

describe('docs pages in Chromium', { timeout: 240_000 }, () => {
  let t: TestApp;
  let browser: TestBrowser;
  let origin: string;
  before(async () => {
    t = await createTestApp({
      anonymous: true,
      now: Date.UTC(2026, 7, 10, 12),
      env: { VERSIONARY_CONFIG: '/c.json' },
      files: { '/c.json': JSON.stringify(lifecycle) },
    });
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser(origin);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows v1 ending soon: urgent banner, reference with its operations marked deprecated, no errors', async () => {
    const { page, errors } = await browser.open('/docs/v1');
    const banner = page.locator('#deprecation');
    assert.equal(await banner.count(), 1);
    const text = await banner.innerText();
    assert.equal(await banner.getAttribute('class'), 'banner urgent');
    for (const expected of ['v1 is deprecated', '2026-03-02', '2026-09-01', '22 day(s)', 'v2', 'migration guide'])
      assert.ok(text.includes(expected), `banner says ${expected}: ${text}`);
    assert.equal(
      await banner.getByRole('link', { name: /migration guide/i }).getAttribute('href'),
      '/api/versions/v1/migration-guide',
    );
    await page.locator('#reference .opblock').first().waitFor({ timeout: 60_000 });
    // Every resource operation is marked deprecated; the document's own route stays readable for migration.
    const resources = page.locator('#reference .opblock').filter({ hasNotText: '/openapi.json' });
    const operations = await resources.count();
    assert.ok(operations >= 5, `operations rendered: ${operations}`);
    assert.equal(
      await resources.and(page.locator('.opblock-deprecated')).count(),
      operations,
      'every v1 resource operation is marked deprecated',
    );
    await saveScreenshot(page, 'docs-v1');
    assert.deepEqual(await seriousViolations(page), []);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('shows v2 current: no banner, reference rendered, nothing deprecated', async () => {
    const { page, errors } = await browser.open('/docs/v2');
    assert.equal(await page.locator('#deprecation').count(), 0);
    await page.locator('#reference .opblock').first().waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('#reference .opblock-deprecated').count(), 0);
    await saveScreenshot(page, 'docs-v2');
    assert.deepEqual(await seriousViolations(page), []);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('fits a phone: no sideways scrolling, banner first', async () => {
    const { page, errors } = await browser.open('/docs/v1', { width: 375, height: 740 });
    await page.locator('#reference .opblock').first().waitFor({ timeout: 60_000 });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    assert.ok(overflow <= 0, `page is ${overflow}px wider than the phone`);
    const box = await page.locator('#deprecation').boundingBox();
    assert.ok(box && box.y < 740, 'the banner shows without scrolling');
    await saveScreenshot(page, 'docs-v1-phone');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('renders the docs index and the changelog accessibly', async () => {
    for (const [path, name] of [
      ['/docs', 'docs-index'],
      ['/docs/changelog', 'changelog'],
    ] as const) {
      const { page, errors } = await browser.open(path);
      assert.ok((await page.locator('h1').innerText()).length > 0);
      if (path === '/docs/changelog') {
        const kinds = await page
          .locator('.entry')
          .evaluateAll((items) => items.map((i) => i.getAttribute('data-kind')));
        assert.deepEqual(kinds, ['reminder', 'deprecated', 'released', 'released']);
      }
      await saveScreenshot(page, name);
      assert.deepEqual(await seriousViolations(page), [], `axe on ${path}`);
      assert.deepEqual(errors, [], `console of ${path}`);
      await page.close();
    }
  });

  it('answers "Try it out" once a key is pasted into Authorize: 401 before, 200 after', async () => {
    const { page, errors } = await browser.open('/docs/v2');
    const list = page
      .locator('#reference .opblock')
      .filter({ has: page.locator('[data-path="/api/v2/users"]') })
      .filter({ has: page.locator('.opblock-summary-method', { hasText: 'GET' }) });
    await list.first().waitFor({ timeout: 60_000 });
    const tryIt = async () => {
      await list.locator('.try-out__btn').click();
      await list.locator('.execute').click();
      const status = list.locator('.live-responses-table .response .response-col_status').first();
      await status.waitFor({ timeout: 30_000 });
      const code = (await status.innerText()).trim().slice(0, 3);
      await list
        .locator('.btn-clear')
        .click()
        .catch(() => {});
      await list.locator('.try-out__btn').click();
      return code;
    };
    await list.locator('.opblock-summary').first().click();
    assert.equal(await tryIt(), '401', 'without a key the API refuses');
    const authorize = page.locator('.scheme-container .btn.authorize');
    assert.ok(await authorize.isVisible(), 'the Authorize button shows');
    await authorize.click();
    const bearer = page.locator('.dialog-ux form').filter({ has: page.locator('#auth-bearer-value') });
    await bearer.locator('#auth-bearer-value').fill(testConsumerKey);
    await bearer.getByRole('button', { name: 'Apply credentials' }).click();
    await page.locator('.dialog-ux .btn-done').first().click();
    assert.equal(await tryIt(), '200', 'with the pasted key the API answers');
    assert.deepEqual(await seriousViolations(page), []);
    assert.deepEqual(
      errors.filter((e) => !/status of 401/.test(e)),
      [],
      'no console error but the expected 401',
    );
    await page.close();
  });

  // Chromium aborts a navigation to /favicon.ico itself under Playwright; site-pages.test.ts checks that URL.
  it('loads the site icon the pages name: no 404 in the console', async () => {
    const { page, errors } = await browser.open('/docs');
    const href = await page.locator('link[rel="icon"]').getAttribute('href');
    assert.equal(href, '/portal-assets/icon.svg');
    const response = await page.goto(`${origin}${href}`);
    assert.equal(response?.status(), 200);
    assert.equal(response?.headers()['content-type'], 'image/svg+xml');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('shows a browser a readable 404 page that leads to /docs', async () => {
    const page = await browser.context.newPage();
    const response = await page.goto(`${origin}/docs/v9`);
    assert.equal(response?.status(), 404);
    assert.equal(await page.locator('h1').innerText(), 'Page not found');
    assert.match(await page.locator('#detail').innerText(), /No documentation for v9/);
    await page.getByRole('link', { name: 'API documentation' }).first().click();
    await page.waitForURL(`${origin}/docs`);
    assert.deepEqual(await seriousViolations(page), []);
    await page.close();
  });

  it('made no request outside the service', () => {
    assert.deepEqual(browser.outside, []);
  });
});
