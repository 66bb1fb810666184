import { ErrorCode, VersionaryError } from '../errors/index.ts';
import { methodOfMember, operationMembers } from '../versions/openapi.ts';
import { FIXED_METHODS, type Side } from './diff-context.ts';
import type { DocumentSet } from './document-set.ts';
import { joinPointer, nodeAt, type DocNode } from './json-pointer.ts';
import { isObjectLike } from './schema-model.ts';

/** One operation of a document, after resolving its path item. */
export interface OperationEntry {
  /** `GET /users/{}`: method plus the path with parameter names blanked, so renames match. */
  key: string;
  method: string;
  path: string;
  pathItem: DocNode;
  operation: DocNode;
}

/** Check that a document set's root is an OpenAPI 3.x description; throws `SPEC_INVALID`. */
export function assertOpenApiDocument(set: DocumentSet): Record<string, unknown> {
  const doc = set.documents.get(set.root);
  const fail = (detail: string) =>
    new VersionaryError({ code: ErrorCode.SpecInvalid, detail: `${set.root}: ${detail}` });
  if (!isObjectLike(doc)) throw fail('the document is not a JSON/YAML object.');
  if (typeof doc.openapi !== 'string' || !/^3\.\d+/.test(doc.openapi)) {
    throw fail(`expected an OpenAPI 3.x document (an "openapi": "3.x.y" field), found ${describeNotOpenApi(doc)}.`);
  }
  if (doc.paths !== undefined && !isObjectLike(doc.paths)) throw fail('"paths" must be an object.');
  return doc;
}

// Says what is there instead, so a file that is not OpenAPI at all (a package.json) is named as such.
function describeNotOpenApi(doc: Record<string, unknown>): string {
  if (doc.swagger !== undefined) return 'Swagger 2.0';
  if (doc.openapi !== undefined) return `"openapi": ${JSON.stringify(doc.openapi)}`;
  const keys = Object.keys(doc);
  const shown =
    keys
      .slice(0, 5)
      .map((k) => JSON.stringify(k))
      .join(', ') + (keys.length > 5 ? ', …' : '');
  return `neither an "openapi" nor a "swagger" field, so it is not an OpenAPI or Swagger description (top-level keys: ${shown || 'none'})`;
}

/** Normalise a path template so `/users/{id}` and `/users/{userId}` are the same endpoint. */
function normalizePath(path: string): string {
  return path.replace(/\{[^}]*\}/g, '{}').replace(/\/+$/, '') || '/';
}

/** List the operations of a document in document order, keyed for matching. */
export function listOperations(side: Side): OperationEntry[] {
  const doc = assertOpenApiDocument(side.set);
  const paths = isObjectLike(doc.paths) ? doc.paths : {};
  const out: OperationEntry[] = [];
  for (const [path, raw] of Object.entries(paths)) {
    const item = side.resolver.resolve({ uri: side.set.root, pointer: joinPointer('/paths', path), value: raw });
    if (!isObjectLike(item.value)) continue;
    for (const { method, operation } of pathItemOperations(item)) {
      out.push({ key: `${method} ${normalizePath(path)}`, method, path, pathItem: item, operation });
    }
  }
  return out;
}

/**
 * The operations of a path item, by the method a client sends: the fixed fields (`get` … `query`,
 * upper-cased; a 3.1 document's `x-query` is QUERY unless a `query` member is there) and OpenAPI
 * 3.2's `additionalOperations` (spelled as sent: `PURGE`, `LINK`). An `additionalOperations` entry
 * for a fixed method is invalid (the lint reports it) and is left out, so it can never shadow or
 * double the fixed one.
 */
export function pathItemOperations(item: DocNode): Array<{ method: string; operation: DocNode }> {
  if (!isObjectLike(item.value)) return [];
  const out: Array<{ method: string; operation: DocNode }> = [];
  for (const [member, op] of Object.entries(item.value)) {
    if (!isOperationMember(item.value, member) || !isObjectLike(op)) continue;
    out.push({ method: methodOfMember(member), operation: nodeAt(item, op, member) });
  }
  const extra = item.value.additionalOperations;
  if (!isObjectLike(extra)) return out;
  for (const [method, op] of Object.entries(extra)) {
    if (FIXED_METHODS.has(method.toUpperCase()) || !isObjectLike(op)) continue;
    out.push({ method, operation: nodeAt(item, op, 'additionalOperations', method) });
  }
  return out;
}

/** Whether a member of a path item holds one of its fixed-field operations. */
function isOperationMember(item: Record<string, unknown>, member: string): boolean {
  return operationMembers.includes(member) && !(member === 'x-query' && 'query' in item);
}
