import { fieldSchemas, type ElementDeprecation } from '../lifecycle/index.ts';
import type { DeprecationManifestSource } from '../lifecycle/deprecation-manifest.ts';
import { formatIsoInstant } from '../time/index.ts';
import type { ApiVersion } from '../versions/index.ts';
import { reachableSchemas } from '../versions/schema-walk.ts';
import type { GuideEntry } from './types.ts';

/** A guide is read by people: whole-second dates show without `.000`, as guides always have. */
export function guideInstant(ms: number): string {
  return formatIsoInstant(ms).replace(/\.000Z$/, 'Z');
}

/** The deprecated elements a guide lists, and the version they belong to. */
export interface GuideElements {
  /** Every element deprecation; only `version`'s are listed. */
  deprecations: readonly ElementDeprecation[];
  /** The version the guide moves from: its schemas say which operations a field reaches. */
  version: Pick<ApiVersion, 'name' | 'schemas' | 'operations'>;
  /** Prefix of the operations' paths, as in the guide's documents (`/api`), so both name them alike. */
  basePath: string;
}

/**
 * One guide line per field or query parameter deprecated within the version: where it is used
 * (for a field, each operation whose body or responses use its schema; for a parameter, its
 * operation), what clients do now and what they should do instead.
 */
export function elementGuideEntries(options: GuideElements): GuideEntry[] {
  const { version, basePath } = options;
  // The schemas an operation's body and responses are or reach through `$ref`.
  const usedBy = (op: ApiVersion['operations'][number]) =>
    reachableSchemas({
      schemas: version.schemas,
      roots: [op.body, ...Object.values(op.responses).map((r) => r.schema)].filter((n) => n !== undefined),
    });
  return options.deprecations
    .filter((e) => e.version === version.name)
    .map((e): GuideEntry => {
      const name = e.kind === 'field' ? e.field : e.parameter;
      const operations =
        e.kind === 'field'
          ? version.operations
              .filter((op) => fieldSchemas(e, version.schemas).some((target) => usedBy(op).has(target)))
              .map((op) => `${op.method} ${basePath}${op.path}`)
          : [`${e.method.toUpperCase()} ${basePath}${e.path}`];
      const refused = `\`${name}\` is refused after ${guideInstant(e.sunsetAt)}`;
      return {
        endpoint: operations.length > 0 ? operations.join(', ') : e.element,
        operations,
        oldBehaviour: `sends \`${name}\``,
        newBehaviour:
          e.replacement === undefined ? `stop sending it; ${refused}` : `send \`${e.replacement}\`; ${refused}`,
        rule: e.kind === 'field' ? 'field-deprecated' : 'parameter-deprecated',
      };
    });
}

/** An endpoint deprecated within a version that otherwise stays, as the lifecycle store holds it. */
type DeprecatedEndpoint = Pick<
  DeprecationManifestSource['endpoints'][number],
  'version' | 'method' | 'path' | 'sunsetAt'
>;

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
      const removed = `it is removed after ${guideInstant(e.sunsetAt)}`;
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
