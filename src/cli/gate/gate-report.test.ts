import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { judgeChanges, type Change } from '../../core/compat/index.ts';
import { fingerprintOf } from '../../core/compat/usage-gate.ts';
import { formatGateText } from './gate-report.ts';

const change: Change = {
  id: 'endpoint-removed',
  level: 'breaking',
  message: 'GET /users was removed',
  location: { method: 'GET', path: '/users', pointer: '/paths/~1users/get' },
};
// Text from the server, stored before names and reasons were refused with control characters.
const forged = 'ok\r\u001b[2KUNAFFECTED';

describe('formatGateText', () => {
  it('prints control characters of server text escaped', () => {
    const now = Date.UTC(2026, 0, 1);
    const judged = judgeChanges({
      changes: [change],
      version: 'v2',
      now,
      approvals: [{ fingerprint: fingerprintOf(change), reason: forged, approvedBy: 'ci\u001b]0;x\u0007' }],
      usage: [],
    });
    const text = formatGateText({ judged, compatible: [], version: 'v2', fails: () => false });
    assert.doesNotMatch(text, /[\r\u0007\u001b]/);
    assert.ok(text.includes(String.raw`approved by ci\u001b]0;x\u0007: ok\r\u001b[2KUNAFFECTED`), text);
  });
});
