import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import type { Decision, DecisionTableSource, ProblemRow } from '../core/rulebook/index.ts';
import { tableRefusal } from './public-decision.ts';

const rendered = new VersionaryError({
  code: ErrorCode.ElementRemoved,
  detail: 'order was deprecated in v1 and is past its sunset.',
  errors: [{ pointer: '/query/order', detail: 'order is past its sunset' }],
  extensions: { elements: [] },
  headers: { link: '</guide>; rel="deprecation"' },
});

const sourceOf = (error: VersionaryError): DecisionTableSource => ({
  latest: () => undefined,
  current: () => Promise.reject(new Error('not used')),
  errorOf: () => error,
});

function refusal(problem: Partial<ProblemRow>): Decision & { outcome: 'refuse' } {
  const body = { type: '/problems/element-removed', title: 'Gone', status: 400, code: 'ELEMENT_REMOVED' };
  return {
    outcome: 'refuse',
    rule: 'element_removed',
    headers: {},
    deprecated: false,
    problem: { status: 400, headers: {}, body: { ...body, detail: rendered.detail }, ...problem },
  };
}

test('a refusal with nothing filled in is the rendered error itself', () => {
  assert.equal(tableRefusal(sourceOf(rendered), refusal({})), rendered);
});

test("a refusal with headers filled in keeps the error's field errors, extensions and code", () => {
  const decision = refusal({ headers: { 'retry-after': '60' } });
  const error = tableRefusal(sourceOf(rendered), decision, { sunset: 'Tue, 01 Jun 2027 00:00:00 GMT' });
  assert.notEqual(error, rendered);
  assert.equal(error.code, rendered.code);
  assert.deepEqual(error.errors, rendered.errors);
  assert.deepEqual(error.extensions, rendered.extensions);
  assert.deepEqual(error.headers, {
    sunset: 'Tue, 01 Jun 2027 00:00:00 GMT',
    link: '</guide>; rel="deprecation"',
    'retry-after': '60',
  });
});

test("a detail the rule filled in (`{version}`) is the refusal's, with no header to fill", () => {
  const body = { type: '/problems/version-unknown', title: 'Unknown', status: 404, code: 'VERSION_UNKNOWN' };
  const decision = refusal({ body: { ...body, detail: 'v9 is not a published version.' } });
  const error = tableRefusal(sourceOf(rendered), decision);
  assert.equal(error.detail, 'v9 is not a published version.');
  assert.deepEqual(error.errors, rendered.errors);
});
