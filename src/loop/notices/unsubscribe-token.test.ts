import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DAY_MS } from '../../core/lifecycle/index.ts';
import { checkUnsubscribe, readUnsubscribe, signUnsubscribe, unsubscribeLinkDays } from './unsubscribe-token.ts';

const secret = 's'.repeat(32);
const link = { secret, clientId: 'cl_1', email: 'Dev@Acme.test' };
const issuedAt = Date.UTC(2026, 0, 15, 12, 0, 0, 7);

test('a token carries its issue time under the signature; any change is refused', () => {
  const token = signUnsubscribe({ ...link, issuedAt });
  assert.match(token, /^[0-9a-z]+-[A-Za-z0-9_-]{43}$/);
  assert.deepEqual(readUnsubscribe({ ...link, email: 'dev@acme.test', token }), { issuedAt });
  const later = signUnsubscribe({ ...link, issuedAt: issuedAt + DAY_MS });
  const shifted = `${later.split('-')[0]}-${token.slice(token.indexOf('-') + 1)}`;
  for (const bad of [shifted, token.slice(token.indexOf('-') + 1), `${token}x`, '', 'a-b'])
    assert.equal(readUnsubscribe({ ...link, token: bad }), undefined, bad);
  assert.equal(readUnsubscribe({ ...link, email: 'ops@acme.test', token }), undefined);
  assert.equal(readUnsubscribe({ ...link, secret: 't'.repeat(32), token }), undefined);
});

test(`a link works for ${unsubscribeLinkDays} days, and never once the client changed after it was issued`, () => {
  const token = signUnsubscribe({ ...link, issuedAt });
  const check = (now: number, changedAt?: number) => checkUnsubscribe({ ...link, token, now, changedAt });
  assert.equal(check(issuedAt + unsubscribeLinkDays * DAY_MS, issuedAt), undefined);
  assert.equal(check(issuedAt + unsubscribeLinkDays * DAY_MS + 1), 'expired');
  assert.equal(check(issuedAt + DAY_MS, issuedAt + 1), 'superseded');
  assert.equal(check(issuedAt, undefined), undefined, 'a deleted client: the contact route answers 404 itself');
  assert.equal(checkUnsubscribe({ ...link, token: 'forged', now: issuedAt, changedAt: 0 }), 'forged');
});
