import { replacementName } from '../../../core/lifecycle/index.ts';
import type { BreaksOptions } from './breaks-options.ts';

/** A deprecated field or query parameter, with the calls that still use it, for the owner. */
export type AdminElement = Awaited<ReturnType<typeof gatherAdminElements>>[number];

/** One use of a deprecated element by the signed-in client, per endpoint. */
export type ConsumerElement = Awaited<ReturnType<typeof gatherConsumerElements>>[number];

/** Every configured element deprecation with its usage over all time, soonest sunset first. */
export async function gatherAdminElements(options: BreaksOptions) {
  const elements = options.runtime.elements();
  if (elements.length === 0) return [];
  const used = await options.storage.usage.elementUsage();
  return elements
    .map((e) => {
      const u = used.find((r) => r.version === e.version && r.element === e.element);
      const replacement = replacementName(e);
      return {
        kind: e.kind,
        // `User.nickname`, `GET /users?order`.
        element: e.element,
        version: e.version,
        sunsetAt: e.sunsetAt,
        // The replacement's own name: `User.displayName`, `GET /users?sort`.
        ...(replacement ? { replacement } : {}),
        calls: u?.calls ?? 0,
        clients: u?.clients ?? 0,
        // Absent while no call has used it.
        ...(u ? { lastSeen: u.lastSeen } : {}),
      };
    })
    .sort((a, b) => a.sunsetAt - b.sunsetAt || a.element.localeCompare(b.element));
}

/** The client's own uses of elements still deprecated (none of an element no longer configured), most called first. */
export async function gatherConsumerElements(options: BreaksOptions, clientId: string) {
  const elements = options.runtime.elements();
  if (elements.length === 0) return [];
  const rows = await options.storage.usage.elementCalls({ clientId });
  return rows
    .flatMap((r) => {
      const e = elements.find((d) => d.version === r.version && d.element === r.element);
      if (!e) return [];
      const replacement = replacementName(e);
      return [
        {
          element: r.element,
          version: r.version,
          endpoint: r.endpoint,
          sunsetAt: e.sunsetAt,
          ...(replacement ? { replacement } : {}),
          calls: r.calls,
          lastSeen: r.lastSeen,
        },
      ];
    })
    .sort((a, b) => b.calls - a.calls || a.element.localeCompare(b.element) || a.endpoint.localeCompare(b.endpoint));
}
