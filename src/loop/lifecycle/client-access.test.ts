import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ElementDeprecation } from '../../core/lifecycle/index.ts';
import type { ClientExemption } from '../../kernel/ports/index.ts';
import { createClientAccess } from './client-access.ts';

const day = 86_400_000;
const t0 = Date.UTC(2027, 0, 1);
const nickname: ElementDeprecation = {
  kind: 'field',
  version: 'v2',
  element: 'User.nickname',
  schema: 'User',
  field: 'nickname',
  replacement: 'displayName',
  deprecatedAt: t0 - 200 * day,
  sunsetAt: t0 + 10 * day,
  extendedAccessUntil: t0 + 100 * day,
  closedToNewClientsAt: t0 + 5 * day,
};
const exemption: ClientExemption = {
  id: 'ex_1',
  clientId: 'cl_acme',
  subject: { kind: 'element', version: 'v2', element: 'User.nickname' },
  until: t0 + 60 * day,
  reason: 'x',
  grantedBy: 'admin',
  grantedAt: t0,
  revokedAt: null,
  revokedBy: null,
};

test('an element: exemptions past its sunset, the closing before it, unauthenticated calls as new', async () => {
  let now = t0;
  const asked: string[] = [];
  const access = createClientAccess({
    clock: { now: () => now },
    exemptions: { list: async () => [exemption] },
    // Only acme had used the field before its closing.
    usage: {
      calledBefore: async (o) => {
        asked.push(`${o.clientId} ${o.element}`);
        return o.clientId === 'cl_acme';
      },
    },
  });
  await access.load();
  const guideOf = () => '/guide';
  const view = (clientId: string | undefined) => access.clientElements({ used: [nickname], clientId, guideOf });

  assert.equal(access.elementTouches(nickname, now), false, 'before its closing, nothing per client');
  now = t0 + 6 * day;
  assert.equal(access.elementTouches(nickname, now), true);
  assert.deepEqual(await view('cl_acme'), [nickname]);
  for (const who of ['cl_globex', undefined])
    await assert.rejects(view(who), (e: Error & { code?: string; extensions?: Record<string, unknown> }) => {
      assert.equal(e.code, 'CLOSED_TO_NEW_CLIENTS');
      assert.equal(e.extensions?.replacement, 'User.displayName');
      return true;
    });
  assert.deepEqual(asked, ['cl_acme User.nickname', 'cl_globex User.nickname'], 'no question for an anonymous call');

  // Past the sunset the removal wins over the closing: only the exempt client's view changes.
  now = t0 + 20 * day;
  assert.equal(access.elementTouches(nickname, now), true);
  assert.deepEqual(await view('cl_acme'), [{ ...nickname, sunsetAt: t0 + 60 * day }]);
  assert.deepEqual(await view('cl_globex'), [nickname]);
  assert.deepEqual(await view(undefined), [nickname]);
  now = t0 + 61 * day;
  assert.deepEqual(await view('cl_acme'), [nickname], 'its own date has passed');
  assert.equal(access.elementTouches({ ...nickname, element: 'User.other' }, now), false, 'no exemption for it');
});
