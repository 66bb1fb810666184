import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium, installed by `.ci/run` when missing. */
export const chromiumPath = '/usr/bin/chromium';

/** Where screenshots go: git-ignored, kept by CI as artifacts. */
export const artifactDir = join(import.meta.dirname, '..', '..', 'test-artifacts');

const flags = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A browser on a fresh profile that refuses (and records) every request leaving `origin`. */
export interface TestBrowser {
  context: BrowserContext;
  /** URLs the pages asked for outside the service: must stay empty. */
  outside: string[];
  /** Open a page that records console errors and uncaught exceptions. */
  open(path: string, viewport?: { width: number; height: number }): Promise<{ page: Page; errors: string[] }>;
  close(): Promise<void>;
}

/**
 * Launch Chromium headless on a throwaway profile. Every request is intercepted: those to the
 * service go on, any other is aborted and recorded, so a test proves no page reaches outside.
 */
export async function launchBrowser(origin: string): Promise<TestBrowser> {
  assert.ok(existsSync(chromiumPath), `${chromiumPath} is missing: apt-get install -y chromium (as .ci/run does)`);
  const profile = mkdtempSync(join(tmpdir(), 'versionary-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    args: flags,
    headless: true,
    serviceWorkers: 'block',
  });
  const outside: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`) || url.startsWith('data:')) return route.continue();
    outside.push(url);
    return route.abort('blockedbyclient');
  });
  return {
    context,
    outside,
    async open(path, viewport = { width: 1280, height: 900 }) {
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(String(error)));
      const response = await page.goto(`${origin}${path}`, { waitUntil: 'load', timeout: 60_000 });
      assert.equal(response?.status(), 200, `GET ${path}`);
      return { page, errors };
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One axe-core finding, as much as a failure message needs. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Run axe-core inside the page (evaluated through the DevTools protocol, so the page's CSP, which
 * allows no inline script, stays as it is) and return the serious and critical violations.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run(
            context: unknown,
            options: unknown,
          ): Promise<{
            violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }>;
          }>;
        };
      }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.map(String).join(' ')),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Save a full-page screenshot under `test-artifacts/`. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  mkdirSync(artifactDir, { recursive: true });
  const path = join(artifactDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
