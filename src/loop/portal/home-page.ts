import type { FastifyReply } from 'fastify';
import { html, renderPage, sendPage } from './html.ts';
import { Layout } from './layout.ts';

/** The page a browser gets at `/`; API clients get the same facts as JSON from the same route. */
export function sendHomePage(
  reply: FastifyReply,
  options: { versions: ReadonlyArray<{ name: string; state: string }>; site: string },
): FastifyReply {
  return sendPage(
    reply,
    html`<${Layout} title="Versionary reference service" site=${options.site}>
    <h1>Versionary reference service</h1>
    <p>An HTTP/JSON API in ${options.versions.length} version(s). Start with the <a href="/docs">API documentation</a>: each version's reference, its lifecycle and its migration guide.</p>
    <ul class="links" aria-label="Versions">${options.versions.map((v) => html`<li><a href=${`/docs/${v.name}`}>${v.name}</a> <span class=${`status ${v.state}`}>${v.state}</span></li>`)}</ul>
    <p class="muted">Programs asking for JSON get this as JSON at the same URL.</p>
  </${Layout}>`,
  );
}

/** The not-found page for a problem's `detail`, on the portal's layout, with a link to the docs. */
export function notFoundPage(site: string): (detail: string | undefined) => string {
  return (detail) =>
    renderPage(html`<${Layout} title="Page not found" site=${site}>
    <h1>Page not found</h1>
    ${detail && html`<p id="detail">${detail}</p>`}
    <p>The <a href="/docs">API documentation</a> lists every version and its reference; the <a href="/docs/changelog">changelog</a> tells what changed.</p>
  </${Layout}>`);
}
