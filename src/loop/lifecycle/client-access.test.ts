import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ElementDeprecation } from '../../core/lifecycle/index.ts';
import type { ExtendedAccessGrant } from '../../kernel/ports/index.ts';
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
const grant: ExtendedAccessGrant = {
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

test('an element has per-client rules from its closing, and past its sunset only with a grant', async () => {
  const access = createClientAccess({ grants: { list: async () => [grant] } });
  await access.load();
  assert.equal(access.elementTouches(nickname, t0), false, 'before its closing, nothing per client');
  assert.equal(access.elementTouches(nickname, t0 + 6 * day), true, 'closed to new clients');
  assert.equal(access.elementTouches(nickname, t0 + 20 * day), true, 'past its sunset, with a grant');
  assert.equal(access.elementTouches({ ...nickname, element: 'User.other' }, t0 + 20 * day), false, 'no grant for it');
  assert.equal(access.extensionOf('cl_acme', 'v2 element User.nickname', nickname.extendedAccessUntil), t0 + 60 * day);
  assert.equal(
    access.extensionOf('cl_acme', 'v2 element User.nickname', t0 + 30 * day),
    t0 + 30 * day,
    'within the cap',
  );
});
