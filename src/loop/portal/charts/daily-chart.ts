import type { VNode } from 'preact';
import { DAY_MS } from '../../../core/lifecycle/index.ts';
import type { DailyCount } from '../../../core/portal/index.ts';
import { html, isoDay, Table } from '../html.ts';

const width = 640;
const height = 240;
const pad = { left: 44, right: 16, top: 16, bottom: 36 };

/** A line chart of daily counts in server-rendered SVG, with the same numbers in a table under it. */
export function DailyChart(props: {
  id: string;
  title: string;
  /** One line per series, points one per day (zero-filled). */
  series: Array<{ name: string; points: DailyCount[] }>;
  /** What the y axis counts, e.g. "calls". */
  unit: string;
  /** Vertical markers, e.g. the sunset or a projection. */
  markers?: Array<{ at: number; label: string }>;
  /** Extend the x axis to include this instant (a sunset after the data). */
  until?: number;
}): VNode {
  const days = props.series.flatMap((s) => s.points.map((p) => p.day));
  const first = Math.min(...days);
  const last = Math.max(...days, props.until ?? -Infinity, ...(props.markers ?? []).map((m) => m.at));
  const top = niceMax(Math.max(0, ...props.series.flatMap((s) => s.points.map((p) => p.count))));
  const x = linearScale([first, last], [pad.left, width - pad.right]);
  const y = linearScale([0, top], [height - pad.bottom, pad.top]);
  const ticks = [0, top / 2, top];
  const dayTicks = days.length === 0 ? [] : [first, first + Math.round((last - first) / 2 / DAY_MS) * DAY_MS, last];
  const titleId = `${props.id}-title`;
  return html`<figure class="chart" id=${props.id}>
    <svg viewBox=${`0 0 ${width} ${height}`} role="img" aria-labelledby=${titleId} class="chart-svg">
      <title id=${titleId}>${props.title}</title>
      ${ticks.map(
        (t) =>
          html`<g>
            <line x1=${pad.left} x2=${width - pad.right} y1=${px(y(t))} y2=${px(y(t))} class="grid" />
            <text x=${pad.left - 6} y=${px(y(t)) + 4} text-anchor="end" class="tick"
              >${Number.isInteger(t) ? t : t.toFixed(1)}</text
            >
          </g>`,
      )}
      ${dayTicks.map((d) => html`<text x=${px(x(d))} y=${height - 12} text-anchor="middle" class="tick">${isoDay(d).slice(5)}</text>`)}
      ${(props.markers ?? []).map(
        (m) =>
          html`<g class="marker">
            <line x1=${px(x(m.at))} x2=${px(x(m.at))} y1=${pad.top} y2=${height - pad.bottom} />
            <text x=${px(x(m.at)) - 4} y=${pad.top + 10} text-anchor="end" class="tick">${m.label}</text>
          </g>`,
      )}
      ${props.series.map(
        (s, i) =>
          html`<polyline
            class="series"
            stroke=${palette[i % palette.length]}
            fill="none"
            stroke-width="2"
            points=${s.points.map((p) => `${px(x(p.day))},${px(y(p.count))}`).join(' ')}
            data-series=${s.name}
          />`,
      )}
    </svg>
    <figcaption>
      ${props.title}:
      ${props.series.map((s, i) => html`<span class="legend"><span class="swatch" data-color=${i % palette.length}></span>${s.name} </span>`)}
    </figcaption>
    <details>
      <summary>The numbers</summary>
      <${Table}
        head=${['Day', ...props.series.map((s) => `${s.name} (${props.unit})`)]}
        rows=${[...new Set(days)]
          .sort((a, b) => a - b)
          .map(
            (d) =>
              html`<tr>
                <th scope="row">${isoDay(d)}</th>
                ${props.series.map((s) => html`<td>${s.points.find((p) => p.day === d)?.count ?? 0}</td>`)}
              </tr>`,
          )}
      />
    </details>
  </figure>`;
}

export type Scale = (value: number) => number;

/** A linear scale; a degenerate domain maps everything to the range's start. */
export function linearScale(domain: [number, number], range: [number, number]): Scale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  return (value) => (d1 === d0 ? r0 : r0 + ((value - d0) / (d1 - d0)) * (r1 - r0));
}

/** A "nice" upper bound for a count axis (1, 2 or 5 times a power of ten), at least 1. */
function niceMax(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((m) => m * power).find((m) => m >= value)!;
}

/** Series colours: distinct, and dark enough for 3:1 contrast on white (WCAG non-text contrast). */
const palette = ['#0b5cad', '#b3261e', '#116329', '#8a4600', '#6639ba', '#0f6b63'];

/** Round to one decimal for SVG coordinates: shorter markup, no visible difference. */
export function px(value: number): number {
  return Math.round(value * 10) / 10;
}
