import type { VNode } from 'preact';
import type { ExtendedAccessGrant, ExtendedAccessRequest, ExtendedAccessSubject } from '../../../kernel/ports/index.ts';
import { html, isoDay } from '../html.ts';
import { subjectName, type ExtendedAccessData } from './extended-access-routes.ts';

const Problem = (props: { error?: string }) =>
  props.error ? html`<p class="problem" role="alert" id="extended-access-error">${props.error}</p>` : null;

export function ConsumerExtendedAccess(props: ExtendedAccessData & { csrf: string; error?: string }): VNode {
  return html`<section aria-labelledby="extended-access-title" id="extended-access">
    <h2 id="extended-access-title">Extended access</h2>
    <${Problem} error=${props.error} />
    ${props.askable.map(
      (a) =>
        html`<form method="post" action="/portal/extended-access-requests" class="ask-extended-access">
          <h3>Ask for extended access to ${a.name}</h3>
          <p class="muted">${capLine(a)}</p>
          <input type="hidden" name="_csrf" value=${props.csrf} />
          <input type="hidden" name="subject" value=${a.key} />
          <label>Reason <input name="reason" required maxlength="1000" /></label>
          <label>Wished date (optional) <input type="date" name="until" max=${isoDay(a.cap)} /></label>
          <button type="submit">Ask for extended access</button>
        </form>`,
    )}
    <h3>Your requests</h3>
    ${
      props.requests.length === 0
        ? html`<p>No request yet.</p>`
        : html`<ul id="extended-access-requests">
            ${props.requests.map((r) => html`<li class=${`request-${r.status}`}><${RequestLine} request=${r} /></li>`)}
          </ul>`
    }
    <h3>Your grants of extended access</h3>
    <${Grants} extendedAccess=${props.extendedAccess} id="grants" />
  </section>`;
}

function RequestLine(props: { request: ExtendedAccessRequest }): VNode {
  const r = props.request;
  return html`<span>
    <strong>${subjectName(r.subject)}</strong>: ${r.status}${r.decidedAt !== null ? ` on ${isoDay(r.decidedAt)}` : ''} ·
    asked ${isoDay(r.createdAt)}:
    “${r.reason}”${r.decisionNote ? html` · ${r.status === 'declined' ? 'reason' : 'note'}: “${r.decisionNote}”` : ''}
  </span>`;
}

function Grants(props: { extendedAccess: ExtendedAccessGrant[]; id: string; owner?: boolean }): VNode {
  if (props.extendedAccess.length === 0) return html`<p id=${props.id}>No grant of extended access.</p>`;
  return html`<table id=${props.id}>
    <thead>
      <tr>
        ${props.owner ? html`<th>Client</th>` : null}
        <th>What</th>
        <th>Until</th>
        <th>Granted</th>
      </tr>
    </thead>
    <tbody>
      ${props.extendedAccess.map(
        (e) =>
          html`<tr>
            ${props.owner ? html`<td><a href=${`/portal/clients/${encodeURIComponent(e.clientId)}`}>${e.clientId}</a></td>` : null}
            <td>${subjectName(e.subject)}</td>
            <td class="grant-until">${isoDay(e.until)}</td>
            <td>${isoDay(e.grantedAt)}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

export function OwnerExtendedAccess(
  props: Pick<ExtendedAccessData, 'requests' | 'extendedAccess'> & {
    csrf: string;
    now: number;
    capOf: (s: ExtendedAccessSubject) => number | undefined;
    error?: string;
  },
): VNode {
  return html`<section aria-labelledby="extended-access-title" id="extended-access">
    <h2 id="extended-access-title">Extended access</h2>
    <${Problem} error=${props.error} />
    <h3>Requests waiting for you</h3>
    ${
      props.requests.length === 0
        ? html`<p>No pending request.</p>`
        : props.requests.map((r) => {
            const cap = props.capOf(r.subject);
            const wished = r.requestedUntil ?? cap;
            return html`<div class="pending-request" id=${`request-${r.id}`}>
              <p>
                <strong>${r.clientId}</strong> asks for ${subjectName(r.subject)}
                ${r.requestedUntil !== null ? ` until ${isoDay(r.requestedUntil)}` : ''}: “${r.reason}”
              </p>
              <form method="post" action=${`/portal/extended-access-requests/${r.id}/grant`} class="grant">
                <input type="hidden" name="_csrf" value=${props.csrf} />
                <label
                  >Until
                  <input
                    type="date"
                    name="until"
                    required
                    value=${wished !== undefined ? isoDay(wished) : ''}
                    max=${cap !== undefined ? isoDay(cap) : undefined}
                /></label>
                <button type="submit">Grant</button>
              </form>
              <form method="post" action=${`/portal/extended-access-requests/${r.id}/decline`} class="decline">
                <input type="hidden" name="_csrf" value=${props.csrf} />
                <label>Reason <input name="reason" required maxlength="1000" /></label>
                <button type="submit" class="secondary">Decline</button>
              </form>
            </div>`;
          })
    }
    <h3>Grants of extended access in force</h3>
    <${Grants} extendedAccess=${props.extendedAccess} id="all-grants" owner=${true} />
  </section>`;
}

/**
 * The sunset and the cap of a subject, as one string: in the template, a line break that the
 * formatter puts between the words and the date is dropped by htm ("until2027-06-01").
 */
function capLine(a: { sunsetAt?: number | undefined; cap: number }): string {
  const sunset = a.sunsetAt !== undefined ? `Sunset ${isoDay(a.sunsetAt)}; ` : '';
  return `${sunset}extended access can last until ${isoDay(a.cap)} at most.`;
}
