import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAccept } from './accept.ts';

const parse = (header: string | undefined) => parseAccept(header, { vendor: 'versionary' });

describe('parseAccept', () => {
  it('accepts anything without a header or with an empty one', () => {
    assert.deepEqual(parse(undefined), { versions: [], malformed: [], acceptsJson: true });
    assert.deepEqual(parse('   '), { versions: [], malformed: [], acceptsJson: true });
  });

  it('reads the vendor type, case-insensitively', () => {
    assert.deepEqual(parse('application/vnd.versionary.v2+json').versions, [2]);
    assert.deepEqual(parse('Application/VND.Versionary.V1+JSON').versions, [1]);
    assert.equal(parse('application/vnd.versionary.v2+json').acceptsJson, true);
  });

  it('reads a version parameter on JSON types, with or without quotes and v', () => {
    assert.deepEqual(parse('application/json; version=1').versions, [1]);
    assert.deepEqual(parse('application/json;version="2"').versions, [2]);
    assert.deepEqual(parse('application/json; version=v2').versions, [2]);
    assert.deepEqual(parse('*/*; version=2').versions, [2]);
  });

  it('ignores a version parameter on a non-JSON type', () => {
    const info = parse('text/html; version=2');
    assert.deepEqual(info.versions, []);
    assert.equal(info.acceptsJson, false);
  });

  it('reports unreadable versions as malformed', () => {
    assert.deepEqual(parse('application/json; version=abc').malformed, ['application/json; version=abc']);
    assert.equal(parse('application/vnd.versionary.vx+json').malformed.length, 1);
    for (const bad of ['0', '-1', '1.5', '1234567', ''])
      assert.equal(parse(`application/json; version=${bad}`).malformed.length, 1, bad);
  });

  it('skips ranges refused with q=0, in any spelling', () => {
    assert.deepEqual(parse('application/vnd.versionary.v1+json;q=0, application/vnd.versionary.v2+json').versions, [2]);
    assert.equal(parse('application/json;q=0').acceptsJson, false);
    assert.equal(parse('application/json; q=0.000').acceptsJson, false);
    assert.equal(parse('application/json; q=0.1').acceptsJson, true);
  });

  it('collects several versions, deduplicated', () => {
    assert.deepEqual(parse('application/vnd.versionary.v1+json, application/json; version=2').versions, [1, 2]);
    assert.deepEqual(parse('application/vnd.versionary.v2+json, application/json; version=2').versions, [2]);
  });

  it('accepts JSON through wildcards and +json types', () => {
    for (const header of [
      '*/*',
      'application/*',
      'application/problem+json',
      'application/hal+json',
      'text/html, */*;q=0.1',
    ])
      assert.equal(parse(header).acceptsJson, true, header);
  });

  it('refuses JSON when only HTML, XML or text is acceptable', () => {
    for (const header of [
      'text/html',
      'text/html, application/xhtml+xml, application/xml;q=0.9',
      'text/*',
      'image/png',
    ])
      assert.equal(parse(header).acceptsJson, false, header);
  });

  it("ignores another vendor's types", () => {
    const info = parse('application/vnd.github.v3+json');
    assert.deepEqual(info.versions, []);
    assert.equal(info.acceptsJson, true);
  });

  it('reads every version parameter of a range, so two different ones are both seen', () => {
    assert.deepEqual(parse('application/json; version=2; version=1').versions, [2, 1]);
    assert.deepEqual(parse('application/vnd.versionary.v2+json; version=1').versions, [2, 1]);
    assert.deepEqual(parse('application/json; version=2; version=2').versions, [2]);
  });

  it('reads at most 32 ranges', () => {
    const header = [...Array.from({ length: 40 }, () => 'text/html'), 'application/vnd.versionary.v2+json'].join(', ');
    assert.deepEqual(parse(header).versions, []);
  });
});
