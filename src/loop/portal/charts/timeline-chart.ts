import type { VNode } from 'preact';
import { cells, html, isoDay, Table } from '../html.ts';
import type { VersionInfo } from '../../lifecycle/version-info.ts';
import { linearScale, px } from './daily-chart.ts';

const width = 640;
const row = 34;
const pad = { left: 48, right: 16, top: 24, bottom: 28 };
const day = (at: number | undefined) => (at !== undefined ? isoDay(at) : '—');

/** The lifecycle of every version as horizontal bars, with today marked. */
export function TimelineChart(props: {
  versions: VersionInfo[];
  now: number;
  brownouts?: Array<{ version: string; at: number }>;
}): VNode {
  const { versions, now } = props;
  // An undated version's bar starts with the chart: nothing is known of its release but that it came first.
  const known = versions.flatMap((v) => [v.releasedAt, v.deprecatedAt].filter((at) => at !== undefined));
  const start = Math.min(now - 30 * 86_400_000, ...known);
  const end = Math.max(now, ...versions.map((v) => v.sunsetAt ?? 0)) + 30 * 86_400_000;
  const x = linearScale([start, end], [pad.left, width - pad.right]);
  const height = pad.top + versions.length * row + pad.bottom;
  return html`<figure class="chart" id="lifecycle-timeline">
    <svg viewBox=${`0 0 ${width} ${height}`} role="img" aria-labelledby="timeline-title" class="chart-svg">
      <title id="timeline-title">Lifecycle of every version: released, deprecated, sunset</title>
      ${versions.map((v, i) => {
        const y = pad.top + i * row;
        const activeEnd = v.deprecatedAt ?? end;
        const from = v.releasedAt ?? start;
        return html`<g class="lane" data-version=${v.name}>
          <text x="4" y=${y + 18} class="tick">${v.name}</text>
          <rect
            x=${px(x(from))}
            y=${y + 6}
            width=${px(Math.max(1, x(activeEnd) - x(from)))}
            height="16"
            class="bar active"
            ><title>${v.name} active${v.releasedAt !== undefined ? ` from ${isoDay(v.releasedAt)}` : ''}</title></rect
          >
          ${v.deprecatedAt !== undefined && v.sunsetAt !== undefined && html`<rect x=${px(x(v.deprecatedAt))} y=${y + 6} width=${px(Math.max(1, x(v.sunsetAt) - x(v.deprecatedAt)))} height="16" class="bar deprecated"><title>${v.name} deprecated ${isoDay(v.deprecatedAt)}, sunset ${isoDay(v.sunsetAt)}</title></rect>`}
          ${v.sunsetAt !== undefined && html`<line x1=${px(x(v.sunsetAt))} x2=${px(x(v.sunsetAt))} y1=${y + 2} y2=${y + 26} class="sunset" />`}
          ${(props.brownouts ?? []).filter((b) => b.version === v.name).map((b) => html`<circle cx=${px(x(b.at))} cy=${y + 14} r="4" class="brownout"><title>brownout ${isoDay(b.at)}</title></circle>`)}
        </g>`;
      })}
      <line x1=${px(x(now))} x2=${px(x(now))} y1=${pad.top - 8} y2=${height - pad.bottom} class="now" />
      <text x=${px(x(now))} y=${pad.top - 10} text-anchor="middle" class="tick">today</text>
      <text x=${pad.left} y=${height - 8} class="tick">${isoDay(start)}</text>
      <text x=${width - pad.right} y=${height - 8} text-anchor="end" class="tick">${isoDay(end)}</text>
    </svg>
    <figcaption>
      Lifecycle timeline: <span class="legend"><span class="swatch active"></span>active</span>
      <span class="legend"><span class="swatch deprecated"></span>deprecated until the sunset</span>
    </figcaption>
    <${Table}
      class="timeline-table"
      head=${['Version', 'Released', 'Deprecated', 'Sunset', 'Status']}
      rows=${versions.map(
        (v) =>
          html`<tr>
            <th scope="row">${v.name}</th>
            ${cells([day(v.releasedAt), day(v.deprecatedAt), day(v.sunsetAt), v.status.replace('_', ' ')])}
          </tr>`,
      )}
    />
  </figure>`;
}
