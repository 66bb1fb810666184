import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { JsonSchema, SchemaMap } from '../../src/core/versions/index.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const componentRef = '#/components/schemas/';

/**
 * Validate values against one version's component schemas with ajv (formats included). Closed,
 * every object schema that lists `properties` and says nothing of others refuses them too: a
 * migrated body must carry what its version has, and nothing another version added.
 */
export function createSchemaValidator(options: {
  schemas: SchemaMap;
  closed?: boolean;
}): (name: string, value: unknown) => string[] {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  for (const format of ['int32', 'int64']) ajv.addFormat(format, true);
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      out[key] =
        key === '$ref' && typeof child === 'string' && child.startsWith(componentRef)
          ? `versions#/$defs/${child.slice(componentRef.length)}`
          : rewrite(child);
    }
    if (options.closed && out.properties && !('additionalProperties' in out)) out.additionalProperties = false;
    return out;
  };
  ajv.addSchema({ $id: 'versions', $defs: rewrite(options.schemas) as Record<string, JsonSchema> });
  const compiled = new Map<string, ValidateFunction>();
  return (name, value) => {
    let validate = compiled.get(name);
    if (!validate) {
      validate = ajv.compile({ $ref: `versions#/$defs/${name}` });
      compiled.set(name, validate);
    }
    return validate(value)
      ? []
      : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
  };
}
