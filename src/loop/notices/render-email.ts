import { earlierNames } from '../../core/earlier-names.ts';
import { html } from 'htm/preact';
import {
  isDecisionKind,
  type ExtendedAccessDecisionFacts,
  type NoticeKind,
  type NoticePayload,
} from '../../core/notices/index.ts';
import { render } from 'preact-render-to-string';

const callColumns = ['Endpoint', 'Calls', 'First seen', 'Last seen', 'API key', 'User-Agent'];

/** Facts whose value is a URL, shown as a link in the HTML part. */
const links = new Set(['Migration guide', 'What breaks for you']);

const headlines: Record<Exclude<NoticeKind, 'granted' | 'declined'>, (name: string, days: number) => string> = {
  deprecated: (name) => `${name} is deprecated`,
  reminder: (name, days) => `${name} will be removed in ${days} day${days === 1 ? '' : 's'}`,
  brownout: (name) => `Planned brownout of ${name}`,
  removed: (name) => `${name} has been removed`,
  cleared: (name) => `You are clear of ${name}`,
};

export function renderNoticeEmail(options: { payload: NoticePayload; unsubscribeUrl: string }): RenderedEmail {
  const d = options.payload.data;
  const decision = d[earlierNames.noticeMember];
  if (decision) return renderDecisionEmail({ ...options, decision });
  const name = subjectName(d, true);
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
        ${callColumns.map((c) => html`<th>${c}</th>`)}
      </tr>
      ${d.calls.map(
        (c) =>
          html`<tr>
            ${[c.endpoint, c.calls, c.firstSeen, c.lastSeen, c.keys.join(', '), c.userAgent ?? ''].map(
              (v) => html`<td>${v}</td>`,
            )}
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

/** The subject as a sentence names it; `long` names a whole version and says what an element is. */
function subjectName(d: NoticePayload['data'], long: boolean): string {
  const { version, endpoint } = d.subject;
  const kind = long && d.element ? `The ${d.element.kind === 'field' ? 'field' : 'query parameter'} ` : '';
  if (d.element) return `${kind}${d.element.name} in ${version}`;
  return endpoint ? `${endpoint} in ${version}` : long ? `API version ${version}` : version;
}

/** A date as people read it: the day alone at midnight UTC, the full instant otherwise. */
const day = (iso: string) => (iso.endsWith('T00:00:00Z') || iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso);

/** The words of a subject line: one line, and not a page long. */
const short = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
};

/** The email of an owner's decision on a client's request for extended access. */
function renderDecisionEmail(options: {
  payload: NoticePayload;
  decision: ExtendedAccessDecisionFacts;
  unsubscribeUrl: string;
}): RenderedEmail {
  const { payload, decision } = options;
  const d = payload.data;
  const name = subjectName(d, false);
  const granted = decision.decision === 'granted';
  const until = decision.until ? day(decision.until) : '';
  const headline = granted
    ? `Extended access to ${name} granted until ${until}`
    : `Extended access to ${name} declined: ${short(decision.reason ?? '')}`;
  const facts: EmailFact[] = [
    ['Subject', name],
    ['Decision', decision.decision],
    ...(granted ? [['Your calls are answered until', until] as EmailFact] : []),
    ['Sunset date', d.subject.sunsetAt],
    ...(decision.cap ? [['Latest date extended access may reach', day(decision.cap)] as EmailFact] : []),
    ...(decision.reason ? [[granted ? 'Note' : 'Reason', decision.reason] as EmailFact] : []),
    ['Request', decision.requestId],
    ['Migration guide', d.migrationGuideUrl],
  ];
  const after = granted
    ? `Past ${until}, calls to ${name} are answered as after its sunset: move before then.`
    : `Calls to ${name} end at its sunset (${d.subject.sunsetAt}): move before then.`;
  return frameEmail({
    subject: headline,
    headline,
    client: d.client,
    facts,
    links: new Set(['Migration guide']),
    text: [after],
    body: html`<p>${after}</p>`,
    unsubscribeUrl: options.unsubscribeUrl,
  });
}

type RenderedEmail = Record<'subject' | 'text' | 'html', string>;

type EmailFact = readonly [string, string];

/** The frame every notice email shares, so that each kind reads alike. */
function frameEmail(options: {
  subject: string;
  headline: string;
  client: { id: string; name: string };
  facts: readonly EmailFact[];
  links: ReadonlySet<string>;
  /** The kind's own lines of the plain-text part, after the facts. */
  text: readonly string[];
  /** The kind's own part of the HTML body, after the facts. */
  body: unknown;
  unsubscribeUrl: string;
}): RenderedEmail {
  const { headline, client, facts, unsubscribeUrl } = options;
  const to = `To ${client.name} (${client.id}).`;
  const text = [
    `${headline}.`,
    '',
    to,
    '',
    ...facts.map(([k, v]) => `${k}: ${v}`),
    '',
    ...options.text,
    '',
    `Unsubscribe: ${unsubscribeUrl}`,
    '',
  ].join('\n');
  const page = html`<html>
    <body>
      <h1>${headline}</h1>
      <p>${to}</p>
      ${[factsTable(facts, options.links), options.body]}
      <p><a href=${unsubscribeUrl}>Unsubscribe</a></p>
    </body>
  </html>`;
  return { subject: options.subject, text, html: `<!doctype html>${render(page as never)}` };
}

function factsTable(facts: readonly EmailFact[], links: ReadonlySet<string>) {
  return html`<table>
    ${facts.map(
      ([k, v]) =>
        html`<tr>
          <th align="left">${k}</th>
          <td>${links.has(k) ? html`<a href=${v}>${v}</a>` : v}</td>
        </tr>`,
    )}
  </table>`;
}
