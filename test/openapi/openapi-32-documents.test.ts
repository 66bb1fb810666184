// The reference service's version documents served as OpenAPI 3.2: what changes is the version
// line, and `versionary lint` (which reads 3.2) finds nothing in them, as in the 3.1 ones.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { lintOpenApi } from '../../src/core/lint/index.ts';
import { diffOpenApi } from '../../src/core/compat/index.ts';
import { createTestApp, type TestApp } from '../support/test-app.ts';

describe('the service’s documents as OpenAPI 3.2', () => {
  let v31: TestApp;
  let v32: TestApp;
  before(async () => {
    v31 = await createTestApp();
    v32 = await createTestApp({ openapiVersion: '3.2' });
  });
  after(async () => {
    await v31.close();
    await v32.close();
  });

  for (const version of ['v1', 'v2']) {
    it(`${version}: 3.2.0, lint clean, and the same API as its 3.1 form`, async () => {
      const url = `/api/${version}/openapi.json`;
      const doc32 = (await v32.app.inject({ url })).json() as Record<string, unknown>;
      const doc31 = (await v31.app.inject({ url })).json() as Record<string, unknown>;
      assert.equal(doc32.openapi, '3.2.0');
      assert.equal(doc31.openapi, '3.1.0');
      assert.deepEqual(lintOpenApi(doc32), []);
      assert.deepEqual(
        diffOpenApi({ base: doc31, revision: doc32 }).changes.map((c) => c.id),
        [],
      );
    });
  }
});
