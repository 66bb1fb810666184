import fc from 'fast-check';

/** One value at the edge of a documented constraint: inside it (the server must take it) or just outside (400). */
export interface Edge {
  label: string;
  value: unknown;
  inside: boolean;
}

type Schema = Record<string, unknown>;

// A value of each format, and values just outside it; a format absent here fails loudly.
const formatInside: Record<string, string[]> = {
  email: ['a@example.com', '0@com'],
  'date-time': ['2026-01-16T12:30:00Z', '2026-01-16T13:30:00.5+01:00'],
  date: ['2026-01-01'],
  uri: ['https://example.com/guide'],
  'uri-reference': ['/guide', 'https://example.com/guide'],
};
const formatOutside: Record<string, string[]> = {
  email: ['ada.example.com'],
  'date-time': ['yesterday', '2026-02-30T00:00:00Z'],
  date: ['2026-13-01'],
  uri: ['hooks', ''],
  'uri-reference': [],
};

/**
 * The edges of every constraint a schema documents (`maxLength`, `minLength`, `minimum`,
 * `maximum`, `pattern`, `enum`, `format`, `maxItems`), each as a value inside and one just
 * outside, where every other constraint of the schema still holds. `$ref`s must be resolved by
 * `resolve`. Alternatives (`anyOf`) give the edges of each string branch that no other branch
 * takes, and only its inside values when another would.
 */
export function edgesOf(schema: Schema, resolve: (s: Schema) => Schema): Edge[] {
  schema = resolve(schema);
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (branches) {
    const resolved = branches.map(resolve);
    const consts = resolved.filter((b) => 'const' in b).map((b) => b.const);
    if (consts.length === resolved.length) return enumEdges(consts);
    const strings = resolved.filter((b) => b.type === 'string');
    return strings.flatMap((b) =>
      edgesOf(b, resolve).filter((e) => e.inside || !resolved.some((other) => other !== b && accepts(other, e.value))),
    );
  }
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : schema.type;
  if (Array.isArray(schema.enum)) return enumEdges(schema.enum as unknown[]);
  if (type === 'integer' || type === 'number') return numberEdges(schema);
  if (type === 'string') return stringEdges(schema);
  if (type === 'array' && schema.items) return arrayEdges(schema, resolve);
  return [];
}

function enumEdges(values: unknown[]): Edge[] {
  const strings = values.filter((v): v is string => typeof v === 'string');
  return [
    ...values.map((v) => ({ label: `enum value ${JSON.stringify(v)}`, value: v, inside: true })),
    ...(strings.length > 0
      ? [{ label: 'a value not in the enum', value: `${strings[0]}-unlisted`, inside: false }]
      : []),
  ];
}

function numberEdges(schema: Schema): Edge[] {
  const edges: Edge[] = [];
  if (typeof schema.minimum === 'number')
    edges.push(
      { label: `minimum ${schema.minimum}`, value: schema.minimum, inside: true },
      { label: `minimum ${schema.minimum} - 1`, value: schema.minimum - 1, inside: false },
    );
  if (typeof schema.maximum === 'number' && schema.maximum < Number.MAX_SAFE_INTEGER)
    edges.push(
      { label: `maximum ${schema.maximum}`, value: schema.maximum, inside: true },
      { label: `maximum ${schema.maximum} + 1`, value: schema.maximum + 1, inside: false },
    );
  return edges;
}

function stringEdges(schema: Schema): Edge[] {
  const holds = (v: string) => accepts(schema, v);
  const samples = exemplars(schema).filter(holds);
  const edges: Edge[] = samples.map((v) => ({
    label: `a valid value ${JSON.stringify(v.slice(0, 40))}`,
    value: v,
    inside: true,
  }));
  const format = schema.format as string | undefined;
  if (format)
    for (const v of formatOutside[format] ?? [])
      if (v.length >= Number(schema.minLength ?? 0))
        edges.push({ label: `not a ${format}: ${JSON.stringify(v)}`, value: v, inside: false });
  if (typeof schema.pattern === 'string' && samples[0] !== undefined) {
    const regex = new RegExp(schema.pattern, 'u');
    // Last, a NUL character: what free text's pattern refuses (`core/text/free-text.ts`).
    const broken = [
      `${samples[0]}!`,
      `!${samples[0]}`,
      `${samples[0]}0`,
      samples[0].slice(1),
      `${samples[0]}\u0000`,
    ].find((v) => !regex.test(v) && withinLength(schema, v));
    if (broken !== undefined)
      edges.push({
        label: `not matching ${schema.pattern}: ${JSON.stringify(broken.slice(0, 40))}`,
        value: broken,
        inside: false,
      });
  }
  if (typeof schema.maxLength === 'number' && schema.maxLength < 100_000) {
    const max = schema.maxLength;
    const longest = padded(schema, max);
    if (longest !== undefined) edges.push({ label: `maxLength ${max}`, value: longest, inside: true });
    const over = padded({ ...schema, maxLength: max + 1 }, max + 1);
    if (over !== undefined) edges.push({ label: `maxLength ${max} + 1`, value: over, inside: false });
  }
  if (typeof schema.minLength === 'number' && schema.minLength > 0) {
    const min = schema.minLength;
    const shortest = padded(schema, min);
    if (shortest !== undefined) edges.push({ label: `minLength ${min}`, value: shortest, inside: true });
    const shorter = 'a'.repeat(min - 1);
    // Refused for its length alone: the pattern, if any, takes it.
    if (!format && (typeof schema.pattern !== 'string' || new RegExp(schema.pattern, 'u').test(shorter)))
      edges.push({ label: `minLength ${min} - 1`, value: shorter, inside: false });
  }
  return edges;
}

