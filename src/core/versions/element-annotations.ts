import type { ElementDeprecation, FieldElement, ParameterElement } from '../lifecycle/element-deprecation.ts';
import { fieldSchemas } from '../lifecycle/element-schemas.ts';
import { formatIsoInstant } from '../time/index.ts';
import { deprecationMembers } from './generator-extensions.ts';
import { isPlainObject } from './schema-walk.ts';
import type { JsonSchema } from './types.ts';

/** What {@link annotateElements} needs: the deprecated elements and the instant to judge sunsets at. */
export interface ElementDocumentation {
  /** Every element deprecation; only the document's own version's are used. */
  deprecations: readonly ElementDeprecation[];
  /** Now, from the caller's clock: a parameter past its sunset is left out. */
  now: number;
  /** The migration guide of an element that names none of its own (its version's), quoted in the generators' messages. */
  guideOf?: (element: ElementDeprecation) => string | undefined;
}

/** A freshly generated document of `version`, its paths below `basePath`, and its deprecated elements. */
interface Annotated {
  doc: Record<string, unknown>;
  version: string;
  basePath: string;
  elements: ElementDocumentation;
}

/**
 * Mark a version's deprecated fields and query parameters in its freshly generated document
 * ({@link deprecationMembers}, and a sentence in the description, which openapi-typescript prints
 * under `@deprecated`). A field stays documented after its sunset (vN's responses keep it); a
 * parameter past its sunset is left out, since requests sending it are refused.
 */
export function annotateElements(options: Annotated): void {
  const mine = options.elements.deprecations.filter((e) => e.version === options.version);
  for (const e of mine) {
    const guide = e.migrationUrl ?? options.elements.guideOf?.(e);
    const { deprecatedAt, sunsetAt, replacement } = e;
    const members = deprecationMembers({ deprecatedAt, sunsetAt, replacement, guide });
    if (e.kind === 'field') annotateField(options.doc, e, members);
    else annotateParameter(options, e, members);
  }
}

/** The description sentence of a deprecated element: `Deprecated: use \`displayName\` instead. Sunset: ….` */
function deprecationSentence(e: ElementDeprecation): string {
  const instead = e.replacement === undefined ? 'Deprecated.' : `Deprecated: use \`${e.replacement}\` instead.`;
  return `${instead} Sunset: ${formatIsoInstant(e.sunsetAt)}.`;
}

function marked(target: JsonSchema, e: ElementDeprecation, members: Record<string, unknown>): JsonSchema {
  const note = deprecationSentence(e);
  const description = typeof target.description === 'string' ? `${target.description} ${note}` : note;
  return { ...target, ...members, description };
}

function annotateField(doc: Record<string, unknown>, e: FieldElement, members: Record<string, unknown>): void {
  const schemas = (doc.components as { schemas?: Record<string, JsonSchema> } | undefined)?.schemas;
  if (!schemas) return;
  // Every schema of the document it reaches: the `fields` twin (`UserPartial`) documents the same member, deprecated there too.
  for (const name of fieldSchemas(e, schemas)) {
    const schema = schemas[name];
    const properties = schema?.properties;
    if (!schema || !isPlainObject(properties)) continue;
    const property = properties[e.field];
    if (!isPlainObject(property)) continue;
    schemas[name] = { ...schema, properties: { ...properties, [e.field]: marked(property, e, members) } };
  }
}

function annotateParameter(options: Annotated, e: ParameterElement, members: Record<string, unknown>): void {
  const item = (options.doc.paths as Record<string, Record<string, unknown>> | undefined)?.[options.basePath + e.path];
  const operation = item?.[e.method.toLowerCase()];
  if (!isPlainObject(operation) || !Array.isArray(operation.parameters)) return;
  const past = e.sunsetAt <= options.elements.now;
  const parameters = (operation.parameters as unknown[]).flatMap((p) => {
    if (!isPlainObject(p) || p.in !== 'query' || p.name !== e.parameter) return [p];
    return past ? [] : [marked(p, e, members)];
  });
  item![e.method.toLowerCase()] = { ...operation, parameters };
}
