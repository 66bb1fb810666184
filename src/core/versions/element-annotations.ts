import type { ElementDeprecation, FieldElement, ParameterElement } from '../lifecycle/element-deprecation.ts';
import { fieldSchemas } from '../lifecycle/element-schemas.ts';
import { formatIsoInstant } from '../time/index.ts';
import { isPlainObject } from './schema-walk.ts';
import type { JsonSchema } from './types.ts';

/** What {@link annotateElements} needs: the deprecated elements and the instant to judge sunsets at. */
export interface ElementDocumentation {
  /** Every element deprecation; only the document's own version's are used. */
  deprecations: readonly ElementDeprecation[];
  /** Now, from the caller's clock: a parameter past its sunset is left out. */
  now: number;
}

/**
 * Mark a version's deprecated fields and query parameters in its generated document: `deprecated`,
 * `x-sunset` and a sentence naming the replacement, so Swagger UI shows them struck through. A
 * field stays documented after its sunset (the spec removes fields only in the next major version,
 * and vN's responses keep it); a parameter past its sunset is left out, since requests sending it
 * are refused. The document must be freshly generated: its schemas are copied before any change,
 * the bundle's own are never touched.
 */
export function annotateElements(options: {
  doc: Record<string, unknown>;
  version: string;
  basePath: string;
  elements: ElementDocumentation;
}): void {
  const mine = options.elements.deprecations.filter((e) => e.version === options.version);
  for (const e of mine) {
    if (e.kind === 'field') annotateField(options.doc, e);
    else annotateParameter({ doc: options.doc, basePath: options.basePath, element: e, now: options.elements.now });
  }
}

/** The description sentence of a deprecated element: `Deprecated: use \`displayName\` instead. Sunset: ….` */
function deprecationSentence(e: ElementDeprecation): string {
  const instead = e.replacement === undefined ? 'Deprecated.' : `Deprecated: use \`${e.replacement}\` instead.`;
  return `${instead} Sunset: ${formatIsoInstant(e.sunsetAt)}.`;
}

function marked(target: JsonSchema, e: ElementDeprecation): JsonSchema {
  const note = deprecationSentence(e);
  const description = typeof target.description === 'string' ? `${target.description} ${note}` : note;
  return { ...target, deprecated: true, 'x-sunset': formatIsoInstant(e.sunsetAt), description };
}

function annotateField(doc: Record<string, unknown>, e: FieldElement): void {
  const schemas = (doc.components as { schemas?: Record<string, JsonSchema> } | undefined)?.schemas;
  if (!schemas) return;
  // Every schema of the document it reaches: the `fields` twin (`UserPartial`) documents the same member, deprecated there too.
  for (const name of fieldSchemas(e, schemas)) {
    const schema = schemas[name];
    const properties = schema?.properties;
    if (!schema || !isPlainObject(properties)) continue;
    const property = properties[e.field];
    if (!isPlainObject(property)) continue;
    schemas[name] = { ...schema, properties: { ...properties, [e.field]: marked(property, e) } };
  }
}

function annotateParameter(options: {
  doc: Record<string, unknown>;
  basePath: string;
  element: ParameterElement;
  now: number;
}): void {
  const { element: e } = options;
  const paths = options.doc.paths as Record<string, Record<string, unknown>> | undefined;
  const operation = paths?.[options.basePath + e.path]?.[e.method.toLowerCase()];
  if (!isPlainObject(operation) || !Array.isArray(operation.parameters)) return;
  const past = e.sunsetAt <= options.now;
  const parameters = (operation.parameters as unknown[]).flatMap((p) => {
    if (!isPlainObject(p) || p.in !== 'query' || p.name !== e.parameter) return [p];
    return past ? [] : [marked(p, e)];
  });
  paths![options.basePath + e.path]![e.method.toLowerCase()] = { ...operation, parameters };
}
