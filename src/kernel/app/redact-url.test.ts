import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { credentialParams, redactUrl } from './redact-url.ts';

describe('redactUrl', () => {
  it('hides the value of every credential-like parameter, in any case', () => {
    for (const name of credentialParams) {
      assert.equal(redactUrl(`/a?x=1&${name.toUpperCase()}=s3cret&y=2`), `/a?x=1&${name.toUpperCase()}=REDACTED&y=2`);
      assert.equal(redactUrl(`/a?${name}=s3cret`), `/a?${name}=REDACTED`);
    }
  });

  it('hides encoded names, repeated names and names without a value; keeps the rest', () => {
    assert.equal(
      redactUrl('/a?api%5Fkey=s&token=a&token=b#f'),
      '/a?api%5Fkey=REDACTED&token=REDACTED&token=REDACTED#f',
    );
    assert.equal(redactUrl('/a?limit=5&fields=id,name'), '/a?limit=5&fields=id,name');
    assert.equal(redactUrl('/a?%E0%A4%A=1&key'), '/a?%E0%A4%A=1&key=REDACTED');
    assert.equal(redactUrl('/plain'), '/plain');
  });

  it('redacts a full URL and a bare query, as spans carry them', () => {
    assert.equal(
      redactUrl('http://127.0.0.1:8080/api/v2/users?api_key=s3cret&limit=1'),
      'http://127.0.0.1:8080/api/v2/users?api_key=REDACTED&limit=1',
    );
    assert.equal(redactUrl('?limit=1&access_token=s3cret'), '?limit=1&access_token=REDACTED');
  });
});
