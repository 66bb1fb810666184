import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readVersionChanges } from '../../src/core/versions/index.ts';
import { v2 } from '../../src/reference/api/versions/v2.ts';
import { examples } from '../openapi/served-documents.ts';
import { gatewayEnv, spawnGatewayIn } from '../support/gateway.ts';
import { spawnService, type ServiceProcess } from '../support/service-process.ts';

const changesFile = new URL('../../examples/gateway-derived/reference-changes-v2.json', import.meta.url).pathname;
const adminKey = 'equivalence-admin-key-0123456789';
const headers = { authorization: `Bearer ${adminKey}`, 'x-client': 'equivalence' };
/** Members whose values differ between two resources created one after the other. */
const volatile = new Set(['id', 'userId', 'createdAt', 'updatedAt', 'requestId']);
/** Headers a client acts on, beside the body: the same through the gateway as from the service. */
const relevant = ['content-type', 'location', 'link'];

/**
 * A header as compared: numbers in links are ids, and the lifecycle's links (`deprecation`,
 * `successor-version`, `sunset`) are the deployment's schedule, configured on each side apart.
 */
function headerOf(response: Response, name: string): string | undefined {
  const value = response.headers.get(name)?.replace(/\/\d+/g, '/{n}').replace(/=\d+/g, '={n}');
  if (name !== 'link' || !value) return value;
  const kept = value.split(/,\s*(?=<)/).filter((l) => !/rel="(deprecation|successor-version|sunset)"/.test(l));
  return kept.length > 0 ? kept.join(', ') : undefined;
}

function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, volatile.has(k) ? typeof v : k === 'instance' ? 'path' : normalize(v)]),
  );
}

describe("the reference service's changes as data: v1 derived by the gateway equals the service's own v1", () => {
  let service: ServiceProcess;
  let gateway: Awaited<ReturnType<typeof spawnGatewayIn>>;
  let dir: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'versionary-equivalence-'));
    service = await spawnService({
      env: { DATABASE_URL: `sqlite:${join(dir, 'service.db')}`, VERSIONARY_ADMIN_KEY: adminKey, LOG_LEVEL: 'warn' },
    });
    const document = (await (await fetch(`${service.base}/api/v2/openapi.json`, { headers })).json()) as {
      paths: Record<string, unknown>;
    };
    // The service documents its own document's route; the gateway serves each version's document itself.
    for (const path of Object.keys(document.paths)) if (path.endsWith('/openapi.json')) delete document.paths[path];
    writeFileSync(join(dir, 'openapi-v2.json'), JSON.stringify(document));
    writeFileSync(join(dir, 'changes-v2.json'), readFileSync(changesFile));
    const config = {
      gateway: {
        prefix: '/api',
        vendor: 'versionary',
        // The service checks its own keys: the gateway names the client and passes the credential on.
        identify: { header: 'x-client' },
        versions: {
          v2: { upstream: service.base, openapi: './openapi-v2.json' },
          v1: { derivedFrom: 'v2', changes: './changes-v2.json' },
        },
      },
    };
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
    gateway = await spawnGatewayIn({ dir, env: gatewayEnv(dir) });
  });
  after(async () => {
    await gateway?.stop();
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the change file says what the reference declares in code', () => {
    const { changes, problems } = readVersionChanges(JSON.parse(readFileSync(changesFile, 'utf8')));
    assert.deepEqual(problems, []);
    assert.deepEqual(
      changes.map((c) =>
        c.change.instructions.map((i) => Object.fromEntries(Object.entries(i).filter(([k]) => k !== 'previousFrom'))),
      ),
      v2.changes!.map((c) => c.instructions),
    );
  });

  it('answers every v1 operation with the same status, body and headers', async () => {
    const doc = (await (await fetch(`${service.base}/api/v1/openapi.json`, { headers })).json()) as {
      paths: Record<
        string,
        Record<string, { operationId?: string; requestBody?: { content: Record<string, unknown> } }>
      >;
    };
    // The API's operations; the version's document is the gateway's own, reshaped from v2's (linted in derived-versions.test.ts).
    const api = Object.entries(doc.paths).filter(([path]) => !path.endsWith('/openapi.json'));
    const operations = api.flatMap(([path, item]) =>
      ['get', 'post', 'put', 'patch', 'delete'].flatMap((m) =>
        item[m] ? [{ path, method: m.toUpperCase(), op: item[m]! }] : [],
      ),
    );
    assert.ok(operations.length >= 8, `v1 has its operations: ${operations.length}`);
    for (const { path, method, op } of operations) {
      // Each side gets a user and a post of its own, both made before either is called, so that
      // writes on one leave the other as it was and lists hold the same items.
      const fixtures = [];
      for (let side = 0; side < 2; side++) {
        const user = (await (
          await fetch(`${service.base}/api/v2/users`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({ name: 'Grace', email: 'grace@example.com' }),
          })
        ).json()) as { id: number };
        const post = (await (
          await fetch(`${service.base}/api/v2/users/${user.id}/posts`, {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({ title: 'Hello', body: 'First post.' }),
          })
        ).json()) as { id: number };
        fixtures.push({ user, post });
      }
      const answers = [];
      for (const [side, base] of [service.base, gateway.base].entries()) {
        const { user, post } = fixtures[side]!;
        const url = `/api/v1${path.replace(/^\/api\/v1/, '')}`
          .replace('{id}', String(user.id))
          .replace('{postId}', String(post.id));
        const body = examples[op.operationId ?? ''];
        const response = await fetch(`${base}${url}`, {
          method,
          headers: {
            ...headers,
            ...(body !== undefined
              ? { 'content-type': Object.keys(op.requestBody?.content ?? {})[0] ?? 'application/json' }
              : {}),
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
        const text = await response.text();
        answers.push({
          status: response.status,
          body: text ? normalize(JSON.parse(text)) : text,
          headers: Object.fromEntries(relevant.map((h) => [h, headerOf(response, h)])),
        });
      }
      assert.deepEqual(answers[1], answers[0], `${method} ${path}`);
    }
  });
});
