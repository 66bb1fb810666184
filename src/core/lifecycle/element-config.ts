import { formatDays } from './durations.ts';
import {
  elementName,
  type ElementDeprecation,
  type FieldDeprecationConfig,
  type FieldElement,
  type ParameterDeprecationConfig,
} from './element-deprecation.ts';
import { fieldSchemas, propertiesOf, servedSchemas, type ElementVersionShape } from './element-schemas.ts';
import { instantMs } from './lifecycle-rules.ts';
import { deprecationDatesOf, type LifecycleConfig } from './lifecycle-schema.ts';
import { minimumNoticeMs } from './schedule-rules.ts';
import type { Audience } from './schedule.ts';

export type { ElementVersionShape } from './element-schemas.ts';

/** A config's `fieldDeprecations` and `parameterDeprecations`, read; its shape is checked first. */
export function parseElementDeprecations(
  config: Pick<LifecycleConfig, 'fieldDeprecations' | 'parameterDeprecations'>,
): ElementDeprecation[] {
  const common = (entry: FieldDeprecationConfig | ParameterDeprecationConfig) => ({
    version: entry.version,
    deprecatedAt: instantMs(entry.deprecatedAt) ?? Number.NaN,
    sunsetAt: instantMs(entry.sunsetAt) ?? Number.NaN,
    ...(entry.replacement !== undefined ? { replacement: entry.replacement } : {}),
    ...(entry.migrationUrl !== undefined ? { migrationUrl: entry.migrationUrl } : {}),
    ...deprecationDatesOf(entry),
  });
  const fields = (config.fieldDeprecations ?? []).map((entry): ElementDeprecation => {
    const { field, resource } = entry;
    const schemas =
      resource !== undefined
        ? [resource]
        : typeof entry.schema === 'string'
          ? [entry.schema]
          : [...(entry.schema ?? [])];
    return {
      kind: 'field',
      ...common(entry),
      element: elementName({ kind: 'field', schema: schemas[0]!, field }),
      schema: schemas[0]!,
      ...(resource !== undefined ? { resource } : { schemas }),
      field,
    };
  });
  const parameters = (config.parameterDeprecations ?? []).map((entry): ElementDeprecation => {
    const method = entry.method.toUpperCase();
    const { path, parameter } = entry;
    return {
      kind: 'parameter',
      ...common(entry),
      element: elementName({ kind: 'parameter', method, path, parameter }),
      method,
      path,
      parameter,
    };
  });
  return [...mergeSchemaEntries(fields), ...parameters];
}

/**
 * Entries of the `schema` form with the same field, version and timeline are one element, named by
 * the first entry's schema: as one, it counts every use (as `resource` does), not one per schema.
 */
function mergeSchemaEntries(fields: ElementDeprecation[]): ElementDeprecation[] {
  const merged: ElementDeprecation[] = [];
  const byTimeline = new Map<string, ElementDeprecation & { kind: 'field'; schemas: string[] }>();
  for (const e of fields) {
    if (e.kind !== 'field' || e.resource !== undefined || e.schemas === undefined) {
      merged.push(e);
      continue;
    }
    const { element: _name, schema: _schema, schemas: _schemas, ...timeline } = e;
    const key = JSON.stringify(timeline, Object.keys(timeline).sort());
    const first = byTimeline.get(key);
    if (first) {
      for (const name of e.schemas) if (!first.schemas.includes(name)) first.schemas.push(name);
      continue;
    }
    const own = { ...e, schemas: [...e.schemas] };
    byTimeline.set(key, own);
    merged.push(own);
  }
  return merged;
}

/** Every element checked against the versions that have code and the notice policy, as sentences. */
export function checkElementDeprecations(options: {
  elements: readonly ElementDeprecation[];
  versions: readonly ElementVersionShape[];
  audience?: Audience;
}): string[] {
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const e of options.elements) {
    const label = `${e.kind} deprecation ${e.element} in ${e.version}`;
    const key = `${e.version} ${e.element}`;
    if (seen.has(key)) errors.push(`${label} is declared more than once`);
    seen.add(key);
    const version = options.versions.find((v) => v.name === e.version);
    if (!version) {
      errors.push(
        `${label} names version ${e.version}, which the API does not have (versions: ${options.versions.map((v) => v.name).join(', ')})`,
      );
      continue;
    }
    if (e.kind === 'field') errors.push(...fieldErrors({ e, label, version }));
    else {
      const operation = version.operations.find((op) => op.method === e.method && op.path === e.path);
      if (!operation) {
        errors.push(`${label} names ${e.method} ${e.path}, which ${e.version} does not have`);
        continue;
      }
      const parameters = propertiesOf(operation.query ?? {});
      if (!parameters.includes(e.parameter))
        errors.push(
          `${label}: ${e.method} ${e.path} in ${e.version} has no query parameter "${e.parameter}" (parameters: ${parameters.join(', ') || 'none'})`,
        );
      if (e.replacement !== undefined && !parameters.includes(e.replacement))
        errors.push(`${label}: its replacement "${e.replacement}" is not a query parameter of ${e.method} ${e.path}`);
    }
    if (e.replacement === e.element.split(/[.?]/).pop()) errors.push(`${label} names itself as its replacement`);
    if (!(e.sunsetAt > e.deprecatedAt)) errors.push(`${label}: sunsetAt must come after deprecatedAt`);
    else {
      const required = minimumNoticeMs(options.audience ?? 'public');
      if (e.sunsetAt - e.deprecatedAt < required)
        errors.push(
          `${label}: ${options.audience ?? 'public'} APIs need at least ${formatDays(required)} days of notice before sunset; it gives ${formatDays(e.sunsetAt - e.deprecatedAt)} days (notice-period)`,
        );
    }
  }
  return errors;
}

// Against the schemas the version's document shows (the `fields` twins included): a name it
// shows is accepted, and a field named once must reach at least one.
function fieldErrors(options: { e: FieldElement; label: string; version: ElementVersionShape }): string[] {
  const { e, label, version } = options;
  const served = servedSchemas(version);
  const shown = () => Object.keys(served).join(', ');
  const reached = fieldSchemas(e, served);
  if (e.resource !== undefined && reached.length === 0)
    return [
      `${label} reaches no schema: no schema of ${e.version} named ${e.resource} or ${e.resource}<Suffix> has a field "${e.field}" (schemas: ${shown()})`,
    ];
  const errors: string[] = [];
  for (const name of reached) {
    const schema = served[name];
    if (!schema) {
      errors.push(
        `${label} names schema ${name}, which ${e.version} does not have (its document's schemas: ${shown()})`,
      );
      continue;
    }
    const properties = propertiesOf(schema);
    if (!properties.includes(e.field))
      errors.push(`${label}: ${e.version}'s ${name} has no field "${e.field}" (fields: ${properties.join(', ')})`);
    if (e.replacement !== undefined && !properties.includes(e.replacement))
      errors.push(`${label}: its replacement "${e.replacement}" is not a field of ${e.version}'s ${name}`);
  }
  return errors;
}
