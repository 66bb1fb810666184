import type { ElementDeprecation } from '../lifecycle/element-deprecation.ts';
import { fieldSchemas, servedSchemas } from '../lifecycle/element-schemas.ts';
import type { VersionBundle } from './bundle-types.ts';

/**
 * Every `deprecatedFieldRemoved` whose deprecation was never declared, as a sentence: the removal
 * says clients were warned in `deprecatedIn`, so that version's lifecycle must hold a field
 * deprecation of the same schema and field (`fieldDeprecations`), or the promise is false. Also
 * refused: a `deprecatedIn` that is not an older version of the bundle. Empty when all is well.
 *
 * @example
 * ```ts
 * checkDeprecatedRemovals({ bundle, elements: runtime.elements() });
 * // ['v3 removes User.nickname as deprecated in v2, but v2 declares no field deprecation of User.nickname']
 * ```
 */
export function checkDeprecatedRemovals(options: {
  bundle: Pick<VersionBundle, 'versions'>;
  elements: readonly ElementDeprecation[];
}): string[] {
  const errors: string[] = [];
  const { versions } = options.bundle;
  for (const version of versions) {
    for (const change of version.changes) {
      for (const step of change.instructions) {
        if (step.op !== 'field-removed' || step.deprecatedIn === undefined) continue;
        const field = `${step.schema}.${step.field}`;
        const older = versions.find((v) => v.name === step.deprecatedIn);
        if (!older || older.index >= version.index) {
          errors.push(
            `${version.name} removes ${field} as deprecated in ${step.deprecatedIn}, which is not an older version of the bundle`,
          );
          continue;
        }
        const declared = options.elements.some(
          (e) =>
            e.kind === 'field' &&
            e.version === step.deprecatedIn &&
            fieldSchemas(e, servedSchemas(older)).includes(step.schema) &&
            e.field === step.field,
        );
        if (!declared)
          errors.push(
            `${version.name} removes ${field} as deprecated in ${step.deprecatedIn}, but ${step.deprecatedIn} declares no field deprecation of ${field}`,
          );
      }
    }
  }
  return errors;
}
