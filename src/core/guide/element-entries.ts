import { fieldSchemas, type ElementDeprecation } from '../lifecycle/index.ts';
import { formatIsoInstant } from '../time/index.ts';
import type { ApiVersion } from '../versions/index.ts';
import { reachableSchemas } from '../versions/schema-walk.ts';
import type { GuideEntry } from './types.ts';

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
      // A person reads the date: whole seconds without `.000`, as the guide's timeline has them.
      const sunset = formatIsoInstant(e.sunsetAt).replace(/\.000Z$/, 'Z');
      const refused = `\`${name}\` is refused after ${sunset}`;
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
