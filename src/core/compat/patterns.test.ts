// A pattern is a restriction only when it can reject something: an empty pattern (or `.*`)
// matches every string, so replacing it with a real one adds a pattern.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffOpenApi } from './diff-openapi.ts';
import { object, openapi, requestDoc, responseDoc } from '../../../test/support/openapi-builder.ts';

const field = (pattern?: string) =>
  object({ code: pattern === undefined ? { type: 'string' } : { type: 'string', pattern } });
const ids = (base: unknown, revision: unknown) =>
  diffOpenApi({ base, revision }).changes.map((c) => `${c.id}:${c.level}`);

describe('patterns in a request', () => {
  it('a pattern added where there was none breaks; removing it relaxes', () => {
    assert.deepEqual(ids(requestDoc(field()), requestDoc(field('^\\w+$'))), ['request-constraint-tightened:breaking']);
    assert.deepEqual(ids(requestDoc(field('^\\w+$')), requestDoc(field())), ['request-constraint-relaxed:compatible']);
  });
  it('an empty pattern replaced by a real one breaks; emptying a pattern relaxes', () => {
    assert.deepEqual(ids(requestDoc(field('')), requestDoc(field('^\\w+$'))), [
      'request-constraint-tightened:breaking',
    ]);
    assert.deepEqual(ids(requestDoc(field('^\\w+$')), requestDoc(field(''))), [
      'request-constraint-relaxed:compatible',
    ]);
  });
  it('a match-everything pattern counts as none', () => {
    assert.deepEqual(ids(requestDoc(field('.*')), requestDoc(field('^[a-z]+$'))), [
      'request-constraint-tightened:breaking',
    ]);
    assert.deepEqual(ids(requestDoc(field('^[a-z]+$')), requestDoc(field('.*'))), [
      'request-constraint-relaxed:compatible',
    ]);
    assert.deepEqual(ids(requestDoc(field('')), requestDoc(field())), []);
    assert.deepEqual(ids(requestDoc(field()), requestDoc(field('.*'))), []);
  });
  it('only a change between two real patterns is a risk, either way', () => {
    assert.deepEqual(ids(requestDoc(field('^[a-z]+$')), requestDoc(field('^[a-z0-9]+$'))), [
      'request-constraint-changed:risk',
    ]);
    assert.deepEqual(ids(requestDoc(field('^[a-z0-9]+$')), requestDoc(field('^[a-z]+$'))), [
      'request-constraint-changed:risk',
    ]);
  });
  it('parameters follow the same rules', () => {
    const doc = (pattern?: string) =>
      openapi({
        '/api/v1/users': {
          get: {
            parameters: [
              {
                name: 'q',
                in: 'query',
                schema: pattern === undefined ? { type: 'string' } : { type: 'string', pattern },
              },
            ],
            responses: { '200': { description: 'ok' } },
          },
        },
      });
    assert.deepEqual(ids(doc(''), doc('^\\d+$')), ['request-constraint-tightened:breaking']);
    assert.deepEqual(ids(doc('^\\d+$'), doc('')), ['request-constraint-relaxed:compatible']);
  });
});

describe('patterns in a response', () => {
  it('a pattern added tightens what clients receive; emptied, it relaxes', () => {
    assert.deepEqual(ids(responseDoc(field('')), responseDoc(field('^\\w+$'))), [
      'response-constraint-tightened:compatible',
    ]);
    assert.deepEqual(ids(responseDoc(field('^\\w+$')), responseDoc(field(''))), ['response-constraint-relaxed:risk']);
  });
});
