import { isPlainObject, reachableSchemas, requiredOf } from './schema-walk.ts';
import type { ApiVersion } from './bundle-types.ts';
import type { JsonSchema, SchemaMap } from './types.ts';
import { bodyRoots, locatedSteps, type DefinitionProblem } from './check-definition.ts';
import { givesValue, instructionsOn } from './data-migrations.ts';

/**
 * Declarations that cannot work whatever the handler returns or the client sends: without a
 * migration for a schema (or one containing it), the instructions alone must give every body the
 * fields the other version requires, and map every enum value it lacks.
 */
export function checkProducible(versions: ApiVersion[]): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  versions.forEach((newer, i) => {
    const older = versions[i - 1];
    if (!older) return;
    const say = (text: string, at: Omit<DefinitionProblem, 'detail'> = { pointer: `/versions/${i}` }) =>
      problems.push({ detail: `${newer.name}: ${text}`, ...at });
    const roots = bodyRoots(older);
    const down = new Set(newer.changes.flatMap((c) => Object.keys(c.responses ?? {})));
    const up = new Set(newer.changes.flatMap((c) => Object.keys(c.requests ?? {})));
    // What the target version's bodies contain that no migration of the step rewrites.
    const inResponses = reachableSchemas({ schemas: older.schemas, roots: roots.responses, stopAt: down });
    const inRequests = reachableSchemas({ schemas: newer.schemas, roots: roots.requests, stopAt: up });

    for (const name of inResponses) {
      const source = asTranslated(newer.schemas[name], { steps: newer, name, direction: 'down' });
      for (const gap of requiredGaps({ source, target: older.schemas[name], path: name })) {
        const why = gap.optional ? `which ${newer.name} may omit` : `which ${newer.name} does not have`;
        say(
          `${older.name} responses require ${gap.path}, ${why} and no response migration produces: declare responses.${name} to set it from the ${newer.name} body (for a rename, copy the new field into it)`,
          { pointer: `/versions/${i}`, needs: { direction: 'response', schema: name } },
        );
      }
    }
    for (const name of inRequests) {
      const source = asTranslated(older.schemas[name], { steps: newer, name, direction: 'up' });
      for (const gap of requiredGaps({ source, target: newer.schemas[name], path: name })) {
        const why = gap.optional ? `which ${older.name} requests may omit` : `which ${older.name} requests do not have`;
        say(
          `${newer.name} requests require ${gap.path}, ${why} and no request migration produces: declare requests.${name} to set it from the ${older.name} body, or make it optional`,
          { pointer: `/versions/${i}`, needs: { direction: 'request', schema: name } },
        );
      }
    }
    for (const { step, pointer } of locatedSteps(newer, i)) {
      if (step.op === 'field-removed' && !step.required && !givesValue(step) && inResponses.has(step.schema)) {
        say(
          `field-removed on ${step.schema}.${step.field} needs responses.${step.schema}: without it, ${older.name} responses never carry ${step.field}`,
          { pointer },
        );
      }
      if (step.op === 'enum-values-added' && inResponses.has(step.schema)) {
        for (const value of step.values.filter((v) => !Object.hasOwn(step.mapDownTo ?? {}, v))) {
          say(
            `enum-values-added on ${placeOf(step)} adds "${value}", which ${older.name} responses cannot show: map it with mapDownTo, or declare responses.${step.schema}`,
            { pointer },
          );
        }
      }
      if (step.op === 'enum-values-removed' && inRequests.has(step.schema)) {
        for (const value of step.values.filter((v) => !Object.hasOwn(step.mapUpTo ?? {}, v))) {
          say(
            `enum-values-removed on ${placeOf(step)} removes "${value}", which ${older.name} requests may still send: map it with mapUpTo, or declare requests.${step.schema}`,
            { pointer },
          );
        }
      }
    }
  });
  return problems;
}

function placeOf(step: { schema: string; field?: string | undefined }): string {
  return step.field === undefined ? step.schema : `${step.schema}.${step.field}`;
}

/**
 * A body schema as a step's data instructions leave it for the other version: renamed fields under
 * that version's names, and (down) removed fields given a value (`default`, `from`) as always there.
 */
function asTranslated(
  schema: JsonSchema | undefined,
  at: { steps: ApiVersion; name: string; direction: 'down' | 'up' },
): JsonSchema | undefined {
  if (!schema) return schema;
  const steps = instructionsOn(at.steps, at.name);
  const renames = steps.flatMap((s) => (s.op === 'field-renamed' ? [[s.field, s.previousName] as const] : []));
  const names = new Map(renames.map(([newer, older]) => (at.direction === 'down' ? [newer, older] : [older, newer])));
  const shown = at.direction === 'up' ? [] : steps.filter(givesValue).map((s) => s.field);
  if (names.size === 0 && shown.length === 0) return schema;
  const rename = (key: string) => names.get(key) ?? key;
  const props = Object.entries(propertiesOf(schema)).map(([key, value]): [string, JsonSchema] => [rename(key), value]);
  return {
    ...schema,
    properties: Object.fromEntries([...props, ...shown.map((field): [string, JsonSchema] => [field, {}])]),
    required: [...requiredOf(schema).map(rename), ...shown],
  };
}

interface Gap {
  path: string;
  /** The source has the field but may leave it out. */
  optional: boolean;
}

/** Fields `target` requires that a body of `source` may lack, along inline properties and items. */
function requiredGaps(options: {
  source: JsonSchema | undefined;
  target: JsonSchema | undefined;
  path: string;
}): Gap[] {
  const { source, target, path } = options;
  if (!source || !target || source.$ref !== undefined || target.$ref !== undefined) return [];
  const gaps: Gap[] = [];
  const sourceProps = propertiesOf(source);
  const sourceRequired = requiredOf(source);
  for (const field of requiredOf(target)) {
    if (!Object.hasOwn(sourceProps, field)) gaps.push({ path: `${path}.${field}`, optional: false });
    else if (!sourceRequired.includes(field)) gaps.push({ path: `${path}.${field}`, optional: true });
  }
  for (const [field, child] of Object.entries(propertiesOf(target))) {
    if (Object.hasOwn(sourceProps, field))
      gaps.push(...requiredGaps({ source: sourceProps[field], target: child, path: `${path}.${field}` }));
  }
  if (isPlainObject(source.items) && isPlainObject(target.items))
    gaps.push(...requiredGaps({ source: source.items, target: target.items, path: `${path}[]` }));
  return gaps;
}

function propertiesOf(schema: JsonSchema): SchemaMap {
  return isPlainObject(schema.properties) ? (schema.properties as SchemaMap) : {};
}
