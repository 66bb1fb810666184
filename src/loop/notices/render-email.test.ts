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
    breaksUrl: null,
    brownout: null,
    element: null,
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
    assert.doesNotMatch(mail.text, /What breaks for you/, 'no page to link without a replacement');
  });

  it('links the page of what breaks for the client, with the versions filled in, in both parts', () => {
    const breaksUrl = 'https://x.test/portal/breaks?from=v1&to=v2';
    const mail = renderNoticeEmail({
      payload: { ...payload, data: { ...payload.data, breaksUrl } },
      unsubscribeUrl: 'https://x.test/u',
    });
    assert.match(mail.text, /^What breaks for you: https:\/\/x\.test\/portal\/breaks\?from=v1&to=v2$/m);
    assert.match(mail.html, /href="https:\/\/x\.test\/portal\/breaks\?from=v1&amp;to=v2"/);
  });

  it('names a deprecated field, what to use instead, its sunset and the calls that sent it per endpoint', () => {
    const data = payload.data;
    const mail = renderNoticeEmail({
      payload: {
        type: 'element.deprecated',
        timestamp: payload.timestamp,
        data: {
          ...data,
          kind: 'deprecated',
          subject: {
            ...data.subject,
            version: 'v2',
            endpoint: null,
            sunsetAt: '2027-01-01T00:00:00.000Z',
            daysLeft: 351,
          },
          element: { kind: 'field', name: 'UserInput.nickname', replacement: 'UserInput.displayName' },
          calls: [
            { endpoint: 'PATCH /users/{id}', calls: 1, firstSeen: 'f1', lastSeen: 'l1', keys: [], userAgent: null },
            { endpoint: 'POST /users', calls: 2, firstSeen: 'f2', lastSeen: 'l2', keys: [], userAgent: null },
          ],
        },
      },
      unsubscribeUrl: 'https://x.test/u',
    });
    assert.equal(mail.subject, '[v2] The field UserInput.nickname in v2 is deprecated');
    assert.match(mail.text, /^Use instead: UserInput\.displayName$/m);
    assert.match(mail.text, /^Sunset date: 2027-01-01T00:00:00\.000Z$/m);
    assert.match(mail.text, /^- PATCH \/users\/\{id\}: 1 call, first f1, last l1$/m);
    assert.match(mail.text, /^- POST \/users: 2 calls, first f2, last l2$/m);
    assert.doesNotMatch(mail.text, /breaking change/, 'no compatibility diff is claimed for a field');
    assert.doesNotMatch(mail.html, /Impact/);
    assert.match(mail.html, /<th align="left">Use instead<\/th><td>UserInput.displayName<\/td>/);
  });
});
