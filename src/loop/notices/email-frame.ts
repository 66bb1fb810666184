import { html } from 'htm/preact';

/**
 * The facts of a notice email as an HTML table, the values named in `links` as links: the same
 * table in every notice, so that each kind reads alike.
 *
 * @example
 * ```ts
 * html`<body>${factsTable([['Sunset', '2027-03-01']], new Set())}</body>`;
 * ```
 */
export function factsTable(facts: ReadonlyArray<readonly [string, string]>, links: ReadonlySet<string>) {
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
