import { html } from 'htm/preact';
import { render } from 'preact-render-to-string';

// htm turns tagged templates into preact elements; preact escapes every interpolated value.

/** A rendered notice email. */
export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** A fact of a notice email: its name and its value. */
export type EmailFact = readonly [string, string];

/**
 * The frame every notice email shares, so that each kind reads alike: the headline, whom it is
 * to, the facts (as lines, and as a table whose values named in `links` are links), the kind's
 * own part, and the unsubscribe link. Each kind brings only its headline, facts and body.
 */
export function frameEmail(options: {
  subject: string;
  headline: string;
  client: { id: string; name: string };
  facts: readonly EmailFact[];
  links: ReadonlySet<string>;
  /** The kind's own lines of the plain-text part, after the facts. */
  text: readonly string[];
  /** The kind's own part of the HTML body, after the facts. */
  body: unknown;
  unsubscribeUrl: string;
}): RenderedEmail {
  const { headline, client, facts, unsubscribeUrl } = options;
  const to = `To ${client.name} (${client.id}).`;
  const text = [
    `${headline}.`,
    '',
    to,
    '',
    ...facts.map(([k, v]) => `${k}: ${v}`),
    '',
    ...options.text,
    '',
    `Unsubscribe: ${unsubscribeUrl}`,
    '',
  ].join('\n');
  const page = html`<html>
    <body>
      <h1>${headline}</h1>
      <p>${to}</p>
      ${[factsTable(facts, options.links), options.body]}
      <p><a href=${unsubscribeUrl}>Unsubscribe</a></p>
    </body>
  </html>`;
  return { subject: options.subject, text, html: `<!doctype html>${render(page as never)}` };
}

function factsTable(facts: readonly EmailFact[], links: ReadonlySet<string>) {
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
