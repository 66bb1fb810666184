import { html } from 'htm/preact';
import type { ExtendedAccessDecisionFacts, NoticePayload } from '../../core/notices/index.ts';
import { frameEmail, type EmailFact, type RenderedEmail } from './email-frame.ts';

/** A date as people read it: the day alone at midnight UTC, the full instant otherwise. */
const day = (iso: string) => (iso.endsWith('T00:00:00Z') || iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso);

/** The words of a subject line: one line, and not a page long. */
const short = (text: string) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
};

/**
 * The email of an owner's decision on a client's request for extended access: "Extended access to
 * v1 granted until 2027-03-01", or "… declined: <reason>".
 */
export function renderDecisionEmail(options: {
  payload: NoticePayload;
  decision: ExtendedAccessDecisionFacts;
  unsubscribeUrl: string;
}): RenderedEmail {
  const { payload, decision } = options;
  const d = payload.data;
  const name = d.element
    ? `${d.element.name} in ${d.subject.version}`
    : d.subject.endpoint
      ? `${d.subject.endpoint} in ${d.subject.version}`
      : d.subject.version;
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
