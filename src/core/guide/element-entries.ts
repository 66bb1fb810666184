import { fieldSchemas, type ElementDeprecation } from '../lifecycle/index.ts';
import { formatIsoInstant } from '../time/index.ts';
import { isPlainObject, refName, type ApiVersion } from '../versions/index.ts';
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
 *
 * @example
 * ```ts
 * elementGuideEntries({ deprecations: runtime.elements(), version: bundle.get('v2')!, basePath: '/api' });
 * // [{ endpoint: 'POST /api/users', oldBehaviour: 'sends `nickname`', newBehaviour: 'send `displayName`; `nickname` is refused after 2027-09-01T00:00:00Z', ... }]
 * ```
 */
export function elementGuideEntries(options: GuideElements): GuideEntry[] {
  const { version, basePath } = options;
  return options.deprecations
    .filter((e) => e.version === version.name)
    .map((e): GuideEntry => {
      const name = e.kind === 'field' ? e.field : e.parameter;
      const operations =
        e.kind === 'field'
          ? version.operations
              .filter((op) =>
                fieldSchemas(e, version.schemas).some((target) =>
                  usesSchema(version.schemas, [op.body, ...Object.values(op.responses).map((r) => r.schema)], target),
                ),
              )
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

/** Whether `target` is one of `roots` or is reached from one through `$ref`. */
function usesSchema(
  schemas: Record<string, unknown>,
  roots: ReadonlyArray<string | undefined>,
  target: string,
): boolean {
  const seen = new Set<string>();
  const visit = (name: string | undefined): boolean => {
    if (name === undefined || seen.has(name)) return false;
    seen.add(name);
    return name === target || walk(schemas[name]);
  };
  const walk = (value: unknown): boolean => {
    if (Array.isArray(value)) return value.some(walk);
    if (!isPlainObject(value)) return false;
    const name = refName(value.$ref);
    if (name !== undefined && visit(name)) return true;
    return Object.values(value).some(walk);
  };
  return roots.some(visit);
}
