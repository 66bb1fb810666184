import type { VNode } from 'preact';
import { replacementName } from '../../core/lifecycle/index.ts';
import { dayTime, html, isoDay, safeHref } from './html.ts';
import type { VersionInfo } from '../lifecycle/version-info.ts';

const statusText: Record<string, string> = {
  not_deprecated: 'current',
  deprecated: 'deprecated',
  ending_soon: 'deprecated, ending soon',
  removed: 'removed',
};

/** The deprecation banner of a version's docs page; urgent under 30 days, as the `Warning` header. */
export function DeprecationBanner(props: { version: VersionInfo; now: number }): VNode | undefined {
  const v = props.version;
  const closed = v.closedToNewClientsAt;
  if (v.status === 'not_deprecated') return undefined;
  const urgent = v.countdown?.level !== 'calm';
  const dates = [['Deprecated on', v.deprecatedAt] as const, ['Sunset on', v.sunsetAt] as const];
  const left =
    v.countdown === undefined
      ? undefined
      : v.countdown.level === 'past'
        ? 'none: the sunset has passed'
        : `${v.countdown.daysLeft} day(s)`;
  return html`<section
    class=${urgent ? 'banner urgent' : 'banner'}
    id="deprecation"
    aria-labelledby="deprecation-title"
    data-status=${v.status}
  >
    <h2 id="deprecation-title">${v.name} is ${statusText[v.status] ?? v.status}</h2>
    <p>
      ${
        v.status === 'removed'
          ? `${v.name} has been removed: its requests are refused.`
          : `${v.name} will be removed${v.sunsetAt ? ` on ${isoDay(v.sunsetAt)}` : ''}. Plan the move now.`
      }
    </p>
    <dl class="facts">
      <dt>Status</dt>
      <dd><span class=${`status ${v.status}`}>${statusText[v.status] ?? v.status}</span></dd>
      ${dates.map(
        ([dt, at]) =>
          at !== undefined &&
          html`<dt>${dt}</dt>
            <dd>${dayTime(at)}</dd>`,
      )}
      ${
        left !== undefined &&
        html`<dt>Days left</dt>
          <dd data-days-left=${v.countdown?.daysLeft}>${left}</dd>`
      }
      ${
        closed !== undefined &&
        v.status !== 'removed' &&
        html`<dt>Closed to new clients</dt>
          <dd data-closed-to-new-clients=${isoDay(closed)}>
            ${closed <= props.now ? 'since' : 'from'} ${dayTime(closed)}
          </dd>`
      }
      ${
        v.extendedAccessUntil !== undefined &&
        v.status !== 'removed' &&
        html`<dt>Extended access</dt>
          <dd data-extended-access-until=${isoDay(v.extendedAccessUntil)}>
            possible until ${dayTime(v.extendedAccessUntil)}, on request
          </dd>`
      }
      ${
        v.replacement &&
        html`<dt>Replacement</dt>
          <dd><a href=${`/docs/${v.replacement}`}>${v.replacement}</a></dd>`
      }
    </dl>
    ${v.guideUrl && html`<p><a href=${v.guideUrl}>Read the migration guide${v.replacement ? ` from ${v.name} to ${v.replacement}` : ''}</a></p>`}
  </section>`;
}

/** ", closed to new clients since <date>" for a subject with a closing date, before its sunset. */
function closing(o: { closedToNewClientsAt?: number; sunsetAt: number }, now: number) {
  const at = o.closedToNewClientsAt;
  if (at === undefined || o.sunsetAt <= now) return '';
  return html`, closed to new clients ${at <= now ? 'since' : 'from'} ${dayTime(at)}`;
}

/** Endpoints deprecated on their own, listed server-side so they show without JavaScript. */
export function DeprecatedEndpoints(props: { version: VersionInfo; now: number }): VNode | undefined {
  const { endpoints } = props.version;
  if (endpoints.length === 0) return undefined;
  return html`<section class="banner" id="deprecated-endpoints" aria-labelledby="deprecated-endpoints-title">
    <h2 id="deprecated-endpoints-title">Deprecated endpoints in ${props.version.name}</h2>
    <ul>
      ${endpoints.map(
        (e) =>
          html`<li>
            <code>${e.method} ${e.path}</code>: deprecated, removed on ${dayTime(e.sunsetAt)}${closing(e, props.now)}
            ${safeHref(e.migrationUrl) && html` · <a href=${safeHref(e.migrationUrl)}>migration notes</a>`}
          </li>`,
      )}
    </ul>
  </section>`;
}

/**
 * Fields and query parameters deprecated on their own. A field stays in the version's responses
 * after its sunset, but requests that send it, or a deprecated parameter, are refused.
 */
export function DeprecatedElements(props: { version: VersionInfo; now: number }): VNode | undefined {
  const { elements, guideUrl } = props.version;
  if (elements.length === 0 || props.version.status === 'removed') return undefined;
  return html`<section class="banner" id="deprecated-elements" aria-labelledby="deprecated-elements-title">
    <h2 id="deprecated-elements-title">Deprecated fields and parameters in ${props.version.name}</h2>
    <ul>
      ${elements.map((e) => {
        const instead = replacementName(e);
        const guide = safeHref(e.migrationUrl) ?? guideUrl;
        const refused = e.sunsetAt <= props.now ? '; refused in requests since ' : '; refused in requests from ';
        // One line: htm drops a line break between text and an element, which would join the words.
        // prettier-ignore
        return html`<li data-element=${e.element}><code>${e.element}</code>: deprecated${instead && html`, use <code>${instead}</code> instead`}${refused}${dayTime(e.sunsetAt)}${closing(e, props.now)}${guide && html` · <a href=${guide}>migration notes</a>`}</li>`;
      })}
    </ul>
  </section>`;
}
