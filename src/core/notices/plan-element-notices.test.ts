import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createFixedClock } from '../clock/index.ts';
import { DAY_MS } from '../lifecycle/index.ts';
import { covers, subjectId, subjectParts } from './notice-key.ts';
import { planNotices } from './plan-notices.ts';
import type { ClientUsage, NoticeSubject } from './types.ts';

const day = (n: number) => Date.UTC(2026, 0, 1) + n * DAY_MS;
const field: NoticeSubject = {
  version: 'v2',
  element: 'User.nickname',
  deprecatedAt: day(0),
  sunsetAt: day(200),
  removed: false,
};
const v2: NoticeSubject = { version: 'v2', deprecatedAt: day(0), sunsetAt: day(300), removed: false };
const row = (clientId: string, element?: string): ClientUsage => ({
  clientId,
  version: 'v2',
  endpoint: 'GET /users',
  ...(element ? { element } : {}),
  calls: 3,
  firstSeen: day(9),
  lastSeen: day(10),
});

describe('notices about a deprecated field or query parameter', () => {
  it('go to the clients whose calls used the element, and element calls count for nothing else', () => {
    const due = planNotices({
      subjects: [field, v2],
      brownouts: [{ id: 'b1', version: 'v2', startsAt: day(12), endsAt: day(13) }],
      usage: [row('sender', 'User.nickname'), row('plain')],
      recorded: [],
      clock: createFixedClock(day(11)),
    });
    assert.deepEqual(
      due.map((n) => [n.clientId, n.subject, n.kind, n.element ?? null, n.daysLeft]),
      [
        ['sender', 'v2 User.nickname', 'deprecated', 'User.nickname', 189],
        ['plain', 'v2', 'deprecated', null, 289],
      ],
    );
  });

  it('name their subject so it reads back: versions, endpoints, fields and parameters', () => {
    const parameter = { version: 'v2', element: 'GET /users?order' };
    assert.equal(subjectId(parameter), 'v2 GET /users?order');
    assert.deepEqual(subjectParts('v2 GET /users?order'), parameter);
    assert.deepEqual(subjectParts('v2 User.nickname'), { version: 'v2', element: 'User.nickname' });
    assert.deepEqual(subjectParts('v2 GET /users/{id}'), { version: 'v2', endpoint: 'GET /users/{id}' });
    assert.deepEqual(subjectParts('v1'), { version: 'v1' });
    assert.equal(covers(field, row('x', 'User.nickname')), true);
    assert.equal(covers(field, row('x', 'User.email')), false);
    assert.equal(covers(v2, row('x', 'User.nickname')), false, 'an element call is no call of the version');
  });
});
