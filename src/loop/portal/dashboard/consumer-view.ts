import type { VNode } from 'preact';
import { DailyChart } from '../charts/daily-chart.ts';
import { breaksPath } from '../../../core/portal/index.ts';
import { callRows, cells, html, isoDay, safeHref, stamp, Table, timeStamp } from '../html.ts';
import type { ConsumerData, ConsumerWarning } from './consumer-data.ts';
import { lookbackDays } from './consumer-data.ts';
import { ConsumerElementsSection } from './element-view.ts';

export function ConsumerView(props: {
  data: ConsumerData;
  heading?: string;
  feedUrl?: string;
  /** Set when the owner looks at a client: its "What breaks" links name the client. */
  client?: string;
}): VNode {
  const { data } = props;
  const name = data.client?.name ?? data.clientId;
  return html`<div>
    <h1>${props.heading ?? 'Your API usage'}</h1>
    <p class="muted">Client <strong class="client-name">${name}</strong> · <code>${data.clientId}</code></p>
    ${
      data.client?.minimumVersion
        ? html`<p id="minimum-version">
            Minimum version <strong>${data.client.minimumVersion}</strong>: this client has moved on, and its calls to
            the versions before it are refused (410).
          </p>`
        : null
    }
    <p>
      <a
        id="breaks-page"
        href=${props.client ? `/portal/breaks?client=${encodeURIComponent(props.client)}` : '/portal/breaks'}
        >What breaks when ${props.client ? 'this client moves' : 'you move'} to another version</a
      >
    </p>
    <section aria-labelledby="warnings-title" id="warnings">
      <h2 id="warnings-title">Deprecations that affect you</h2>
      ${
        data.warnings.length === 0
          ? html`<p>Nothing you called in the last ${lookbackDays} days is deprecated.</p>`
          : data.warnings.map((w) => html`<${Warning} warning=${w} client=${props.client} />`)
      }
    </section>
    <${ConsumerElementsSection} elements=${data.elements} />
    <section aria-labelledby="usage-title">
      <h2 id="usage-title">Your calls to deprecated versions per day</h2>
      ${
        data.daily.length === 0
          ? html`<p>No calls to deprecated versions or endpoints in the last 30 days.</p>`
          : html`<${DailyChart}
              id="consumer-usage"
              title="Your calls per version per day, last 30 days"
              unit="calls"
              series=${data.daily}
            />`
      }
    </section>
    ${
      props.feedUrl &&
      html`<section aria-labelledby="feed-title">
        <h2 id="feed-title">Your feed</h2>
        <p>
          An Atom feed of the changelog filtered to the versions and endpoints you call:${' '}
          <a id="personal-feed" href=${props.feedUrl}>your personal feed</a>. Anyone with its URL can read it; it stops
          working when the key you signed in with is revoked.
        </p>
      </section>`
    }
    <section aria-labelledby="notices-title">
      <h2 id="notices-title">Notices sent to you</h2>
      ${
        data.notices.length === 0
          ? html`<p>No deprecation notice has been sent to you.</p>`
          : html`<${Table}
              id="notices"
              head=${['Queued', 'Notice', 'About', 'To', 'Status']}
              rows=${data.notices.map(
                (n) =>
                  html`<tr data-notice=${n.id}>
                    ${cells([stamp(n.createdAt), n.kind, n.subject, `${n.channel}: ${n.recipient}`])}
                    <td>${n.status}${n.sentAt !== null ? html` <span class="muted">${stamp(n.sentAt)}</span>` : ''}</td>
                  </tr>`,
              )}
            />`
      }
    </section>
    <section aria-labelledby="contacts-title">
      <h2 id="contacts-title">Your contacts</h2>
      ${
        !data.client || data.client.contacts.length === 0
          ? html`<p>
              No contact on file: deprecation notices cannot reach you by email. Ask the API owner to add one.
            </p>`
          : html`<${Table}
              id="contacts"
              head=${['Email', 'Deprecation notices']}
              rows=${data.client.contacts.map(
                (c) =>
                  html`<tr>
                    ${cells([c.email, c.subscribed ? 'subscribed' : 'unsubscribed'])}
                  </tr>`,
              )}
            />`
      }
    </section>
  </div>`;
}

function Warning(props: { warning: ConsumerWarning; client?: string }): VNode {
  const w = props.warning;
  const urgent = w.countdown !== undefined && w.countdown.level !== 'calm';
  const guide = safeHref(w.guideUrl);
  return html`<section
    class=${urgent ? 'warning urgent' : 'warning'}
    data-subject=${w.subject}
    aria-label=${`${w.subject} is ${w.status.replace('_', ' ')}`}
  >
    <h3>${w.subject} is ${w.status === 'removed' ? 'removed' : 'deprecated'}</h3>
    ${
      w.sunsetAt !== undefined &&
      w.countdown &&
      html`<p class="countdown">
        ${
          w.countdown.level === 'past'
            ? html`<strong>Removed on ${isoDay(w.sunsetAt)}: your calls are refused.</strong>`
            : w.countdown.level === 'urgent'
              ? html`<strong
                  >Only ${w.countdown.daysLeft} day(s) left: removed on ${isoDay(w.sunsetAt)}. Migrate now.</strong
                >`
              : html`Removed on ${isoDay(w.sunsetAt)}: ${w.countdown.daysLeft} days left.`
        }
      </p>`
    }
    ${
      w.brownouts.length > 0 &&
      html`<div class="brownouts">
        <p><strong>Brownouts to come:</strong> your calls will be refused during</p>
        <ul>
          ${w.brownouts.map((b) => html`<li>${timeStamp(b.startsAt)} to ${timeStamp(b.endsAt)}${b.endpoint ? html` on <code>${b.endpoint}</code>` : ''}${b.clientId ? ' (a rehearsal for you alone)' : ''}</li>`)}
        </ul>
      </div>`
    }
    <p>
      ${w.replacement ? html`Move to <a href=${`/docs/${w.replacement}`}>${w.replacement}</a>. ` : ''}${guide ? html`<a href=${guide}>Read the migration guide</a>. ` : ''}${w.replacement ? html`<a class="breaks-link" href=${breaksPath({ from: w.version, to: w.replacement, ...(props.client ? { client: props.client } : {}) })}>See what breaks for ${props.client ? 'this client' : 'you'} in ${w.replacement}</a>.` : ''}
    </p>
    <${Table}
      class="called"
      caption=${`Your calls in the last ${lookbackDays} days`}
      head=${['Endpoint', 'Calls', 'Last seen']}
      rows=${callRows(w.endpoints)}
    />
    ${
      w.breaking.length > 0 &&
      html`<details open>
        <summary>
          Breaking changes in ${w.replacement ?? 'the replacement'} on endpoints you call (${w.breaking.length})
        </summary>
        <ul class="breaking">
          ${w.breaking.map((b) => html`<li><strong>${b.endpoints.join(', ')}</strong>: ${b.text}</li>`)}
        </ul>
      </details>`
    }
  </section>`;
}
