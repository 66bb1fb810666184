import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestService, type StartedService } from '../support/started-service.ts';

const day = 86_400_000;
const iso = (t: number) => new Date(t).toISOString();
const auth = { authorization: 'Bearer test-admin-key-0123456789' };

/** The service as `node dist/server.js` composes it, with v2's `GET /users/{id}` past its sunset. */
describe('the service: a path parameter of any length matches its template', () => {
  let service: StartedService;
  before(async () => {
    service = await startTestService({
      file: {
        endpointDeprecations: [
          {
            version: 'v2',
            method: 'GET',
            path: '/users/{id}',
            deprecatedAt: iso(Date.now() - 400 * day),
            sunsetAt: iso(Date.now() - day),
          },
        ],
      },
    });
  });
  after(async () => {
    await service.stop();
  });

  it('answers a 2,001- and a 5,001-character id on a removed endpoint 410', async () => {
    for (const length of [2001, 5001]) {
      const res = await fetch(`${service.base}/api/v2/users/${'9'.repeat(length)}`, { headers: auth });
      assert.equal(res.status, 410, `${length} characters`);
      assert.equal(((await res.json()) as { code: string }).code, 'VERSION_REMOVED');
      assert.ok(res.headers.get('sunset'), "the endpoint's Sunset");
    }
  });

  it("answers a long id on a served endpoint as the operation's handler does", async () => {
    const res = await fetch(`${service.base}/api/v1/users/${'9'.repeat(3000)}`, { headers: auth });
    assert.equal(res.status, 404, 'no such user: the route was reached');
    assert.match(
      ((await res.json()) as { detail: string }).detail,
      /^No user has the id "9{40}": ids are positive integers\.$/,
    );
  });
});
