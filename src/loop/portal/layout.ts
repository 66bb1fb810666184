import type { ComponentChildren, VNode } from 'preact';
import { html } from './html.ts';
import { assetPath, iconUrl } from './assets.ts';

/** The page shell; stylesheets and scripts come from the service only. */
export function Layout(props: {
  title: string;
  /** The API's title (`api.title`): the site's name, in the tab and the navigation. */
  site: string;
  scripts?: string[];
  styles?: string[];
  children?: ComponentChildren;
}): VNode {
  const styles = [...(props.styles ?? []), `${assetPath}/portal.css`];
  return html`<html lang="en">
    <head>
      <meta charset="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>${props.title} · ${props.site}</title>
      <link rel="icon" type="image/svg+xml" href=${iconUrl} />
      ${styles.map((href) => html`<link rel="stylesheet" href=${href} />`)}
      <link rel="alternate" type="application/atom+xml" title=${`${props.site} changelog`} href="/changelog.atom" />
    </head>
    <body>
      <a class="skip" href="#main">Skip to content</a>
      <header class="site">
        <nav aria-label="Site">
          <a href="/docs" class="brand">${props.site}</a>
          <a href="/docs/changelog">Changelog</a>
          <a href="/portal">Portal</a>
          <a href="/api/versions">Lifecycle</a>
        </nav>
      </header>
      <main id="main">${props.children}</main>
      ${(props.scripts ?? []).map((src) => html`<script src=${src}></script>`)}
    </body>
  </html>`;
}
