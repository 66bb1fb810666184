import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { launchBrowser, saveScreenshot, seriousViolations, type TestBrowser } from '../support/browser.ts';
import { startPythonUpstream, startTestGateway, type PythonUpstream, type TestGateway } from '../support/gateway.ts';

const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

// The portal a gateway serves, in a real Chromium: the Python API's own documents, with the banner
// of its deprecated version.
describe('gateway: docs pages in Chromium', { timeout: 240_000 }, () => {
  let python: PythonUpstream;
  let gateway: TestGateway;
  let browser: TestBrowser;
  before(async () => {
    python = await startPythonUpstream();
    gateway = await startTestGateway({
      upstream: python.url,
      file: {
        versions: {
          v1: { deprecatedAt: iso(Date.now() - 170 * day), sunsetAt: iso(Date.now() + 20 * day), replacement: 'v2' },
        },
      },
    });
    browser = await launchBrowser(gateway.base);
  });
  after(async () => {
    await browser?.close();
    await gateway?.stop();
    await python?.stop();
  });

  it("shows the deprecated version with its banner, and the upstream's operations marked deprecated", async () => {
    const { page, errors } = await browser.open('/docs/v1');
    const banner = page.locator('#deprecation');
    assert.equal(await banner.count(), 1);
    const text = await banner.innerText();
    for (const expected of ['v1 is deprecated', 'v2', 'migration guide'])
      assert.ok(text.includes(expected), `banner says ${expected}: ${text}`);
    await page.locator('#reference .opblock').first().waitFor({ timeout: 60_000 });
    const operations = page.locator('#reference .opblock');
    assert.ok((await operations.count()) >= 5, "the Python API's operations");
    assert.equal(await operations.and(page.locator('.opblock-deprecated')).count(), await operations.count());
    assert.match(await page.locator('#reference').innerText(), /\/users\/\{id\}/);
    await saveScreenshot(page, 'gateway-docs-v1');
    assert.deepEqual(await seriousViolations(page), []);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('shows the current version without a banner', async () => {
    const { page, errors } = await browser.open('/docs/v2');
    assert.equal(await page.locator('#deprecation').count(), 0);
    await page.locator('#reference .opblock').first().waitFor({ timeout: 60_000 });
    assert.equal(await page.locator('#reference .opblock-deprecated').count(), 0);
    assert.deepEqual(errors, []);
    await page.close();
  });
});
