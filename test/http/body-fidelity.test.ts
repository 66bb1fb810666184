import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { assertFieldErrors, assertProblem } from '../support/assertions.ts';
import { createTestApp, json, snapshotTables, type TestApp } from '../support/test-app.ts';

const jsonType = { 'content-type': 'application/json' };

describe('request body fidelity', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  it('refuses a NUL character in any string or member name with 400 naming where, and stores nothing', async () => {
    const before = await snapshotTables(t.db);
    const nul = String.fromCharCode(0);
    for (const [payload, pointer] of [
      [{ name: `a${nul}b` }, '/body/name'],
      [{ name: 'ok', nickname: nul }, '/body/nickname'],
      [{ name: 'ok', [`x${nul}`]: 1 }, `/body/x${nul}`],
    ] as const) {
      const problem = assertFieldErrors(
        await t.app.inject({
          method: 'POST',
          url: '/api/v2/users',
          headers: jsonType,
          payload: JSON.stringify(payload),
        }),
        pointer,
      );
      assert.match(problem.detail, /U\+0000/);
    }
    assert.equal(await snapshotTables(t.db), before, 'nothing was stored');
    const created = await t.app.inject({ method: 'POST', url: '/api/v2/users', payload: { name: 'x' } });
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/v2/users/${json(created).id}`,
      headers: { 'content-type': 'application/merge-patch+json' },
      payload: JSON.stringify({ name: `a${nul}` }),
    });
    assertFieldErrors(patch, '/body/name');
    assert.equal((await t.app.inject({ url: `/api/v2/users/${json(created).id}` })).json().name, 'x');
  });

  it('stores every other character whole, and reads it back the same', async () => {
    const name = 'a\u0001b\u001f\u2028é😀\ufeff';
    const created = await t.app.inject({ method: 'POST', url: '/api/v2/users', payload: { name } });
    assert.equal(created.statusCode, 201);
    assert.equal((await t.app.inject({ url: `/api/v2/users/${json(created).id}` })).json().name, name);
  });

  it('refuses a charset other than UTF-8 with 415, and accepts UTF-8 however it is spelled', async () => {
    for (const charset of ['latin1', 'iso-8859-1', 'utf-16', 'utf8x', '"windows-1252"']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/users',
        headers: { 'content-type': `application/json; charset=${charset}` },
        payload: '{"name":"c"}',
      });
      assertProblem(res, { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    for (const charset of ['utf-8', 'UTF-8', '"utf-8"']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/users',
        headers: { 'content-type': `application/json; charset=${charset}` },
        payload: '{"name":"c"}',
      });
      assert.equal(res.statusCode, 201, charset);
    }
  });

  it('refuses a Content-Encoding it does not decode with 415, whatever the body', async () => {
    const before = await snapshotTables(t.db);
    for (const [encoding, payload] of [
      ['gzip', gzipSync('{"name":"z"}')],
      ['br', Buffer.from('{"name":"z"}')],
      ['deflate, gzip', Buffer.from('{}')],
      ['x-custom', Buffer.from('{"name":"z"}')],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v2/users',
        headers: { ...jsonType, 'content-encoding': encoding },
        payload,
      });
      const problem = assertProblem(res, { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
      assert.match(problem.detail, /Content-Encoding/);
    }
    assert.equal(await snapshotTables(t.db), before);
    const identity = await t.app.inject({
      method: 'POST',
      url: '/api/v2/users',
      headers: { ...jsonType, 'content-encoding': 'identity' },
      payload: '{"name":"i"}',
    });
    assert.equal(identity.statusCode, 201);
  });

  it('refuses invalid UTF-8 in a JSON body with 400', async () => {
    for (const bytes of [[0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xf0, 0x28, 0x8c, 0x28], [0xc0, 0xaf]]) {
      const payload = Buffer.concat([Buffer.from('{"name":"'), Buffer.from(bytes), Buffer.from('"}')]);
      const problem = assertProblem(
        await t.app.inject({ method: 'POST', url: '/api/v2/users', headers: jsonType, payload }),
        { status: 400, code: 'MALFORMED_REQUEST' },
      );
      assert.match(problem.detail, /not valid UTF-8/);
    }
  });
});
