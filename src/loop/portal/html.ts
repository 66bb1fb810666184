import type { FastifyReply } from 'fastify';
import { html as bound } from 'htm/preact';
import type { VNode } from 'preact';
import { render } from 'preact-render-to-string';
import { isMigrationUrl } from '../../core/text/index.ts';
import { pageHeaders } from './page-headers.ts';

/** Every interpolated value is escaped by `preact-render-to-string`: no page escapes by hand. */
export const html: (strings: TemplateStringsArray, ...values: unknown[]) => VNode = bound;

export const renderPage = (page: VNode): string => `<!doctype html>${render(page)}`;

/** Render a page to HTML and send it with the page headers (CSP, no sniffing, referrer kept in-site). */
export function sendPage(reply: FastifyReply, page: VNode): FastifyReply {
  return reply.headers(pageHeaders).type('text/html; charset=utf-8').serializer(String).send(renderPage(page));
}

/** Format an instant as a calendar date (`2026-07-14`), the form pages show. */
export function isoDay(at: number | string): string {
  return (typeof at === 'string' ? at : new Date(at).toISOString()).slice(0, 10);
}

/** A URL fit for an `href`: anything else, a `javascript:` URL stored before the rule, is dropped. */
export function safeHref(url: string | null | undefined): string | undefined {
  return url && isMigrationUrl(url) ? url : undefined;
}

/** {@link isoDay} in a `<time>` element. */
export const dayTime = (at: number): VNode => html`<time datetime=${isoDay(at)}>${isoDay(at)}</time>`;

/** An instant to the minute, in UTC. */
export function stamp(at: number): string {
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** {@link stamp} in a `<time>` element carrying the full instant. */
export const timeStamp = (at: number): VNode => html`<time datetime=${new Date(at).toISOString()}>${stamp(at)}</time>`;

/** A table row's cells, a `<td>` each. */
export const cells = (values: unknown[]): VNode[] => values.map((v) => html`<td>${v}</td>`);

/** Calls per endpoint as table rows: the endpoint, its calls, the latest call. */
export const callRows = (calls: ReadonlyArray<{ endpoint: string; calls: number; lastSeen: number }>): VNode[] =>
  calls.map(
    (c) =>
      html`<tr data-endpoint=${c.endpoint}>
        ${cells([html`<code>${c.endpoint}</code>`, c.calls, timeStamp(c.lastSeen)])}
      </tr>`,
  );

/** A table with a header row of column names, in its scrolling wrapper unless `bare`. */
export function Table(props: {
  id?: string;
  class?: string;
  caption?: string;
  head: unknown[];
  rows: unknown[];
  bare?: boolean;
}): VNode {
  const table = html`<table id=${props.id} class=${props.class}>
    ${
      props.caption !== undefined &&
      html`<caption>
        ${props.caption}
      </caption>`
    }
    <thead>
      <tr>
        ${props.head.map((h) => html`<th scope="col">${h}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${props.rows}
    </tbody>
  </table>`;
  return props.bare ? table : html`<div class="table-wrap">${table}</div>`;
}
