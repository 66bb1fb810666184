import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ensureSecret, isSecret, secretFileOf } from './secret.ts';

describe("nginx's shared secret", () => {
  const dir = mkdtempSync(join(tmpdir(), 'versionary-secret-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is written once, 32 random bytes readable by its owner alone, in a folder of its own', () => {
    const path = secretFileOf(join(dir, 'out'));
    const secret = ensureSecret(path);
    assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'out', 'private')).mode & 0o777, 0o700);
    // A render again keeps it: a running nginx and the control planes sharing it stay in step.
    assert.equal(ensureSecret(path), secret);
    assert.equal(readFileSync(path, 'utf8').trim(), secret);
  });

  it('takes a copied secret as it is, closing a lax mode, and refuses one too short', () => {
    const path = join(dir, 'copied');
    writeFileSync(path, `${'a'.repeat(43)}\n`);
    chmodSync(path, 0o644);
    assert.equal(ensureSecret(path), 'a'.repeat(43));
    assert.equal(statSync(path).mode & 0o777, 0o600);
    writeFileSync(path, 'short');
    assert.throws(() => ensureSecret(path), /not 43 to 512 base64url characters/);
  });

  it('matches the secret alone', () => {
    const secret = 'b'.repeat(43);
    assert.ok(isSecret(secret, secret));
    for (const given of [undefined, '', `${secret}b`, secret.slice(1), ['x', secret], 'c'.repeat(43)])
      assert.equal(isSecret(given, secret), false, String(given));
  });
});
