// A deprecated property or parameter is judged by its own x-sunset, as operations are. The
// scenarios mirror oasdiff's checker tests (github.com/oasdiff/oasdiff, checker/ and
// data/param-deprecation/, data/deprecation/): the same base/head content and dates, our own
// documents. Where our outcome differs from oasdiff's, the case says so.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFixedClock } from '../clock/index.ts';
import { diffOpenApi } from './diff-openapi.ts';
import { openapi } from '../../../test/support/openapi-builder.ts';

const clock = createFixedClock(Date.parse('2026-01-01T00:00:00Z'));
const ok = { description: 'OK' };

// data/param-deprecation/*.yaml: GET /api/test with the query parameter `id` by $ref; sunset.yaml drops it.
const paramDoc = (extra?: Record<string, unknown>) => {
  const id = { name: 'id', in: 'query', required: true, schema: { type: 'string' }, ...extra };
  const parameters = extra === undefined ? [] : [{ $ref: '#/components/parameters/id' }];
  return {
    ...openapi({ '/api/test': { get: { parameters, responses: { '200': ok } } } }),
    components: { parameters: { id } },
  };
};
const paramGone = openapi({ '/api/test': { get: { responses: { '200': ok } } } });

// data/deprecation/property_*.yaml: POST /test, TestRequest.oldField in, TestResponse.legacyField out.
const propDoc = (extra: Record<string, unknown> | undefined) => {
  const field = extra === undefined ? {} : { type: 'string', ...extra };
  const body = (schema: string) => ({
    content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
  });
  return openapi(
    {
      '/test': {
        post: {
          requestBody: { required: true, ...body('TestRequest') },
          responses: { '200': { ...ok, ...body('TestResponse') } },
        },
      },
    },
    {
      TestRequest: { type: 'object', properties: { name: { type: 'string' }, ...(extra && { oldField: field }) } },
      TestResponse: { type: 'object', properties: { id: { type: 'string' }, ...(extra && { legacyField: field }) } },
    },
  );
};

const run = (
  base: unknown,
  revision: unknown,
  options: { audience?: 'public' | 'enterprise'; clock?: typeof clock } = { clock },
) => diffOpenApi({ base, revision, ...options }).changes;
const ids = (base: unknown, revision: unknown, options?: Parameters<typeof run>[2]) =>
  run(base, revision, options)
    .map((c) => `${c.id}:${c.level}`)
    .sort();

describe('a removed parameter (oasdiff checker/check_request_parameter_removed_test.go)', () => {
  it('TestBreaking_DeletedParameter (base.yaml → sunset.yaml): never deprecated, still breaking', () => {
    assert.deepEqual(ids(paramDoc({}), paramGone), ['request-parameter-removed:breaking']);
  });
  it('TestBreaking_ParameterDeprecationFuture (deprecated-future.yaml, 9999-08-10): breaking, naming the date', () => {
    const [change, ...rest] = run(paramDoc({ deprecated: true, 'x-sunset': '9999-08-10' }), paramGone);
    assert.deepEqual(rest, []);
    assert.equal(change?.id, 'request-parameter-removed-before-sunset');
    assert.equal(change?.level, 'breaking');
    assert.match(change?.message ?? '', /The query parameter `id` was removed before its sunset date 9999-08-10/);
  });
  it('TestBreaking_ParameterDeprecationPast (deprecated-past.yaml, 2022-08-10): removed as announced', () => {
    // oasdiff reports nothing; we keep a compatible line so the removal is still visible.
    const past = paramDoc({ deprecated: true, 'x-sunset': '2022-08-10' });
    assert.deepEqual(ids(past, paramGone), ['request-parameter-removed-after-sunset:compatible']);
    assert.match(run(past, paramGone)[0]?.message ?? '', /after its sunset date 2022-08-10, as announced/);
  });
  it('TestBreaking_ParameterDeprecationNoSunset (deprecated-no-sunset.yaml): a risk, no date was promised', () => {
    // oasdiff: request-parameter-removed-with-deprecation at INFO; here a risk, as for operations.
    const [change] = run(paramDoc({ deprecated: true }), paramGone);
    assert.equal(`${change?.id}:${change?.level}`, 'request-parameter-removed-after-deprecation:risk');
    assert.match(change?.message ?? '', /promised no date/);
  });
  it('without a clock a dated promise still holds', () => {
    const past = paramDoc({ deprecated: true, 'x-sunset': '2022-08-10' });
    assert.deepEqual(ids(past, paramGone, {}), ['request-parameter-removed-before-sunset:breaking']);
  });
});

