import type { ApiVersion } from './bundle-types.ts';
import type { Instruction } from './instructions.ts';
import { valueAt } from './schema-pointer.ts';
import { isPlainObject, type Transform } from './schema-walk.ts';
import type { JsonSchema } from './types.ts';

type Step<Op extends Instruction['op']> = Extract<Instruction, { op: Op }>;
type Convert = (value: unknown) => unknown;

/** How a retyped field's values cross between the versions as data; `null` where they need no change. */
export interface Conversion {
  down: Convert | null;
  up: Convert | null;
}

/**
 * The data-only conversion of a `field-retyped` step: a value `map` (`mapUp`, else the map
 * inverted), number or integer ↔ string, or none needed; undefined when only a migration can say.
 */
export function retypeConversion(step: Step<'field-retyped'>, newer: JsonSchema | undefined): Conversion | undefined {
  const to = typeOf(newer);
  const from = typeOf(step.previous);
  if (step.map) {
    const { map } = step;
    const inverse = new Map(Object.entries(map).map(([key, value]) => [textOf(value), asType(key, to)]));
    const up = step.mapUp;
    return {
      down: (value) => (Object.hasOwn(map, textOf(value)) ? map[textOf(value)] : value),
      up: up
        ? (value) => (Object.hasOwn(up, textOf(value)) ? up[textOf(value)] : value)
        : (value) => (inverse.has(textOf(value)) ? inverse.get(textOf(value)) : value),
    };
  }
  if (to === undefined || from === undefined) return undefined;
  if (to === from || (to === 'integer' && from === 'number')) return { down: null, up: null };
  const numeric = (type: string) => type === 'number' || type === 'integer';
  if (numeric(to) && from === 'string') return { down: toText, up: (value) => toNumber(value, to) };
  if (to === 'string' && numeric(from)) return { down: (value) => toNumber(value, from), up: toText };
  return undefined;
}

/** A removed field older responses still show, from a value given as data (`from`, `default`). */
export function givesValue(
  step: Instruction,
): step is Step<'field-removed'> & ({ from: string } | { default: unknown }) {
  return step.op === 'field-removed' && (step.from !== undefined || Object.hasOwn(step, 'default'));
}

/**
 * A version's data instructions on schema `name`, taking a newer body down (removed fields shown,
 * retyped ones converted, renamed ones renamed); after the change's own migrations, which see the
 * newer body as it is.
 */
export function dataDown(version: ApiVersion, name: string): Transform {
  const steps = stepsOn(version, name);
  const shown = steps.filter(givesValue);
  const converts = conversionsOf(version, steps, 'down');
  const renames = new Map(steps.flatMap((s) => (s.op === 'field-renamed' ? [[s.field, s.previousName]] : [])));
  if (shown.length === 0 && converts.size === 0 && renames.size === 0) return null;
  const taken = new Set(renames.values());
  return (value) => {
    if (!isPlainObject(value)) return value;
    const copy = moved(value, { renames, taken, converts });
    for (const step of shown) {
      if (Object.hasOwn(copy, step.field)) continue;
      const at = step.from === undefined ? { found: false } : valueAt(value, step.from);
      if (at.found) copy[step.field] = at.value;
      else if (Object.hasOwn(step, 'default')) copy[step.field] = structuredClone(step.default);
    }
    return copy;
  };
}

/** The same, taking an older request body up (the newer shape then drops the removed fields). */
export function dataUp(version: ApiVersion, name: string): Transform {
  const steps = stepsOn(version, name);
  const renames = new Map(steps.flatMap((s) => (s.op === 'field-renamed' ? [[s.previousName, s.field]] : [])));
  const older = new Map([...renames].map(([previous, field]) => [field, previous]));
  const converts = new Map(
    [...conversionsOf(version, steps, 'up')].map(([field, convert]) => [older.get(field) ?? field, convert]),
  );
  if (converts.size === 0 && renames.size === 0) return null;
  const taken = new Set(renames.values());
  return (value) => (isPlainObject(value) ? moved(value, { renames, taken, converts }) : value);
}

/** A copy of an object with members renamed and converted; a member already under a taken name gives way. */
function moved(
  value: Record<string, unknown>,
  at: { renames: Map<string, string>; taken: Set<string>; converts: Map<string, Convert> },
): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key in value) {
    const renamed = at.renames.get(key);
    if (renamed === undefined && at.taken.has(key)) continue;
    const convert = at.converts.get(key);
    copy[renamed ?? key] = convert ? convert(value[key]) : value[key];
  }
  return copy;
}

function conversionsOf(
  version: ApiVersion,
  steps: ReturnType<typeof stepsOn>,
  direction: 'down' | 'up',
): Map<string, Convert> {
  const converts = new Map<string, Convert>();
  for (const step of steps) {
    if (step.op !== 'field-retyped') continue;
    const newer = version.schemas[step.schema]?.properties as Record<string, JsonSchema> | undefined;
    const convert = retypeConversion(step, newer?.[step.field])?.[direction];
    if (convert) converts.set(step.field, convert);
  }
  return converts;
}

function stepsOn(version: ApiVersion, name: string) {
  return instructionsOn(version, name).flatMap((s) =>
    s.op === 'field-removed' || s.op === 'field-retyped' || s.op === 'field-renamed' ? [s] : [],
  );
}

/** A version's instructions on schema `name`. */
export function instructionsOn(version: ApiVersion, name: string): Array<Extract<Instruction, { schema: string }>> {
  return version.changes.flatMap((c) => c.instructions).flatMap((s) => ('schema' in s && s.schema === name ? [s] : []));
}

/** The one JSON type a schema's values have, `null` aside (`anyOf: [{type}, {type: null}]` included). */
function typeOf(schema: JsonSchema | undefined): string | undefined {
  if (!schema) return undefined;
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
    (t) => typeof t === 'string' && t !== 'null',
  );
  if (types.length === 1) return types[0] as string;
  if (types.length > 1) return undefined;
  const branches = [
    ...(Array.isArray(schema.anyOf) ? schema.anyOf : []),
    ...(Array.isArray(schema.oneOf) ? schema.oneOf : []),
  ]
    .filter(isPlainObject)
    .filter((b) => b.type !== 'null');
  if (branches.length === 1) return typeOf(branches[0]);
  const values = Array.isArray(schema.enum) ? schema.enum : 'const' in schema ? [schema.const] : [];
  if (values.length > 0 && values.every((v) => typeof v === 'string')) return 'string';
  if (values.length > 0 && values.every((v) => Number.isInteger(v))) return 'integer';
  return undefined;
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A map's key (text) as a value of the newer type. */
function asType(key: string, type: string | undefined): unknown {
  if (type === 'number' || type === 'integer') return toNumber(key, type);
  if (type === 'boolean' && (key === 'true' || key === 'false')) return key === 'true';
  return key;
}

function toText(value: unknown): unknown {
  return typeof value === 'number' ? String(value) : value;
}

/** A numeric string as a number (an integer where the type says so); anything else as it is. */
function toNumber(value: unknown, type: string): unknown {
  if (typeof value !== 'string' || !/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.test(value)) return value;
  const number = Number(value);
  return Number.isFinite(number) && (type !== 'integer' || Number.isInteger(number)) ? number : value;
}
