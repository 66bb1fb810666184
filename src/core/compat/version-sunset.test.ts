// A version's sunset, as a migration guide's timeline quotes it: the date its document promises.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { versionSunset } from './sunset.ts';

const ok = { description: 'ok' };
const doc = (paths: Record<string, unknown>, info: Record<string, unknown> = {}) => ({
  openapi: '3.1.0',
  info: { title: 't', version: '1', ...info },
  paths,
});

describe('versionSunset', () => {
  it('is undefined when nothing promises a date', () => {
    assert.equal(versionSunset(doc({ '/users': { get: { responses: { '200': ok } } } })), undefined);
  });

  it('takes the latest operation date, naming every operation that promises it', () => {
    const sunset = versionSunset(
      doc({
        '/users': {
          'x-sunset': '2027-03-01',
          get: { responses: { '200': ok } },
          post: { 'x-sunset': '2027-01-01', responses: { '201': ok } },
        },
        '/posts': { get: { 'x-sunset': '2027-03-01', responses: { '200': ok } } },
      }),
    );
    assert.deepEqual(sunset, {
      at: Date.parse('2027-03-01T00:00:00Z'),
      text: '2027-03-01',
      source: 'x-sunset on the path',
      operations: ['GET /users', 'GET /posts'],
    });
  });

  it('reads a fixed Sunset header, and x-sunset in info wins over the operations', () => {
    const header = {
      '200': { description: 'ok', headers: { Sunset: { schema: { const: 'Fri, 01 Jan 2027 00:00:00 GMT' } } } },
    };
    assert.equal(
      versionSunset(doc({ '/users': { get: { responses: header } } }))?.at,
      Date.parse('2027-01-01T00:00:00Z'),
    );
    const removed = versionSunset(doc({ '/users': { get: { responses: header } } }, { 'x-sunset': '2026-12-01' }));
    assert.equal(removed?.source, 'x-sunset in info');
    assert.equal(removed?.at, Date.parse('2026-12-01T00:00:00Z'));
  });
});
