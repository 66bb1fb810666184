import type { VNode } from 'preact';
import { cells, html, isoDay, Table } from '../html.ts';
import type { AdminElement, ConsumerElement } from '../../lifecycle/breaks/element-data.ts';

/** The owner's "Deprecated fields and parameters": each element, its sunset and who still uses it. */
export function AdminElementsSection(props: { elements: AdminElement[] }): VNode {
  const { elements } = props;
  return html`<section aria-labelledby="elements-heading">
    <h2 id="elements-heading">Deprecated fields and parameters</h2>
    ${
      elements.length === 0
        ? html`<p>No field or query parameter is deprecated.</p>`
        : html`<${Table}
            id="deprecated-elements"
            head=${['Element', 'Version', 'Sunset', 'Replacement', 'Calls', 'Clients', 'Last call']}
            rows=${elements.map(
              (e) =>
                html`<tr data-element=${e.element} data-kind=${e.kind}>
                  ${cells([html`<code>${e.element}</code>`, e.version, isoDay(e.sunsetAt)])}
                  ${cells([e.replacement ? html`<code>${e.replacement}</code>` : 'none', e.calls, e.clients])}
                  <td>${e.lastSeen === undefined ? 'never' : isoDay(e.lastSeen)}</td>
                </tr>`,
            )}
          />`
    }
  </section>`;
}

/** The consumer's own uses of deprecated fields and parameters; nothing at all when it has none. */
export function ConsumerElementsSection(props: { elements: ConsumerElement[] }): VNode | null {
  const { elements } = props;
  if (elements.length === 0) return null;
  return html`<section aria-labelledby="elements-title" id="elements">
    <h2 id="elements-title">Deprecated fields and parameters you use</h2>
    <${Table}
      id="your-elements"
      head=${['Element', 'Endpoint', 'Calls', 'Last call', 'Removed on', 'Use instead']}
      rows=${elements.map(
        (e) =>
          html`<tr data-element=${e.element} data-endpoint=${e.endpoint}>
            ${cells([html`<code>${e.element}</code>`, html`<code>${e.endpoint}</code>`, e.calls])}
            <td><time datetime=${new Date(e.lastSeen).toISOString()}>${isoDay(e.lastSeen)}</time></td>
            <td>${isoDay(e.sunsetAt)}</td>
            <td>${e.replacement ? html`<code>${e.replacement}</code>` : 'nothing: stop sending it'}</td>
          </tr>`,
      )}
    />
  </section>`;
}
