import { earlierNames } from '../../core/earlier-names.ts';
import { html } from 'htm/preact';
import { isDecisionKind, type NoticeKind, type NoticePayload } from '../../core/notices/index.ts';
import { frameEmail, type EmailFact, type RenderedEmail } from './email-frame.ts';
import { renderDecisionEmail } from './render-decision-email.ts';

/** Facts whose value is a URL, shown as a link in the HTML part. */
const links = new Set(['Migration guide', 'What breaks for you']);

const headlines: Record<Exclude<NoticeKind, 'granted' | 'declined'>, (name: string, days: number) => string> = {
  deprecated: (name) => `${name} is deprecated`,
  reminder: (name, days) => `${name} will be removed in ${days} day${days === 1 ? '' : 's'}`,
  brownout: (name) => `Planned brownout of ${name}`,
  removed: (name) => `${name} has been removed`,
  cleared: (name) => `You are clear of ${name}`,
};

/** The subject, plain-text and HTML parts of a notice email, from its payload. */
export function renderNoticeEmail(options: { payload: NoticePayload; unsubscribeUrl: string }): RenderedEmail {
  const d = options.payload.data;
  const decision = d[earlierNames.noticeMember];
  if (decision) return renderDecisionEmail({ ...options, decision });
  const name = d.element
    ? `The ${d.element.kind === 'field' ? 'field' : 'query parameter'} ${d.element.name} in ${d.subject.version}`
    : d.subject.endpoint
      ? `${d.subject.endpoint} in ${d.subject.version}`
      : `API version ${d.subject.version}`;
  const headline = isDecisionKind(d.kind) ? d.kind : headlines[d.kind](name, d.subject.daysLeft);
  const facts: EmailFact[] = [
    ['Subject', name],
    ['Status', d.subject.status],
    ['Sunset date', d.subject.sunsetAt],
    ['Days left', String(d.subject.daysLeft)],
    ...(d.replacement ? [['Replacement', `${d.replacement.version} (${d.replacement.url})`] as EmailFact] : []),
    ...(d.element ? [['Use instead', d.element.replacement ?? 'nothing: stop sending it'] as EmailFact] : []),
    ['Migration guide', d.migrationGuideUrl],
    ...(d.breaksUrl ? [['What breaks for you', d.breaksUrl] as EmailFact] : []),
    ...(d.brownout
      ? [['Brownout', `${d.brownout.startsAt} to ${d.brownout.endsAt}: calls answer as if removed`] as EmailFact]
      : []),
  ];
  const impactLine =
    d.impact.length === 0
      ? 'No breaking change of the replacement touches the endpoints you call.'
      : d.impact.length === 1
        ? '1 breaking change affects your calls:'
        : `${d.impact.length} breaking changes affect your calls:`;
  const calls = d.calls.map(
    (c) =>
      `- ${c.endpoint}: ${c.calls} call${c.calls === 1 ? '' : 's'}, first ${c.firstSeen}, last ${c.lastSeen}` +
      // Element calls are counted per client, without key or User-Agent.
      (d.element ? '' : `, key ${c.keys.join(', ') || '(none)'}, User-Agent ${c.userAgent ?? '(none)'}`),
  );
  const body = html`<h2>Your calls</h2>
    <table>
      <tr>
        <th>Endpoint</th>
        <th>Calls</th>
        <th>First seen</th>
        <th>Last seen</th>
        <th>API key</th>
        <th>User-Agent</th>
      </tr>
      ${d.calls.map(
        (c) =>
          html`<tr>
            <td>${c.endpoint}</td>
            <td>${c.calls}</td>
            <td>${c.firstSeen}</td>
            <td>${c.lastSeen}</td>
            <td>${c.keys.join(', ')}</td>
            <td>${c.userAgent ?? ''}</td>
          </tr>`,
      )}
    </table>
    ${
      !d.element &&
      html`<h2>Impact</h2>
        <p>${impactLine}</p>
        <ul>
          ${d.impact.map((i) => html`<li><code>${i.endpoint}</code>: ${i.message}</li>`)}
        </ul>`
    }`;
  return frameEmail({
    subject: `[${d.subject.version}] ${headline}`,
    headline,
    client: d.client,
    facts,
    links,
    text: [
      'Your recent calls:',
      ...calls,
      ...(d.element ? [] : ['', impactLine, ...d.impact.map((i) => `- ${i.endpoint}: ${i.message} [${i.rule}]`)]),
    ],
    body,
    unsubscribeUrl: options.unsubscribeUrl,
  });
}
