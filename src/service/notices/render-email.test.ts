import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NoticePayload } from '../../core/notices/index.ts';
import { renderNoticeEmail } from './render-email.ts';

const payload: NoticePayload = {
  type: 'endpoint.sunset_reminder',
  timestamp: '2026-06-14T12:00:00.000Z',
  data: {
    client: { id: 'cl_1', name: '<script>alert(1)</script>' },
    kind: 'reminder',
    subject: {
      version: 'v1',
      endpoint: 'GET /users',
      status: 'deprecated',
      deprecatedAt: '2026-01-01T00:00:00.000Z',
      sunsetAt: '2026-07-14T12:00:00.000Z',
      daysLeft: 1,
    },
    replacement: null,
    migrationGuideUrl: 'https://x.test/guide?a=1&b="2"',
    brownout: null,
    calls: [
      { endpoint: 'GET /users', calls: 2, firstSeen: 'a', lastSeen: 'b', keys: ['k"<>'], userAgent: '"><img src=x>' },
    ],
    impact: [],
  },
};

describe('renderNoticeEmail', () => {
  it('renders both parts, and the HTML escapes every value', () => {
    const mail = renderNoticeEmail({ payload, unsubscribeUrl: 'https://x.test/u?t=1&c=2' });
    assert.equal(mail.subject, '[v1] GET /users in v1 will be removed in 1 day');
    assert.match(mail.text, /- GET \/users: 2 calls, first a, last b, key k"<>, User-Agent "><img src=x>/);
    assert.match(mail.text, /No breaking change of the replacement touches the endpoints you call\./);
    assert.doesNotMatch(mail.html, /<script>|<img/);
    assert.match(mail.html, /&lt;script>alert\(1\)&lt;\/script>/);
    assert.match(mail.html, /href="https:\/\/x\.test\/guide\?a=1&amp;b=&quot;2&quot;"/);
    assert.match(mail.html, /href="https:\/\/x\.test\/u\?t=1&amp;c=2"/);
  });
});
