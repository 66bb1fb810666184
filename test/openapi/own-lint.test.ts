import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCliProcess } from '../support/cli-process.ts';
import { createTestApp } from '../support/test-app.ts';
import { fetchServedDocuments, jwtEnv } from './served-documents.ts';

// The project's own documents pass its own conformance lint, as a user runs it: `versionary lint <file>`.
test('versionary lint finds nothing in the documents the service serves, the management one included', async () => {
  const t = await createTestApp({ env: jwtEnv });
  const dir = mkdtempSync(join(tmpdir(), 'versionary-own-lint-'));
  try {
    for (const [file, document] of Object.entries(await fetchServedDocuments(t.app))) {
      writeFileSync(join(dir, file), JSON.stringify(document));
      const r = await runCliProcess(['lint', file], { cwd: dir });
      assert.equal(r.code, 0, `${file}:\n${r.stdout}${r.stderr}`);
    }
  } finally {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
