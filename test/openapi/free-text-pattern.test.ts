import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freeTextPattern } from '../../src/core/text/free-text.ts';
import { spawnService, type ServiceProcess } from '../support/service-process.ts';
import { examples } from './served-documents.ts';

type Schema = Record<string, unknown>;
interface Operation {
  operationId: string;
  requestBody?: { content: Record<string, { schema: Schema }> };
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}
/** One string member of a request body, as a document states it. */
interface BodyString {
  version: string;
  method: string;
  path: string;
  media: string;
  operationId: string;
  field: string;
  schema: Schema;
}

const adminKey = 'free-text-admin-key-0123456789';
const headers = { authorization: `Bearer ${adminKey}` };
const isString = (s: Schema) => s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string'));

/** Every string member of every request body of a document, with its schema resolved. */
function bodyStrings(version: string, doc: Document): BodyString[] {
  const resolve = (s: Schema): Schema =>
    typeof s.$ref === 'string' ? resolve(doc.components.schemas[s.$ref.split('/').pop()!]!) : s;
  const found: BodyString[] = [];
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item))
      for (const [media, { schema }] of Object.entries(op.requestBody?.content ?? {}))
        for (const [field, property] of Object.entries((resolve(schema).properties ?? {}) as Record<string, Schema>))
          if (isString(resolve(property)))
            found.push({ version, method, path, media, operationId: op.operationId, field, schema: resolve(property) });
  return found;
}

// The reference service's v1 and v2 documents, served by the service as production runs it, and
// the server's answer to each free-text field: the pattern is what the server enforces, no more.
describe('the v1 and v2 documents state the U+0000 refusal the server enforces', { timeout: 120_000 }, () => {
  let service: ServiceProcess;
  let dir: string;
  let userId = 0;
  const strings: BodyString[] = [];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'versionary-free-text-'));
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ rateLimit: { max: 100_000, windowSeconds: 60 } }));
    service = await spawnService({
      env: {
        DATABASE_URL: `sqlite:${join(dir, 'service.db')}`,
        VERSIONARY_CONFIG: join(dir, 'config.json'),
        VERSIONARY_ADMIN_KEY: adminKey,
        LOG_LEVEL: 'warn',
      },
    });
    for (const version of ['v1', 'v2']) {
      const res = await fetch(`${service.base}/api/${version}/openapi.json`);
      assert.equal(res.status, 200);
      strings.push(...bodyStrings(version, (await res.json()) as Document));
    }
    const created = await fetch(`${service.base}/api/v2/users`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Grace' }),
    });
    assert.equal(created.status, 201, await created.clone().text());
    userId = ((await created.json()) as { id: number }).id;
  });
  after(async () => {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const send = (s: BodyString, value: string) =>
    fetch(`${service.base}${s.path.replace('{id}', String(userId))}`, {
      method: s.method.toUpperCase(),
      headers: { ...headers, 'content-type': s.media },
      body: JSON.stringify({ ...(examples[s.operationId] as object), [s.field]: value }),
    });

  it('every string of a request body refuses U+0000 in its schema; free text by the one pattern', () => {
    const free = strings.filter((s) => s.schema.pattern === freeTextPattern);
    const named = (version: string, operationId: string) =>
      free
        .filter((s) => s.version === version && s.operationId === operationId)
        .map((s) => s.field)
        .sort();
    assert.deepEqual(named('v1', 'users.create'), ['name']);
    assert.deepEqual(named('v2', 'users.create'), ['displayName', 'name', 'nickname']);
    assert.deepEqual(named('v2', 'users.patch'), ['displayName', 'name', 'nickname']);
    assert.deepEqual(named('v1', 'posts.create'), ['body', 'title']);
    assert.deepEqual(named('v2', 'posts.create'), ['body', 'title']);
    // The others state it their own way: an email's pattern, an enum.
    const silent = strings.filter((s) => {
      const values = s.schema.enum as unknown[] | undefined;
      if (values) return values.some((v) => typeof v === 'string' && v.includes('\u0000'));
      return typeof s.schema.pattern !== 'string' || new RegExp(s.schema.pattern, 'u').test('a\u0000b');
    });
    assert.deepEqual(
      silent.map((s) => `${s.version} ${s.operationId} ${s.field}`),
      [],
      'a request string whose schema takes U+0000',
    );
  });

  it('the server refuses a free-text field holding U+0000 with a 400 naming it, and takes every other character', async () => {
    const free = strings.filter((s) => s.schema.pattern === freeTextPattern);
    assert.ok(free.length >= 13, `the free-text fields of both documents: ${free.length}`);
    const regex = new RegExp(freeTextPattern, 'u');
    // Control characters, a tab, line breaks, a line separator, a bidirectional override: the pattern takes them, so must the server.
    const allowed = 'a\u0001\tb\n\u2028c\u202e\u007fd';
    assert.ok(regex.test(allowed) && !regex.test('a\u0000b'));
    for (const s of free) {
      const where = `${s.version} ${s.method.toUpperCase()} ${s.path} ${s.field}`;
      const refused = await send(s, 'a\u0000b');
      assert.equal(refused.status, 400, where);
      const problem = (await refused.json()) as { errors?: Array<{ pointer: string }> };
      assert.deepEqual(
        problem.errors?.map((e) => e.pointer),
        [`/body/${s.field}`],
        where,
      );
      const taken = await send(s, allowed);
      assert.ok(taken.status >= 200 && taken.status < 300, `${where}: ${taken.status} ${await taken.text()}`);
    }
  });
});
