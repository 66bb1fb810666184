import { ErrorCode, VersionaryError } from '../errors/index.ts';
import type { DocumentSet } from './document-set.ts';
import { getAtPointer, safeDecode, type DocNode } from './json-pointer.ts';

/** A node reached after following zero or more `$ref`s. */
export interface ResolvedNode extends DocNode {
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
  resolve(node: DocNode): ResolvedNode;
}

/**
 * Build a resolver that follows `$ref` chains, inside one document or across documents.
 * A missing target or a ref loop throws `REF_BROKEN` naming the document and the place.
 */
export function createRefResolver(set: DocumentSet): RefResolver {
  const where = selfUris(set);
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
      if (node === undefined) byRef.set(ref, (node = located(followChain(set, where, start))));
      return node;
    },
  };
}

function followChain(set: DocumentSet, where: SelfUris, start: DocNode) {
  let current: DocNode = { uri: start.uri, pointer: start.pointer, value: start.value };
  const seen = new Set<string>();
  while (isRefObject(current.value)) {
    const from = `${current.uri}#${current.pointer}`;
    if (seen.has(from)) throw refError(`$ref loop at ${from}`);
    seen.add(from);
    current = follow(set, where, { uri: current.uri, ref: current.value.$ref, from });
  }
  return current;
}

function located(current: DocNode): ResolvedNode {
  const { uri, pointer, value } = current;
  const node: ResolvedNode = { uri, pointer, value, key: `${uri}#${pointer}` };
  const name = pointer.startsWith('/components/') ? COMPONENT.exec(pointer)?.[1] : undefined;
  if (name !== undefined) node.name = name.replaceAll('~1', '/').replaceAll('~0', '~');
  return node;
}

const COMPONENT = /^\/components\/[^/]+\/([^/]+)$/;

function isRefObject(value: unknown): value is { $ref: string } {
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

function follow(set: DocumentSet, where: SelfUris, at: { uri: string; ref: string; from: string }) {
  const { ref, from } = at;
  const base = where.baseOf.get(at.uri) ?? at.uri;
  const { uri: target, pointer } = resolveRefUri(ref, base);
  const uri = set.documents.has(target) ? target : (where.byself.get(target) ?? localTarget(target, base, at.uri));
  const doc = set.documents.get(uri);
  if (doc === undefined) throw refError(`$ref "${ref}" at ${from} points to ${target}, which is not loaded`);
  const value = pointer === '' ? doc : getAtPointer(doc, pointer);
  if (value === undefined)
    throw refError(`$ref "${ref}" at ${from} points to ${pointer} in ${uri}, which does not exist`);
  return { uri, pointer: safeDecode(pointer), value };
}

/** The `$self` URIs of a set's documents (OpenAPI 3.2), both ways: document to base, base to document. */
interface SelfUris {
  baseOf: Map<string, string>;
  byself: Map<string, string>;
}

function selfUris(set: DocumentSet): SelfUris {
  const out: SelfUris = { baseOf: new Map(), byself: new Map() };
  for (const [uri, doc] of set.documents) {
    const base = baseUriOf(doc, uri);
    if (base === uri) continue;
    out.baseOf.set(uri, base);
    out.byself.set(base, uri);
  }
  return out;
}

/**
 * The URI a document's `$ref`s resolve against: its `$self` (OpenAPI 3.2: "MUST use the target
 * document's `$self` URI if the `$self` field is present"), itself resolved against where the
 * document was read, else where it was read.
 */
export function baseUriOf(doc: unknown, uri: string): string {
  const self = typeof doc === 'object' && doc !== null ? (doc as { $self?: unknown }).$self : undefined;
  if (typeof self !== 'string') return uri;
  try {
    const url = new URL(self, uri);
    url.hash = '';
    return url.href;
  } catch {
    return uri;
  }
}

/**
 * Where a target named against a `$self` base is read from when no loaded document claims it: a
 * target under the `$self` folder is read from the same place under the folder the document was
 * read from (`https://api.example.com/v2/openapi.yaml` read from `file:///repo/spec/openapi.yaml`
 * finds `https://api.example.com/v2/schemas.yaml` at `file:///repo/spec/schemas.yaml`).
 */
export function localTarget(target: string, base: string, uri: string): string {
  if (base === uri) return target;
  try {
    const folder = new URL('.', base).href;
    return target.startsWith(folder) ? new URL(target.slice(folder.length), new URL('.', uri)).href : target;
  } catch {
    // A `$self` without folders (`urn:uuid:…`) maps nothing: its targets are found by `$self` alone.
    return target;
  }
}

function refError(detail: string): VersionaryError {
  return new VersionaryError({ code: ErrorCode.RefBroken, detail: `Broken $ref: ${detail}.` });
}
