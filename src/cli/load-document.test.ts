import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadDocumentSet } from './load-document.ts';

const repo = fileURLToPath(new URL('../../', import.meta.url));

describe('loadDocumentSet on a JSON file that is not OpenAPI', () => {
  it('names the missing "openapi" or "swagger" field instead of "found null"', async () => {
    await assert.rejects(loadDocumentSet('package.json', { cwd: repo }), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'SPEC_INVALID');
      assert.match(
        error.message,
        /package\.json: expected an OpenAPI 3\.x document .*found neither an "openapi" nor a "swagger" field/,
      );
      assert.match(error.message, /top-level keys: "name", /);
      assert.doesNotMatch(error.message, /found null/);
      return true;
    });
  });

  it('still names a Swagger 2.0 file as such', async () => {
    await assert.rejects(loadDocumentSet('test/fixtures/compat/swagger2.json', { cwd: repo }), /found Swagger 2\.0\./);
  });
});
