import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ErrorCode, errorTitles } from '../core/errors/index.ts';
import { statusOf } from './status-table.ts';

test('docs/errors.md lists every error code with its status and title, and nothing else', () => {
  const doc = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8');
  const rows = [...doc.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \| ([^|]+) \|/gm)].map((m) => ({
    code: m[1]!,
    status: Number(m[2]),
    title: m[3]!.trim(),
  }));
  const codes = Object.values(ErrorCode);
  assert.deepEqual(rows.map((r) => r.code).sort(), [...codes].sort());
  for (const row of rows) {
    const code = row.code as ErrorCode;
    assert.equal(row.status, statusOf[code], `status of ${code}`);
    assert.equal(row.title, errorTitles[code], `title of ${code}`);
  }
});

test("client errors map to 4xx, only definition, config and unexpected failures to 500, only passing unavailability to 503, only the gateway's upstream to 502 and 504, and only a missing optional package to 501", () => {
  const withStatus = (status: number) =>
    Object.entries(statusOf)
      .filter(([, s]) => s === status)
      .map(([c]) => c)
      .sort();
  assert.deepEqual(withStatus(500), ['INTERNAL', 'INVALID_CONFIG', 'INVALID_DEFINITION']);
  assert.deepEqual(withStatus(503), ['SHUTTING_DOWN', 'STORAGE_UNAVAILABLE']);
  assert.deepEqual(withStatus(502), ['UPSTREAM_UNREACHABLE', 'UPSTREAM_UNTRANSLATABLE']);
  assert.deepEqual(withStatus(504), ['UPSTREAM_TIMEOUT']);
  assert.deepEqual(withStatus(501), ['PACKAGE_MISSING']);
  assert.deepEqual(
    Object.entries(statusOf).filter(([, s]) => s >= 500 && ![500, 501, 502, 503, 504].includes(s)),
    [],
  );
});
