import { formatIsoInstant } from '../time/index.ts';
import type { GuideEntry } from './types.ts';

/** An endpoint deprecated within a version that otherwise stays, as the lifecycle store holds it. */
interface DeprecatedEndpoint {
  version: string;
  method: string;
  /** Route template below the version's base, `/users/{id}/posts`. */
  path: string;
  sunsetAt: number;
}

/** The deprecated endpoints a guide lists, and the versions it moves between. */
export interface GuideEndpoints {
  /** Every endpoint deprecation; only `version`'s are listed. */
  deprecations: readonly DeprecatedEndpoint[];
  /** The version the guide moves from. */
  version: string;
  /** The version the guide moves to, when there is one: an operation it still has is where to go. */
  successor?: { name: string; operations: ReadonlyArray<{ method: string; path: string }> };
  /** Prefix of the operations' paths, as in the guide's other lines (`/api`), so all name them alike. */
  basePath: string;
}

/**
 * One guide line per endpoint deprecated within the version: the endpoint, what to call instead
 * (the same operation in the successor version when it has one; otherwise none is declared, as
 * the deprecation manifest says) and when it is removed.
 */
export function endpointGuideEntries(options: GuideEndpoints): GuideEntry[] {
  const { successor, basePath } = options;
  return options.deprecations
    .filter((e) => e.version === options.version)
    .map((e): GuideEntry => {
      const method = e.method.toUpperCase();
      const operation = `${method} ${basePath}${e.path}`;
      // A person reads the date: whole seconds without `.000`, as the guide's timeline has them.
      const removed = `it is removed after ${formatIsoInstant(e.sunsetAt).replace(/\.000Z$/, 'Z')}`;
      const kept = successor?.operations.some((op) => op.method === method && op.path === e.path);
      return {
        endpoint: operation,
        operations: [operation],
        oldBehaviour: 'calls the endpoint',
        newBehaviour:
          kept && successor
            ? `call it in ${successor.name} instead; ${removed}`
            : `no replacement is declared: stop calling it; ${removed}`,
        rule: 'endpoint-deprecated',
      };
    });
}
