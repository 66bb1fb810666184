import { earlierNames } from '../../core/earlier-names.ts';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NoticePayload } from '../../core/notices/index.ts';
import { renderNoticeEmail } from './render-email.ts';

const decided = (grant: NonNullable<NoticePayload['data'][typeof earlierNames.noticeMember]>): NoticePayload => ({
  type: `${earlierNames.eventPrefix}.${grant.decision}`,
  timestamp: '2026-06-14T12:00:00.000Z',
  data: {
    client: { id: 'cl_1', name: 'Acme' },
    kind: grant.decision,
    subject: {
      version: 'v1',
      endpoint: 'GET /users',
      status: 'deprecated',
      deprecatedAt: '2026-01-01T00:00:00.000Z',
      sunsetAt: '2026-07-14T12:00:00.000Z',
      daysLeft: 30,
    },
    replacement: null,
    migrationGuideUrl: 'https://x.test/guide',
    breaksUrl: null,
    brownout: null,
    element: null,
    calls: [],
    impact: [],
    [earlierNames.noticeMember]: grant,
  },
});

describe('renderNoticeEmail of a decision on a request for extended access', () => {
  it('says a grant and its date in the subject, the cap and the note in the text', () => {
    const mail = renderNoticeEmail({
      payload: decided({
        requestId: 'exr_1',
        decision: 'granted',
        until: '2027-03-01T00:00:00.000Z',
        cap: '2027-06-30T12:00:00.000Z',
        reason: 'until <your> release',
      }),
      unsubscribeUrl: 'https://x.test/u',
    });
    assert.equal(mail.subject, 'Extended access to GET /users in v1 granted until 2027-03-01');
    assert.match(mail.text, /^Your calls are answered until: 2027-03-01$/m);
    assert.match(mail.text, /^Latest date extended access may reach: 2027-06-30T12:00:00.000Z$/m);
    assert.match(mail.text, /^Note: until <your> release$/m);
    assert.match(mail.text, /^Unsubscribe: https:\/\/x.test\/u$/m);
    assert.match(mail.html, /until &lt;your> release/);
  });

  it('says a decline and its reason, on one line of a bounded length', () => {
    const reason = `v2 is ready.\nMove now. ${'x'.repeat(200)}`;
    const mail = renderNoticeEmail({
      payload: decided({ requestId: 'exr_2', decision: 'declined', until: null, cap: null, reason }),
      unsubscribeUrl: 'https://x.test/u',
    });
    assert.match(mail.subject, /^Extended access to GET \/users in v1 declined: v2 is ready\. Move now\. x+…$/);
    assert.ok(mail.subject.length < 200);
    assert.doesNotMatch(mail.text, /answered until|Latest date/);
    assert.match(mail.text, /^Reason: v2 is ready\.$/m);
  });
});
