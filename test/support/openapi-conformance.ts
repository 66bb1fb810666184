import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';

/** The parts of an OpenAPI document the checker reads. */
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: {
    schemas?: Record<string, unknown>;
    parameters?: Record<string, unknown>;
    headers?: Record<string, { required?: boolean; schema: unknown }>;
  };
}
/** One operation of an OpenAPI document. */
export interface OpenApiOperation {
  operationId: string;
  parameters?: Array<Record<string, unknown>>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, OpenApiResponse>;
}
interface OpenApiResponse {
  description: string;
  content?: Record<string, { schema: unknown }>;
  headers?: Record<string, { required?: boolean; schema: unknown; $ref?: string }>;
}

// Headers the service's own layers set: a response that carries one must document it.
const serviceHeaders = [
  'etag',
  'location',
  'link',
  'deprecation',
  'sunset',
  'warning',
  'ratelimit',
  'ratelimit-policy',
  'retry-after',
  'idempotent-replayed',
  'www-authenticate',
  'api-supported-versions',
  'api-deprecated-versions',
];
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/**
 * Check live responses against an OpenAPI document with ajv: the status must be documented, the
 * body must match its media type's schema (or be empty when none is documented), required
 * headers must be present, present ones must match their schema, and every header the service's
 * layers set must be documented on that response.
 */
export function createConformanceChecker(): {
  check(options: {
    doc: OpenApiDocument;
    method: string;
    path: string;
    res: Pick<LightMyRequestResponse, 'statusCode' | 'headers' | 'body'>;
  }): string[];
} {
  const validators = new Map<string, ValidateFunction>();
  let documents = 0;
  const registered = new Map<string, string>();
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, validateFormats: true }));

  const validatorFor = (doc: OpenApiDocument, schema: unknown): ValidateFunction => {
    const text = JSON.stringify(doc.components?.schemas ?? {});
    let id = registered.get(text);
    if (!id) {
      id = `doc${++documents}`;
      registered.set(text, id);
      ajv.addSchema({ $id: id, $defs: rewrite(doc.components?.schemas ?? {}, id) });
    }
    const key = `${id} ${JSON.stringify(schema)}`;
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile(rewrite(schema, id) as object);
      validators.set(key, validate);
    }
    return validate;
  };

  return {
    check({ doc, method, path, res }) {
      const where = `${method} ${path} → ${res.statusCode}`;
      const operation = doc.paths[path]?.[method.toLowerCase()];
      if (!operation) return [`${method} ${path} is not an operation of the document`];
      const response = operation.responses[String(res.statusCode)];
      if (!response)
        return [
          `${where}: status not documented (${Object.keys(operation.responses).join(', ')}); body ${res.body.slice(0, 300)}`,
        ];
      const problems: string[] = [];
      const type = String(res.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim();
      if (response.content) {
        const media = response.content[type];
        if (!media)
          problems.push(
            `${where}: content-type "${type}" not documented (${Object.keys(response.content).join(', ')})`,
          );
        else {
          const validate = validatorFor(doc, media.schema);
          const body: unknown = JSON.parse(res.body);
          if (!validate(body))
            problems.push(
              `${where}: body does not match the schema: ${ajv.errorsText(validate.errors)}; body ${res.body.slice(0, 300)}`,
            );
          // A problem's extension members are allowed by RFC 9457, but one a generated type cannot
          // read is of no use to a client: every member sent must be a listed property.
          if (type === 'application/problem+json')
            for (const member of undeclaredMembers(doc, media.schema, body))
              problems.push(`${where}: problem member "${member}" is sent but not in the schema`);
        }
      } else if (res.body !== '') problems.push(`${where}: a body where none is documented: ${res.body.slice(0, 200)}`);
      const resolve = (header: { required?: boolean; schema: unknown; $ref?: string }) =>
        header.$ref ? doc.components?.headers?.[header.$ref.split('/').pop()!] : header;
      const documented = new Map(
        Object.entries(response.headers ?? {}).map(([name, header]) => [name.toLowerCase(), resolve(header)]),
      );
      for (const [name, header] of documented) {
        if (!header) {
          problems.push(`${where}: header ${name} refers to no definition`);
          continue;
        }
        const value = res.headers[name];
        if (value === undefined) {
          if (header.required) problems.push(`${where}: required header ${name} missing`);
          continue;
        }
        const validate = validatorFor(doc, header.schema);
        if (!validate(String(value)))
          problems.push(
            `${where}: header ${name}: ${String(value)} does not match: ${ajv.errorsText(validate.errors)}`,
          );
      }
      for (const name of serviceHeaders) {
        if (res.headers[name] !== undefined && !documented.has(name))
          problems.push(`${where}: header ${name} is sent but not documented`);
      }
      return problems;
    },
  };
}

function undeclaredMembers(doc: OpenApiDocument, schema: unknown, body: unknown): string[] {
  const ref = (schema as { $ref?: string }).$ref;
  const resolved = ref ? doc.components?.schemas?.[ref.split('/').pop()!] : schema;
  const properties = (resolved as { properties?: Record<string, unknown> } | undefined)?.properties;
  if (!properties || typeof body !== 'object' || body === null) return [];
  return Object.keys(body).filter((member) => !(member in properties));
}

function rewrite(value: unknown, id: string): unknown {
  if (Array.isArray(value)) return value.map((v) => rewrite(v, id));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [
      key,
      key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')
        ? `${id}#/$defs/${child.slice('#/components/schemas/'.length)}`
        : rewrite(child, id),
    ]),
  );
}
