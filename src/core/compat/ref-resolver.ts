import { ErrorCode, VersionaryError } from '../errors/index.ts';
import type { DocumentSet } from './document-set.ts';
import { getAtPointer } from './json-pointer.ts';

/** A node reached after following zero or more `$ref`s. */
export interface ResolvedNode {
  /** Absolute URI of the document holding the node. */
  uri: string;
  /** JSON pointer of the node inside that document ('' for the root). */
  pointer: string;
  value: unknown;
  /** `uri#pointer`: identifies the node across the whole set. */
  key: string;
  /** Component name when the node is `#/components/<kind>/<name>`. */
  name?: string;
  /** Set when a nullable wrapper around this schema was peeled off (see `resolveSchema`). */
  nullable?: boolean;
  /** Where the peeled nullable wrapper sits: the place to report its nullability. */
  site?: { uri: string; pointer: string };
}

/** Follows `$ref`s over a {@link DocumentSet}. */
export interface RefResolver {
  /** Follow `$ref` chains from `value` found at `uri#pointer`. */
  resolve(node: { uri: string; pointer: string; value: unknown }): ResolvedNode;
}

/**
 * Build a resolver that follows `$ref` chains, inside one document or across documents.
 * A missing target or a ref loop throws `REF_BROKEN` naming the document and the place.
 */
export function createRefResolver(set: DocumentSet): RefResolver {
  // Where a `$ref` leads depends only on the document holding it and the ref as written, and big
  // descriptions write the same ref in thousands of places (Stripe: `#/components/schemas/customer`),
  // so each is followed once. The cached nodes are shared: callers copy before they change one.
  const followed = new Map<string, Map<string, ResolvedNode>>();
  return {
    resolve(start) {
      if (!isRefObject(start.value)) return located(start);
      let byRef = followed.get(start.uri);
      if (byRef === undefined) followed.set(start.uri, (byRef = new Map()));
      const ref = start.value.$ref;
      let node = byRef.get(ref);
      if (node === undefined) byRef.set(ref, (node = located(followChain(set, start))));
      return node;
    },
  };
}

function followChain(set: DocumentSet, start: { uri: string; pointer: string; value: unknown }) {
  let current = { uri: start.uri, pointer: start.pointer, value: start.value };
  const seen = new Set<string>();
  while (isRefObject(current.value)) {
    const from = `${current.uri}#${current.pointer}`;
    if (seen.has(from)) throw refError(`$ref loop at ${from}`);
    seen.add(from);
    current = follow(set, { baseUri: current.uri, ref: current.value.$ref, from });
  }
  return current;
}

function located(current: { uri: string; pointer: string; value: unknown }): ResolvedNode {
  const key = `${current.uri}#${current.pointer}`;
  const match = current.pointer.startsWith('/components/') ? COMPONENT.exec(current.pointer) : null;
  return match?.[1] === undefined
    ? { uri: current.uri, pointer: current.pointer, value: current.value, key }
    : {
        uri: current.uri,
        pointer: current.pointer,
        value: current.value,
        key,
        name: match[1].replaceAll('~1', '/').replaceAll('~0', '~'),
      };
}

const COMPONENT = /^\/components\/[^/]+\/([^/]+)$/;

/** Tell whether a node is a Reference Object. */
export function isRefObject(value: unknown): value is { $ref: string } {
  return typeof value === 'object' && value !== null && typeof (value as { $ref?: unknown }).$ref === 'string';
}

/** Resolve a `$ref` string against the URI of the document that holds it. */
export function resolveRefUri(ref: string, baseUri: string): { uri: string; pointer: string } {
  const hash = ref.indexOf('#');
  const filePart = hash === -1 ? ref : ref.slice(0, hash);
  const pointer = hash === -1 ? '' : ref.slice(hash + 1);
  if (filePart === '') return { uri: baseUri, pointer };
  try {
    return { uri: new URL(filePart, baseUri).href, pointer };
  } catch {
    throw refError(`cannot resolve "${ref}" against ${baseUri}`);
  }
}

function follow(set: DocumentSet, at: { baseUri: string; ref: string; from: string }) {
  const { baseUri, ref, from } = at;
  const { uri, pointer } = resolveRefUri(ref, baseUri);
  const doc = set.documents.get(uri);
  if (doc === undefined) throw refError(`$ref "${ref}" at ${from} points to ${uri}, which is not loaded`);
  const value = pointer === '' ? doc : getAtPointer(doc, pointer);
  if (value === undefined)
    throw refError(`$ref "${ref}" at ${from} points to ${pointer} in ${uri}, which does not exist`);
  return { uri, pointer: decodePointer(pointer), value };
}

function decodePointer(pointer: string): string {
  try {
    return decodeURIComponent(pointer);
  } catch {
    return pointer;
  }
}

function refError(detail: string): VersionaryError {
  return new VersionaryError({ code: ErrorCode.RefBroken, detail: `Broken $ref: ${detail}.` });
}
