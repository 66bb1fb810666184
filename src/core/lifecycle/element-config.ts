import { parseIsoInstant } from '../time/index.ts';
import { formatDays } from './durations.ts';
import { elementName, type ElementDeprecation } from './element-deprecation.ts';
import { minimumNoticeMs } from './schedule-rules.ts';
import type { Audience } from './schedule.ts';

/** What the element checks need of a version: its schemas and the query schema of each operation. */
export interface ElementVersionShape {
  name: string;
  schemas: Record<string, Record<string, unknown>>;
  operations: ReadonlyArray<{ method: string; path: string; query?: Record<string, unknown> }>;
}

const fieldKeys = ['version', 'schema', 'field', 'deprecatedAt', 'sunsetAt', 'replacement', 'migrationUrl'];
const parameterKeys = [
  'version',
  'method',
  'path',
  'parameter',
  'deprecatedAt',
  'sunsetAt',
  'replacement',
  'migrationUrl',
];

/**
 * Read `fieldDeprecations` and `parameterDeprecations` (the same entries in the plugin's
 * `lifecycle` option and the config file), pushing one sentence per mistake into `errors`.
 * Instants are ISO 8601 strings or epoch milliseconds; both dates are required, since the spec
 * asks for a concrete sunset.
 *
 * @example
 * ```ts
 * const elements = parseElementDeprecations({ fieldDeprecations: [{ version: 'v2', schema: 'User', field: 'nickname', deprecatedAt: '2026-09-01', sunsetAt: '2027-09-01' }] }, errors);
 * ```
 */
export function parseElementDeprecations(
  config: { fieldDeprecations?: unknown; parameterDeprecations?: unknown },
  errors: string[],
): ElementDeprecation[] {
  const out: ElementDeprecation[] = [];
  for (const [key, known] of [
    ['fieldDeprecations', fieldKeys],
    ['parameterDeprecations', parameterKeys],
  ] as const) {
    const list = config[key];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      errors.push(`${key} must be an array`);
      continue;
    }
    list.forEach((raw: unknown, i) => {
      const where = `${key}[${i}]`;
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
        return void errors.push(`${where} must be an object`);
      const entry = raw as Record<string, unknown>;
      const before = errors.length;
      for (const name of Object.keys(entry))
        if (!known.includes(name)) errors.push(`${where} has an unknown key "${name}" (known: ${known.join(', ')})`);
      const text = (name: string, required: boolean) => {
        const value = entry[name];
        if (value === undefined && !required) return undefined;
        if (typeof value === 'string' && value.trim() !== '') return value;
        errors.push(`${where}.${name} must be a non-empty string`);
        return '';
      };
      const instant = (name: string) => {
        const value = entry[name];
        const at =
          typeof value === 'number' && Number.isFinite(value)
            ? value
            : typeof value === 'string'
              ? parseIsoInstant(value)
              : undefined;
        if (at === undefined)
          errors.push(
            `${where}.${name} is required: an ISO 8601 date (or epoch milliseconds), not ${JSON.stringify(value)}`,
          );
        return at ?? Number.NaN;
      };
      const version = text('version', true)!;
      const common = {
        version,
        deprecatedAt: instant('deprecatedAt'),
        sunsetAt: instant('sunsetAt'),
        ...optional('replacement', text('replacement', false)),
        ...optional('migrationUrl', text('migrationUrl', false)),
      };
      if (key === 'fieldDeprecations') {
        const schemas = schemaList(entry.schema, `${where}.schema`, errors);
        const field = text('field', true)!;
        if (errors.length > before) return;
        out.push({
          kind: 'field',
          ...common,
          element: elementName({ kind: 'field', schema: schemas[0]!, field }),
          schema: schemas[0]!,
          schemas,
          field,
        });
      } else {
        const method = text('method', true)!.toUpperCase();
        const path = text('path', true)!;
        const parameter = text('parameter', true)!;
        if (errors.length > before) return;
        out.push({
          kind: 'parameter',
          ...common,
          element: elementName({ kind: 'parameter', method, path, parameter }),
          method,
          path,
          parameter,
        });
      }
    });
  }
  return out;
}

/**
 * Every element checked against the versions that have code and the lifecycle policy: the version,
 * schema, field, parameter and replacement must exist in that version, the sunset must follow the
 * deprecation by the audience's notice, and an element is declared once. Sentences, empty when sound.
 */
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
    if (e.kind === 'field') {
      for (const name of e.schemas ?? [e.schema]) {
        const schema = version.schemas[name];
        if (!schema) {
          errors.push(`${label} names schema ${name}, which ${e.version} does not have`);
          continue;
        }
        const properties = propertiesOf(schema);
        if (!properties.includes(e.field))
          errors.push(`${label}: ${e.version}'s ${name} has no field "${e.field}" (fields: ${properties.join(', ')})`);
        if (e.replacement !== undefined && !properties.includes(e.replacement))
          errors.push(`${label}: its replacement "${e.replacement}" is not a field of ${e.version}'s ${name}`);
      }
    } else {
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

function schemaList(value: unknown, where: string, errors: string[]): string[] {
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  if (list.length === 0 || !list.every((s) => typeof s === 'string' && s.trim() !== '')) {
    errors.push(`${where} must name a schema, or a list of the schemas that carry the field (the first names it)`);
    return [''];
  }
  return list as string[];
}

function propertiesOf(schema: Record<string, unknown>): string[] {
  const properties = schema.properties;
  return typeof properties === 'object' && properties !== null ? Object.keys(properties) : [];
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
