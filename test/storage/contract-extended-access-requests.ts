import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ExtendedAccessRequest, Storage } from '../../src/kernel/ports/index.ts';

const t0 = Date.UTC(2026, 10, 1);
const day = 86_400_000;
const request = (id: string, over: Partial<ExtendedAccessRequest> = {}): ExtendedAccessRequest => ({
  id,
  clientId: 'acme',
  subject: { kind: 'version', version: 'v1' },
  reason: 'our mobile release ships in March',
  requestedUntil: t0 + 60 * day,
  status: 'pending',
  createdAt: t0,
  decidedAt: null,
  decidedBy: null,
  decisionNote: null,
  grantId: null,
  ...over,
});

/** Requests for extended access: each subject kept whole, listed per client and status, decided once. */
export function runExtendedAccessRequestsContract(storage: () => Storage): void {
  it('stores grant requests, lists them per client and status, and decides each once', async () => {
    const s = storage().extendedAccessRequests;
    const endpoint = request('exr_2', {
      createdAt: t0 + 1,
      requestedUntil: null,
      subject: { kind: 'endpoint', version: 'v1', method: 'GET', path: '/users/{id}' },
    });
    const element = request('exr_3', {
      clientId: 'globex',
      createdAt: t0 + 2,
      subject: { kind: 'element', version: 'v1', element: 'User.nickname' },
    });
    await s.insert(request('exr_1'));
    await s.insert(endpoint);
    await s.insert(element);
    assert.deepEqual(await s.find('exr_1'), request('exr_1'));
    assert.deepEqual(await s.find('exr_2'), endpoint);
    assert.deepEqual(await s.find('exr_3'), element);
    assert.equal(await s.find('exr_9'), undefined);
    const ids = (list: ExtendedAccessRequest[]) => list.map((r) => r.id);
    assert.deepEqual(ids(await s.list()), ['exr_1', 'exr_2', 'exr_3']);
    assert.deepEqual(ids(await s.list({ clientId: 'acme' })), ['exr_1', 'exr_2']);

    const grant = {
      id: 'exr_1',
      status: 'granted',
      at: t0 + 10,
      by: 'admin',
      note: null,
      grantId: 'exm_1',
    } as const;
    assert.equal(await s.decide(grant), true);
    assert.equal(await s.decide({ ...grant, status: 'declined', note: 'no' }), false, 'decided once');
    assert.equal(await s.decide({ ...grant, id: 'exr_9' }), false);
    assert.equal(
      await s.decide({ id: 'exr_2', status: 'declined', at: t0 + 11, by: 'admin', note: 'migrate', grantId: null }),
      true,
    );
    assert.deepEqual(
      await s.find('exr_1'),
      request('exr_1', { status: 'granted', decidedAt: t0 + 10, decidedBy: 'admin', grantId: 'exm_1' }),
    );
    assert.deepEqual(ids(await s.list({ status: 'pending' })), ['exr_3']);
    assert.deepEqual(ids(await s.list({ status: 'declined', clientId: 'acme' })), ['exr_2']);
    assert.equal((await s.find('exr_2'))?.decisionNote, 'migrate');
  });
}
