import type { VNode } from 'preact';
import { DailyChart } from '../charts/daily-chart.ts';
import { TimelineChart } from '../charts/timeline-chart.ts';
import { cells, html, isoDay, Table } from '../html.ts';
import type { AdminData, VersionBurnDown } from './admin-data.ts';
import { burnDownDays } from './admin-data.ts';
import { lookbackDays } from './consumer-data.ts';
import { AdminElementsSection } from './element-view.ts';

const verdictText: Record<string, string> = {
  done: 'No client called on the last day.',
  on_track: 'On track: the last client should stop before the sunset.',
  late: 'Late: at this pace clients will still be calling at the sunset.',
  stalled: 'Stalled: the number of clients is not falling.',
};

export function AdminView(props: { data: AdminData; now: number }): VNode {
  const { data, now } = props;
  return html`<div>
    <h1>API owner dashboard</h1>
    <section aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Lifecycle</h2>
      <${TimelineChart}
        versions=${data.versions}
        now=${now}
        brownouts=${data.brownouts.map((b) => ({ version: b.version, at: b.startsAt }))}
      />
    </section>
    <section aria-labelledby="usage-heading">
      <h2 id="usage-heading">Calls to deprecated versions per day</h2>
      ${data.daily.length === 0 ? html`<p>No calls recorded in the last 30 days.</p>` : html`<${DailyChart} id="admin-usage" title="Calls per version per day, last 30 days" unit="calls" series=${data.daily} />`}
    </section>
    <section aria-labelledby="burn-heading">
      <h2 id="burn-heading">Burn-down</h2>
      ${data.burnDowns.length === 0 ? html`<p>No version is deprecated.</p>` : data.burnDowns.map((b) => html`<${BurnDownSection} item=${b} calling=${data.calling} />`)}
    </section>
    <section aria-labelledby="calling-heading">
      <h2 id="calling-heading">Clients still calling deprecated versions or endpoints</h2>
      ${
        data.calling.length === 0
          ? html`<p>None in the last ${lookbackDays} days.</p>`
          : html`<${Table}
              id="calling"
              head=${['Client', `Calls (${lookbackDays} days)`, 'Versions', 'Last seen', 'Last notice']}
              rows=${data.calling.map(
                (c) =>
                  html`<tr data-client=${c.clientId}>
                    <td>
                      ${c.clientId.startsWith('cl_') ? html`<a href=${`/portal/clients/${encodeURIComponent(c.clientId)}`}>${c.name ?? c.clientId}</a>` : c.clientId}
                    </td>
                    ${cells([c.calls, c.versions.join(', '), isoDay(c.lastSeen)])}
                    <td class="notice-status">${noticeText(c.lastNotice)}</td>
                  </tr>`,
              )}
            />`
      }
    </section>
    <section aria-labelledby="endpoints-heading">
      <h2 id="endpoints-heading">Endpoint deprecations</h2>
      ${
        data.endpoints.length === 0
          ? html`<p>No endpoint is deprecated on its own.</p>`
          : html`<${Table}
              head=${['Endpoint', 'Version', 'Deprecated', 'Sunset']}
              rows=${data.endpoints.map(
                (e) =>
                  html`<tr>
                    ${cells([html`<code>${e.method} ${e.path}</code>`, e.version])}
                    ${cells([isoDay(e.deprecatedAt), isoDay(e.sunsetAt)])}
                  </tr>`,
              )}
            />`
      }
    </section>
    <${AdminElementsSection} elements=${data.elements} />
  </div>`;
}

function BurnDownSection(props: { item: VersionBurnDown; calling: AdminData['calling'] }): VNode {
  const { version, burnDown, clients } = props.item;
  const markers = [
    { at: burnDown.sunsetAt, label: 'sunset' },
    ...(burnDown.projectedZeroAt !== undefined ? [{ at: burnDown.projectedZeroAt, label: 'projected zero' }] : []),
  ];
  const atRisk = clients.filter((c) => c.atRisk);
  // One string: htm drops the line break between a word and an expression, and the space with it.
  const projected =
    burnDown.projectedZeroAt !== undefined ? `; projected last call ${isoDay(burnDown.projectedZeroAt)}` : '';
  const sunsetSentence = `Sunset on ${isoDay(burnDown.sunsetAt)}${projected}.`;
  return html`<section
    class="burn-down"
    data-version=${version}
    data-verdict=${burnDown.verdict}
    aria-label=${`Burn-down of ${version}`}
  >
    <h3>${version}: ${verdictText[burnDown.verdict]}</h3>
    <p>${sunsetSentence}</p>
    <${DailyChart}
      id=${`burn-down-${version}`}
      title=${`Distinct clients calling ${version} per day, last ${burnDownDays} days`}
      unit="clients"
      series=${[{ name: `${version} clients`, points: burnDown.series }]}
      markers=${markers}
    />
    ${
      atRisk.length > 0 &&
      html`<${Table}
        class="at-risk-table"
        caption="At risk: calls not falling"
        head=${['Client', `Calls (${burnDownDays} days)`, 'Trend per day', 'Last seen', 'Last notice']}
        rows=${atRisk.map(
          (c) =>
            html`<tr data-client=${c.clientId}>
              <td class="at-risk">${c.name ?? c.clientId}</td>
              ${cells([c.calls, `${c.slopePerDay >= 0 ? '+' : ''}${c.slopePerDay.toFixed(2)}`, isoDay(c.lastSeenDay)])}
              <td>${noticeText(props.calling.find((k) => k.clientId === c.clientId)?.lastNotice)}</td>
            </tr>`,
        )}
      />`
    }
  </section>`;
}

function noticeText(notice: AdminData['calling'][number]['lastNotice']): string {
  return notice ? `${notice.kind}, ${notice.status} ${isoDay(notice.at)}` : 'none yet';
}
