import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ClientUsageRow, Storage, UsageCall } from '../../src/kernel/ports/index.ts';
import { operationPageRows } from '../../src/storage/kysely/usage-operations.ts';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

/** What `byClient` must answer: the calls at or after `since`'s minute and before `until`, summed per key. */
function summed(
  calls: readonly UsageCall[],
  w: { since: number; until?: number; clientId?: string },
): ClientUsageRow[] {
  const sums = new Map<string, ClientUsageRow & { agent: string }>();
  for (const c of calls) {
    if (c.at < Math.floor(w.since / minute) * minute || (w.until !== undefined && c.at >= w.until)) continue;
    if (w.clientId !== undefined && c.clientId !== w.clientId) continue;
    const key = `${c.clientId} ${c.endpoint} ${c.keyId ?? ''}`;
    const agent = c.userAgent ?? '';
    const sum = sums.get(key);
    if (!sum) {
      const { clientId, version, endpoint } = c;
      sums.set(key, {
        clientId,
        version,
        endpoint,
        keyId: c.keyId ?? '',
        calls: 1,
        firstSeen: c.at,
        lastSeen: c.at,
        agent,
      });
      continue;
    }
    sum.calls++;
    sum.firstSeen = Math.min(sum.firstSeen, c.at);
    if (c.at > sum.lastSeen || (c.at === sum.lastSeen && agent > sum.agent)) sum.agent = agent;
    sum.lastSeen = Math.max(sum.lastSeen, c.at);
  }
  return [...sums.values()]
    .sort((a, b) => (`${a.clientId} ${a.endpoint} ${a.keyId}` < `${b.clientId} ${b.endpoint} ${b.keyId}` ? -1 : 1))
    .map(({ agent, keyId, ...r }) => ({ ...r, ...(keyId ? { keyId } : {}), ...(agent ? { userAgent: agent } : {}) }));
}

/** `byClient` over long windows: read in pages from the minutes at the edges and the days between, the same sums. */
export function runClientUsageContract(storage: () => Storage): void {
  it('reads usage per client over long windows, in pages, as the sum of the calls', async () => {
    const s = storage();
    const d0 = Date.UTC(2027, 0, 4);
    const keys = Array.from({ length: 40 }, (_, i) => ({
      clientId: `cu_${i % 8}`,
      endpoint: `GET /q${Math.floor(i / 8)}`,
      ...(i % 5 === 0 ? {} : { keyId: `key_${i % 8}` }),
    }));
    const calls: UsageCall[] = [];
    const at = (t: number, n: number) =>
      keys.forEach((k, i) =>
        calls.push({ version: 'vq', ...k, at: t, ...((i + n) % 3 === 0 ? {} : { userAgent: `agent-${(i + n) % 4}` }) }),
      );
    // The last hour of the first day, every minute: more rows than a page in one slice of minutes.
    for (let m = 0; m < 60; m++) at(d0 + 23 * hour + m * minute, m);
    // Two calls at the same instant with different agents: the greater is kept, as before.
    calls.push({ version: 'vq', ...keys[1]!, at: d0 + 23 * hour + 59 * minute, userAgent: 'zz-agent' });
    for (let d = 1; d <= 9; d++) at(d0 + d * day + 7 * hour, d);
    for (let m = 0; m < 30; m++) at(d0 + 10 * day + m * 7 * minute, m);
    assert.ok(keys.length * 60 > Math.max(...Object.values(operationPageRows)), 'a slice of minutes spans pages');
    await s.usage.insert(calls, { keepRaw: false });
    for (const w of [
      { since: d0 + 23 * hour + 30_000, until: d0 + 10 * day + 2 * hour + 1 },
      { since: d0 + day, until: d0 + 10 * day },
      { since: d0 + 3 * day + hour },
      { since: d0 + 12 * hour, until: d0 + 10 * day + 30 * minute, clientId: 'cu_3' },
      { since: d0 + 23 * hour + 10 * minute, until: d0 + 23 * hour + 50 * minute },
    ])
      assert.deepEqual(await s.usage.byClient({ ...w, version: 'vq' }), summed(calls, w), JSON.stringify(w));
  });
}
