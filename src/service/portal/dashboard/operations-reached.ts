import type { Change } from '../../../core/compat/index.ts';

/**
 * The operations a change reaches, `METHOD /path` as in the diffed documents: its own operation,
 * or every operation a shared schema's change reaches. Stands in for `operationsReached` of
 * `core/compat` (usage-gate, issue 34), with the same name and shape, until that lands.
 */
export function operationsReached(change: Change): string[] {
  const { method, path, operations, via } = change.location;
  if (method !== undefined && path !== undefined) return [`${method} ${path}`];
  return operations ?? (via === undefined ? [] : [via]);
}
