import { render } from 'preact-render-to-string';
import { html } from './html.ts';
import { Layout } from './layout.ts';

/** The not-found page for a problem's `detail`, on the portal's layout, with a link to the docs. */
export function notFoundPage(site: string): (detail: string | undefined) => string {
  return (detail) => `<!doctype html>${render(NotFound({ detail, site }))}`;
}

function NotFound(props: { detail: string | undefined; site: string }) {
  return html`<${Layout} title="Page not found" site=${props.site}>
    <h1>Page not found</h1>
    ${props.detail && html`<p id="detail">${props.detail}</p>`}
    <p>The <a href="/docs">API documentation</a> lists every version and its reference; the <a href="/docs/changelog">changelog</a> tells what changed.</p>
  </${Layout}>`;
}
