import type { DeprecationDates } from '../../core/lifecycle/index.ts';
import { formatIsoInstant } from '../../core/time/index.ts';
import type { LifecycleRuntime } from './runtime.ts';

/** `info` members of a version's document: a removed version's mark, and its access dates. */
export function versionDocumentInfo(options: {
  runtime: LifecycleRuntime;
  name: string;
  status: number;
}): Record<string, unknown> {
  const { runtime, name } = options;
  const dates = runtime.scheduleOf(name);
  const removed = runtime.verdict({ version: name, method: 'GET', path: '/' });
  if (!removed.removed) return accessDates(dates);
  const sunset = formatIsoInstant(removed.sunsetAt!);
  const replacement = removed.removed.extensions.replacement;
  const cap = dates?.extendedAccessUntil;
  // With a cap, an owner may grant a client extended access: that client is served, so "every
  // request" would be false. The sentence holds at any instant, before the cap and after it.
  const except =
    cap === undefined
      ? ''
      : `, except from clients granted extended access, until their own date and no later than ${formatIsoInstant(cap)}`;
  return {
    'x-removed': true,
    'x-sunset': sunset,
    description: `REMOVED: ${name} was removed at its sunset date, ${sunset}. Every request to it answers ${options.status} with a problem body${except}${replacement ? `; use ${String(replacement)} instead` : ''}. This document is kept for migration only.`,
    ...accessDates(dates),
  };
}

function accessDates(dates: DeprecationDates | undefined): Record<string, string> {
  return {
    ...(dates?.closedToNewClientsAt === undefined
      ? {}
      : { 'x-closed-to-new-clients': formatIsoInstant(dates.closedToNewClientsAt) }),
    ...(dates?.extendedAccessUntil === undefined
      ? {}
      : { 'x-extended-access-until': formatIsoInstant(dates.extendedAccessUntil) }),
  };
}

/** Each deprecated endpoint's access dates on its operation (`<basePath><path>`). */
export function markEndpointDates(
  doc: Record<string, unknown>,
  o: { runtime: Pick<LifecycleRuntime, 'endpointDeprecations'>; version: string; basePath: string },
): void {
  const paths = doc.paths as Record<string, Record<string, Record<string, unknown>> | undefined> | undefined;
  if (!paths) return;
  for (const e of o.runtime.endpointDeprecations()) {
    if (e.version !== o.version) continue;
    const operation = paths[`${o.basePath}${e.path}`]?.[e.method.toLowerCase()];
    if (operation) Object.assign(operation, accessDates(e));
  }
}