describe('a newly deprecated parameter (oasdiff checker/check_request_parameter_deprecation_test.go)', () => {
  it('TestBreaking_ParameterDeprecationWithEarlySunset (sunset 9 days away): breaking for a public API', () => {
    const changes = run(paramDoc({}), paramDoc({ deprecated: true, 'x-sunset': '2026-01-10' }));
    assert.deepEqual(changes.map((c) => `${c.id}:${c.level}`).sort(), [
      'request-parameter-deprecated:compatible',
      'request-parameter-sunset-too-soon:breaking',
    ]);
    assert.match(
      changes[1]?.message ?? '',
      /`id` was deprecated with sunset date 2026-01-10 \(9 days away\); public APIs owe at least 180 days/,
    );
  });
  it('TestBreaking_ParameterDeprecationWithProperSunset (exactly the notice away): only the deprecation', () => {
    assert.deepEqual(ids(paramDoc({}), paramDoc({ deprecated: true, 'x-sunset': '2026-06-30' })), [
      'request-parameter-deprecated:compatible',
    ]);
  });
  it('an enterprise audience is owed 360 days', () => {
    const head = paramDoc({ deprecated: true, 'x-sunset': '2026-09-01' });
    assert.deepEqual(ids(paramDoc({}), head, { clock, audience: 'enterprise' }), [
      'request-parameter-deprecated:compatible',
      'request-parameter-sunset-too-soon:breaking',
    ]);
    assert.deepEqual(ids(paramDoc({}), head, { clock }), ['request-parameter-deprecated:compatible']);
  });
});

// oasdiff has no sunset rules for removed properties: request-property-removed and
// response-optional-property-removed fire whatever the deprecation. These cases take oasdiff's
// property documents (property_deprecated_future.yaml and friends as base, the field dropped as
// head) and apply the parameter rules above to them.
describe('a removed property (oasdiff data/deprecation/property_*.yaml)', () => {
  const beforeSunset = {
    request: 'request-property-removed-before-sunset:breaking',
    response: 'response-property-removed-before-sunset:breaking',
  };
  for (const dir of ['request', 'response'] as const) {
    const name = dir === 'request' ? 'TestRequest.oldField' : 'TestResponse.legacyField';
    it(`${dir}: deprecated with x-sunset 2099-12-31 (property_deprecated_future.yaml), removed before it: breaking`, () => {
      const changes = run(propDoc({ deprecated: true, 'x-sunset': '2099-12-31' }), propDoc(undefined));
      const mine = changes.find((c) => c.direction === dir);
      assert.equal(`${mine?.id}:${mine?.level}`, beforeSunset[dir]);
      assert.ok(mine?.message.includes(`\`${name}\` was removed before its sunset date 2099-12-31`), mine?.message);
    });
    it(`${dir}: removed after its x-sunset: as announced`, () => {
      assert.deepEqual(ids(propDoc({ deprecated: true, 'x-sunset': '2025-12-31' }), propDoc(undefined)), [
        'request-property-removed-after-sunset:compatible',
        'response-property-removed-after-sunset:compatible',
      ]);
    });
    it(`${dir}: deprecated without x-sunset (property_deprecated_no_sunset.yaml): a risk`, () => {
      assert.deepEqual(ids(propDoc({ deprecated: true }), propDoc(undefined)), [
        'request-property-removed-after-deprecation:risk',
        'response-property-removed-after-deprecation:risk',
      ]);
    });
  }
  it('never deprecated (property_base_stable.yaml), even with a date: breaking as before', () => {
    const expected = ['request-property-removed:breaking', 'response-property-removed:breaking'];
    assert.deepEqual(ids(propDoc({}), propDoc(undefined)), expected);
    assert.deepEqual(ids(propDoc({ 'x-sunset': '2025-12-31' }), propDoc(undefined)), expected);
  });
});

describe('a newly deprecated property (oasdiff checker/check_{request,response}_property_deprecation_test.go)', () => {
  it('Test{Request,Response}PropertyDeprecation_WithEarlySunset (9 days away): breaking', () => {
    assert.deepEqual(ids(propDoc({}), propDoc({ deprecated: true, 'x-sunset': '2026-01-10' })), [
      'request-property-deprecated:compatible',
      'request-property-sunset-too-soon:breaking',
      'response-property-deprecated:compatible',
      'response-property-sunset-too-soon:breaking',
    ]);
  });
  it('Test{Request,Response}PropertyDeprecation_WithProperSunset (the notice away): only the deprecation', () => {
    assert.deepEqual(ids(propDoc({}), propDoc({ deprecated: true, 'x-sunset': '2026-06-30T00:00:00Z' })), [
      'request-property-deprecated:compatible',
      'response-property-deprecated:compatible',
    ]);
  });
});
