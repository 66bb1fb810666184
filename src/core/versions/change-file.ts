import { versionNamePattern } from './bundle-types.ts';
import { endpointMembers } from './endpoint-instructions.ts';
import { schemaMembers, type Instruction } from './instructions.ts';
import type { HttpMethod, JsonSchema } from './types.ts';
import { defineVersionChange, type VersionChange } from './version-change.ts';
import { isPlainObject } from './schema-walk.ts';

/** A change as a change file lists it: the version that introduced it, and the change itself. */
export interface VersionChangeEntry {
  /** Its place in the file, for messages. */
  index: number;
  version: string;
  change: VersionChange;
}

const methods: readonly string[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'QUERY'];

/** Each op's members beside `op`, by kind; a member of another kind is a mistake. */
const members: Record<Instruction['op'], Record<string, string>> = {
  ...schemaMembers,
  'endpoint-added': { method: 'string', path: 'string' },
  ...endpointMembers,
};

/**
 * Read a change file (JSON or YAML, already parsed): a list of version changes, each naming the
 * version that introduced it, with the same instructions `defineVersionChange` takes, written as
 * data. Every problem is listed, each with where it is, so a file is fixed in one go.
 *
 * @example
 * ```ts
 * const { changes, problems } = readVersionChanges([
 *   { version: 'v2', description: 'Users gain `email`.', instructions: [{ op: 'field-added', schema: 'User', field: 'email' }] },
 * ]);
 * ```
 */
export function readVersionChanges(data: unknown): { changes: VersionChangeEntry[]; problems: string[] } {
  const problems: string[] = [];
  if (!Array.isArray(data)) return { changes: [], problems: ['the file must hold a list of version changes'] };
  const changes: VersionChangeEntry[] = [];
  data.forEach((entry: unknown, i) => {
    const at = `[${i}]`;
    if (!isPlainObject(entry))
      return void problems.push(`${at}: must be an object { version, description, instructions }`);
    for (const key of Object.keys(entry))
      if (!['version', 'description', 'instructions', 'requests', 'responses'].includes(key))
        problems.push(`${at}.${key}: is not a member of a change`);
    const { version, description, instructions } = entry;
    // Migrations are functions: only a module's changes carry them, where data cannot say a change.
    const migrations: Pick<VersionChange, 'requests' | 'responses'> = {};
    for (const key of ['requests', 'responses'] as const) {
      const value = entry[key];
      if (value === undefined) continue;
      if (isPlainObject(value) && Object.values(value).every((f) => typeof f === 'function'))
        migrations[key] = value as NonNullable<VersionChange['responses']>;
      else problems.push(`${at}.${key}: must map schema names to functions (a JavaScript module's changes)`);
    }
    if (typeof version !== 'string' || !versionNamePattern.test(version))
      problems.push(`${at}.version: must name the version that introduced the change, such as "v2"`);
    if (typeof description !== 'string' || description.trim() === '')
      problems.push(`${at}.description: must be a sentence for the changelog and the migration guide`);
    if (!Array.isArray(instructions) || instructions.length === 0)
      return void problems.push(`${at}.instructions: must be a non-empty list`);
    const read = instructions.map((step: unknown, j) => readInstruction(step, `${at}.instructions[${j}]`, problems));
    if (typeof version === 'string' && typeof description === 'string' && read.every((s) => s !== undefined))
      changes.push({
        index: i,
        version,
        change: defineVersionChange({ description, instructions: read as Instruction[], ...migrations }),
      });
  });
  return { changes, problems };
}

function readInstruction(step: unknown, at: string, problems: string[]): Instruction | undefined {
  if (!isPlainObject(step)) return void problems.push(`${at}: must be an object with an "op"`);
  const op = step.op as Instruction['op'];
  const shape = typeof op === 'string' ? members[op] : undefined;
  if (!shape) return void problems.push(`${at}.op: must be one of ${Object.keys(members).join(', ')}`);
  const before = problems.length;
  for (const key of Object.keys(step))
    if (key !== 'op' && !(key in shape)) problems.push(`${at}.${key}: is not a member of ${op}`);
  for (const [key, declared] of Object.entries(shape)) {
    const value = step[key];
    const kind = declared.replace(/\?$/, '');
    if (value === undefined) {
      if (kind === declared) problems.push(`${at}.${key}: is required by ${op}`);
      continue;
    }
    const [fits, need] = kinds[kind]!;
    if (!fits(value)) problems.push(`${at}.${key}: ${need}`);
  }
  if (op === 'endpoint-added' && typeof step.method === 'string' && !methods.includes(step.method))
    problems.push(`${at}.method: must be one of ${methods.join(', ')}`);
  if (op === 'endpoint-added' && typeof step.path === 'string' && !step.path.startsWith('/'))
    problems.push(`${at}.path: must start with "/"`);
  if (problems.length > before) return undefined;
  return structuredClone(step) as unknown as Instruction & { method?: HttpMethod; previous?: JsonSchema };
}

const endpointMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'QUERY'];
const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Each member kind of the `members` table: whether a value is of it, and what is said when it is not. */
const kinds: Record<string, [(value: unknown) => boolean, string]> = {
  string: [(v) => typeof v === 'string' && v !== '', 'must be a non-empty string'],
  strings: [
    (v) => Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === 'string'),
    'must be a non-empty list of strings',
  ],
  map: [
    (v) => isPlainObject(v) && Object.values(v).every((s) => typeof s === 'string'),
    'must map each value to a string',
  ],
  values: [isPlainObject, 'must map each value (as text) to the value it becomes'],
  value: [() => true, ''],
  schema: [(v) => isPlainObject(v) || typeof v === 'boolean', 'must be a JSON Schema object'],
  flag: [(v) => typeof v === 'boolean', 'must be true or false'],
  pointer: [(v) => typeof v === 'string' && (v === '' || v.startsWith('/')), 'must be a JSON pointer such as "/data"'],
  method: [(v) => typeof v === 'string' && endpointMethods.includes(v), `must be one of ${endpointMethods.join(', ')}`],
  path: [(v) => typeof v === 'string' && v.startsWith('/'), 'must be a path starting with "/"'],
  status: [
    (v) => Number.isInteger(v) && (v as number) >= 100 && (v as number) <= 599,
    'must be an HTTP status (100 to 599)',
  ],
  direction: [(v) => v === 'request' || v === 'response', 'must be "request" or "response"'],
  header: [(v) => typeof v === 'string' && token.test(v), 'must be a header name'],
};
