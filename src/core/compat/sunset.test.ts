// Removing an operation is judged by the sunset date clients were promised, read at the
// injected clock: before that date the removal breaks them, after it the removal is expected.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFixedClock } from '../clock/index.ts';
import { diffOpenApi } from './diff-openapi.ts';
import { openapi } from '../../../test/support/openapi-builder.ts';

const ok = { description: 'ok' };
const before = createFixedClock(Date.parse('2026-06-01T00:00:00Z'));
const after = createFixedClock(Date.parse('2027-06-01T00:00:00Z'));
const users = (get: Record<string, unknown>, item: Record<string, unknown> = {}) =>
  openapi({
    '/api/v1/users': { ...item, get: { responses: { '200': ok }, ...get }, post: { responses: { '201': ok } } },
    '/api/v1/posts': { get: { responses: { '200': ok } } },
  });
const without = openapi({
  '/api/v1/users': { post: { responses: { '201': ok } } },
  '/api/v1/posts': { get: { responses: { '200': ok } } },
});
const postsOnly = openapi({ '/api/v1/posts': { get: { responses: { '200': ok } } } });
const run = (base: unknown, revision: unknown, clock = before) => diffOpenApi({ base, revision, clock }).changes;
const ids = (base: unknown, revision: unknown, clock = before) =>
  run(base, revision, clock).map((c) => `${c.id}:${c.level}`);

describe('an operation removed before or after its sunset date', () => {
  const dated = users({ deprecated: true, 'x-sunset': '2027-01-01' });
  it('before its x-sunset date it breaks, with the date in the message', () => {
    const [change] = run(dated, without);
    assert.equal(change?.id, 'endpoint-removed-before-sunset');
    assert.equal(change?.level, 'breaking');
    assert.equal(change?.oldValue, '2027-01-01');
    assert.match(
      change?.message ?? '',
      /GET \/api\/v1\/users was removed before its sunset date 2027-01-01 \(x-sunset on the operation\)/,
    );
  });
  it('after it the removal is a risk, as for any deprecated operation', () => {
    assert.deepEqual(ids(dated, without, after), ['endpoint-removed-after-deprecation:risk']);
    assert.match(run(dated, without, after)[0]?.message ?? '', /after its sunset date 2027-01-01/);
  });
  it('the reverse edit (the operation comes back) is an addition either way', () => {
    assert.deepEqual(ids(without, dated), ['endpoint-added:compatible']);
    assert.deepEqual(ids(without, dated, after), ['endpoint-added:compatible']);
  });
  it('the exact sunset instant counts as reached', () => {
    const instant = users({ deprecated: true, 'x-sunset': '2026-06-01T00:00:00Z' });
    assert.deepEqual(ids(instant, without), ['endpoint-removed-after-deprecation:risk']);
  });
  it('a sunset date binds even when the operation was not marked deprecated', () => {
    assert.deepEqual(ids(users({ 'x-sunset': '2027-01-01' }), without), ['endpoint-removed-before-sunset:breaking']);
    assert.deepEqual(ids(users({ 'x-sunset': '2027-01-01' }), without, after), [
      'endpoint-removed-after-deprecation:risk',
    ]);
  });
  it('without a date, a deprecated removal stays a risk and an undeprecated one breaks', () => {
    assert.deepEqual(ids(users({ deprecated: true }), without), ['endpoint-removed-after-deprecation:risk']);
    assert.deepEqual(ids(users({}), without), ['endpoint-removed:breaking']);
  });
  it('an unparseable date promises nothing', () => {
    assert.deepEqual(ids(users({ deprecated: true, 'x-sunset': 'soon' }), without), [
      'endpoint-removed-after-deprecation:risk',
    ]);
  });
  it('without a clock no sunset counts as passed', () => {
    assert.deepEqual(
      diffOpenApi({ base: dated, revision: without }).changes.map((c) => c.id),
      ['endpoint-removed-before-sunset'],
    );
  });
});

describe('sunset dates on the path item and in a Sunset header', () => {
  it('a whole path removed before the x-sunset of its path item breaks for each operation', () => {
    const base = users({ deprecated: true }, { 'x-sunset': '2027-01-01' });
    const changes = run(base, postsOnly);
    assert.deepEqual(
      changes.map((c) => `${c.id} ${c.location.method ?? ''}`),
      ['endpoint-removed-before-sunset GET', 'endpoint-removed-before-sunset POST'],
    );
    assert.match(
      changes[0]?.message ?? '',
      /\(with its whole path\) was removed before its sunset date 2027-01-01 \(x-sunset on the path\)/,
    );
    assert.deepEqual(ids(base, postsOnly, after), [
      'endpoint-removed-after-deprecation:risk',
      'endpoint-removed-after-deprecation:risk',
    ]);
    assert.deepEqual(ids(postsOnly, base), ['endpoint-added:compatible', 'endpoint-added:compatible']);
  });
  it("the operation's own date wins over its path's", () => {
    const base = users({ 'x-sunset': '2026-01-01' }, { 'x-sunset': '2027-01-01' });
    assert.deepEqual(ids(base, without), ['endpoint-removed-after-deprecation:risk']);
  });
  it('a Sunset response header with one fixed value is a promise too', () => {
    const header = (schema: Record<string, unknown>) =>
      users({
        deprecated: true,
        responses: { '200': { description: 'ok', headers: { Sunset: { schema: { type: 'string', ...schema } } } } },
      });
    const [change] = run(header({ const: 'Fri, 01 Jan 2027 00:00:00 GMT' }), without);
    assert.equal(change?.id, 'endpoint-removed-before-sunset');
    assert.match(change?.message ?? '', /Fri, 01 Jan 2027 00:00:00 GMT \(the Sunset response header\)/);
    assert.deepEqual(ids(header({ enum: ['2027-01-01'] }), without, after), [
      'endpoint-removed-after-deprecation:risk',
    ]);
    assert.deepEqual(
      ids(header({}), without),
      ['endpoint-removed-after-deprecation:risk'],
      'a header with no fixed value names no date',
    );
  });
});
