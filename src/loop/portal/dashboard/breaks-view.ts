import type { VNode } from 'preact';
import { callRows, html, isoDay, safeHref, stamp, Table } from '../html.ts';
import type { BreaksData, ClientBreak } from '../../lifecycle/breaks/breaks-data.ts';
import { breaksWindowDays } from '../../lifecycle/breaks/breaks-data.ts';

/** "What breaks for me"; `data` is absent when the owner has not named a client yet. */
export function BreaksView(props: {
  data?: BreaksData;
  versions: string[];
  /** Set for the owner, who picks the client too. */
  client?: string;
  error?: string;
}): VNode {
  const { data } = props;
  return html`<div>
    <h1>What breaks for ${props.client === undefined ? 'me' : 'this client'}</h1>
    ${
      data &&
      html`<p class="muted">
        ${'Client '}<strong class="client-name">${data.client?.name ?? data.clientId}</strong
        >${' · '}<code>${data.clientId}</code>${` · calls of the last ${breaksWindowDays} days, ${isoDay(data.since)} to ${isoDay(data.until)}`}
      </p>`
    }
    ${props.error && html`<p class="error" role="alert" id="breaks-error">${props.error}</p>`}
    <form method="get" action="/portal/breaks" class="breaks-pick">
      ${
        props.client !== undefined &&
        html`<label for="client">Client id</label>
          <input id="client" name="client" type="text" required maxlength="200" value=${props.client} />`
      }
      <label for="from">The version you call now</label>
      <${Choices} id="from" versions=${props.versions} selected=${data?.from} />
      <label for="to">The version you move to</label>
      <${Choices} id="to" versions=${props.versions} selected=${data?.to} />
      <p><button type="submit">Show what breaks</button></p>
    </form>
    ${data && html`<${Result} data=${data} />`}
  </div>`;
}

function Choices(props: { id: string; versions: string[]; selected?: string }): VNode {
  return html`<select id=${props.id} name=${props.id}>
    ${props.versions.map((v) => html`<option value=${v} selected=${v === props.selected}>${v}</option>`)}
  </select>`;
}

function Result(props: { data: BreaksData }): VNode {
  const d = props.data;
  const guide = safeHref(d.guideUrl);
  if (d.from === d.to)
    return html`<p id="breaks-summary">${d.from} and ${d.to} are the same version: nothing changes.</p>`;
  return html`<section aria-labelledby="breaks-title" id="breaks">
    <h2 id="breaks-title">Breaking changes from ${d.from} to ${d.to} that reach your calls</h2>
    <p id="breaks-summary">${summary(d)}</p>
    ${guide && html`<p><a href=${guide}>The full migration guide from ${d.from} to ${d.to}</a></p>`}
    ${d.changes.map((c) => html`<${Change} change=${c} to=${d.to} />`)}
    ${
      d.elements.length > 0 &&
      html`<h2 id="elements-title">Deprecated fields and parameters you used in ${d.from}</h2>
        <ul class="breaking-elements" aria-labelledby="elements-title">
          ${d.elements.map((e) => {
            // One string: htm drops a line break between text and an expression, and the space with it.
            const uses = `: ${e.calls} call(s), last ${stamp(e.lastSeen)}; removed on ${isoDay(e.sunsetAt)}`;
            const instead = e.replacement ? html`, use <code>${e.replacement}</code> instead` : '';
            return html`<li data-element=${e.element}>
              <code>${e.element}</code> on <code>${e.endpoint}</code>${uses}${instead}.
            </li>`;
          })}
        </ul>`
    }
    ${
      d.notes.length > 0 &&
      html`<details>
        <summary>What changed from ${d.from} to ${d.to}, as declared</summary>
        <ul>
          ${d.notes.map((n) => html`<li>${withCode(n)}</li>`)}
        </ul>
      </details>`
    }
  </section>`;
}

function summary(d: BreaksData): string {
  if (d.called.length === 0)
    return `You made no call to ${d.from} in the last ${breaksWindowDays} days, so no change can be tied to your calls.`;
  if (d.changes.length === 0)
    return `Nothing you called on ${d.from} in the last ${breaksWindowDays} days breaks in ${d.to} (${d.called.length} operation(s) checked).`;
  const reached = new Set(d.changes.flatMap((c) => c.operations.map((o) => o.endpoint))).size;
  return `${d.changes.length} breaking change(s) reach ${reached} of the ${d.called.length} operation(s) you called on ${d.from}.`;
}

function Change(props: { change: ClientBreak; to: string }): VNode {
  const c = props.change;
  return html`<section class="warning break" data-rule=${c.rule} aria-label=${c.text}>
    <h3>${c.text}</h3>
    ${
      c.direction === 'response' &&
      html`<p class="muted">
        A change to what you receive: whether your code reads this part of the answer cannot be known from here.
      </p>`
    }
    <${Table}
      class="reached"
      caption=${`Your calls it reaches, last ${breaksWindowDays} days`}
      head=${['Operation', 'Calls', 'Last call']}
      rows=${callRows(c.operations)}
    />
    <dl class="guide-entry">
      <dt>Before</dt>
      <dd>${withCode(c.guide.oldBehaviour)}</dd>
      <dt>In ${props.to}</dt>
      <dd>${withCode(c.guide.newBehaviour)}</dd>
    </dl>
  </section>`;
}

/** Markdown code spans of the guide's text as `<code>` elements; the text stays text nodes. */
function withCode(text: string): VNode[] {
  return text.split(/`([^`]+)`/).map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : html`${part}`));
}
