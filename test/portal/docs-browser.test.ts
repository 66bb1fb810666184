import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launchBrowser, saveScreenshot, seriousViolations, type TestBrowser } from '../support/browser.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

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
  before(async () => {
    t = await createTestApp({ anonymous: true, now: Date.UTC(2026, 7, 10, 12), env: { VERSIONARY_CONFIG: '/c.json' }, files: { '/c.json': JSON.stringify(lifecycle) } });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    browser = await launchBrowser(address);
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
    for (const expected of ['v1 is deprecated', '2026-03-02', '2026-09-01', '22 day(s)', 'v2', 'migration guide']) assert.ok(text.includes(expected), `banner says ${expected}: ${text}`);
    assert.equal(await banner.getByRole('link', { name: /migration guide/i }).getAttribute('href'), '/api/versions/v1/migration-guide');
    await page.locator('#reference .opblock').first().waitFor({ timeout: 60_000 });
    // Every resource operation is marked deprecated; the document's own route stays readable for migration.
    const resources = page.locator('#reference .opblock').filter({ hasNotText: '/openapi.json' });
    const operations = await resources.count();
    assert.ok(operations >= 5, `operations rendered: ${operations}`);
    assert.equal(await resources.and(page.locator('.opblock-deprecated')).count(), operations, 'every v1 resource operation is marked deprecated');
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
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.ok(overflow <= 0, `page is ${overflow}px wider than the phone`);
    const box = await page.locator('#deprecation').boundingBox();
    assert.ok(box && box.y < 740, 'the banner shows without scrolling');
    await saveScreenshot(page, 'docs-v1-phone');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('renders the docs index and the changelog accessibly', async () => {
    for (const [path, name] of [['/docs', 'docs-index'], ['/docs/changelog', 'changelog']] as const) {
      const { page, errors } = await browser.open(path);
      assert.ok((await page.locator('h1').innerText()).length > 0);
      if (path === '/docs/changelog') {
        const kinds = await page.locator('.entry').evaluateAll((items) => items.map((i) => i.getAttribute('data-kind')));
        assert.deepEqual(kinds, ['reminder', 'deprecated', 'released', 'released']);
      }
      await saveScreenshot(page, name);
      assert.deepEqual(await seriousViolations(page), [], `axe on ${path}`);
      assert.deepEqual(errors, [], `console of ${path}`);
      await page.close();
    }
  });

  it('made no request outside the service', () => {
    assert.deepEqual(browser.outside, []);
  });
});