function arrayEdges(schema: Schema, resolve: (s: Schema) => Schema): Edge[] {
  const items = resolve(schema.items as Schema);
  const itemEdges = edgesOf(items, resolve).map((e) => ({ ...e, label: `item: ${e.label}`, value: [e.value] }));
  const one = itemEdges.find((e) => e.inside)?.value as unknown[] | undefined;
  const edges = [...itemEdges];
  const distinct = Array.isArray(items.enum)
    ? items.enum
    : (items.anyOf as Schema[] | undefined)?.every((b) => 'const' in b)
      ? (items.anyOf as Schema[]).map((b) => b.const)
      : undefined;
  if (typeof schema.maxItems === 'number' && distinct && distinct.length === schema.maxItems) {
    edges.push({ label: `maxItems ${schema.maxItems}`, value: distinct, inside: true });
  } else if (
    typeof schema.maxItems === 'number' &&
    one &&
    schema.maxItems <= 100 &&
    typeof one[0] === 'string' &&
    items.format === undefined &&
    items.pattern === undefined &&
    items.anyOf === undefined
  ) {
    edges.push({
      label: `maxItems ${schema.maxItems}`,
      value: Array.from({ length: schema.maxItems }, (_, i) => `${String(one[0]).slice(0, 10)}${i}`),
      inside: true,
    });
  }
  if (typeof schema.maxItems === 'number' && one && schema.maxItems <= 100) {
    edges.push({
      label: `maxItems ${schema.maxItems} + 1`,
      value: Array.from({ length: schema.maxItems + 1 }, () => one[0]),
      inside: false,
    });
  }
  return edges;
}

/** Whether a value meets a string schema's own constraints (format only as far as the exemplars know it). */
function accepts(schema: Schema, value: unknown): boolean {
  if (schema.type === 'null') return value === null;
  if ('const' in schema) return schema.const === value;
  if (typeof value !== 'string') return schema.type !== 'string';
  if (
    schema.type !== undefined &&
    schema.type !== 'string' &&
    !(Array.isArray(schema.type) && schema.type.includes('string'))
  )
    return false;
  if (!withinLength(schema, value)) return false;
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false;
  const format = schema.format as string | undefined;
  return !format || !(formatOutside[format] ?? []).includes(value);
}

function withinLength(schema: Schema, value: string): boolean {
  const length = [...value].length;
  return length >= Number(schema.minLength ?? 0) && length <= Number(schema.maxLength ?? Infinity);
}

function exemplars(schema: Schema): string[] {
  const format = schema.format as string | undefined;
  if (format) {
    if (!formatInside[format])
      throw new Error(`no exemplar for format ${format}: add one to test/support/constraint-edges.ts`);
    return formatInside[format];
  }
  if (typeof schema.pattern === 'string') {
    const regex = new RegExp(schema.pattern, 'u');
    const generated = fc.sample(fc.stringMatching(regex), { numRuns: 40, seed: 21 });
    return [...new Set(generated)].filter((v) => withinLength(schema, v)).slice(0, 8);
  }
  return ['a'.repeat(Math.max(1, Number(schema.minLength ?? 1)))];
}

/** A value of exactly `length` characters that meets the schema, where one is easy to build. */
function padded(schema: Schema, length: number): string | undefined {
  const format = schema.format as string | undefined;
  if (typeof schema.pattern === 'string') {
    const regex = new RegExp(schema.pattern, 'u');
    // Grow a valid value by repeating its last character: right for the service's patterns that end in a repeatable class.
    for (const start of exemplars({ ...schema, maxLength: undefined, minLength: undefined })) {
      if (!start) continue;
      const grown =
        start.length >= length ? start.slice(0, length) : start + start.at(-1)!.repeat(length - start.length);
      if (grown.length === length && regex.test(grown) && (!format || format === 'uri-reference' || format === 'uri'))
        return grown;
    }
    return undefined;
  }
  if (format === 'email')
    return length < 20
      ? undefined
      : `${'a'.repeat(Math.min(64, length - 16))}@${domainOf(length - Math.min(64, length - 16) - 1)}`;
  if (format === 'uri' || format === 'uri-reference')
    return length < 21 ? undefined : `https://example.com/${'a'.repeat(length - 20)}`;
  if (format) return undefined;
  return 'a'.repeat(length);
}

/** A dotted domain of exactly `length` characters, labels of at most 63. */
function domainOf(length: number): string {
  const labels: string[] = [];
  let left = length - 4;
  while (left > 0) {
    const take = Math.min(63, left);
    labels.push('b'.repeat(take));
    left -= take + 1;
  }
  const domain = `${labels.join('.')}.com`;
  return domain.length === length ? domain : `${domain.slice(0, length - 4).replace(/\.$/, 'b')}.com`;
}
