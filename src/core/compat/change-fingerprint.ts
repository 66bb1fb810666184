import { parsePointer } from './json-pointer.ts';
import type { Change } from './types.ts';

/**
 * A path without what only names the API and its version: everything up to and including the
 * first version segment (`v2`, `v1.1`, `2024-10-01`). `/api/v2/users/{id}` and `/v1/users/{id}`
 * both give `/users/{id}`; a path without a version segment is kept as written.
 */
function withoutVersionPrefix(path: string): string {
  const segments = path.split('/');
  const at = segments.findIndex((s) => /^v\d+(?:\.\d+)*$/i.test(s) || /^\d{4}-\d{2}-\d{2}$/.test(s));
  return at < 0 ? path : `/${segments.slice(at + 1).join('/')}`;
}

/**
 * The operations a change reaches, `METHOD /path` as the document writes them: the operation it
 * sits in, else every operation that reaches the component it sits in (an empty list when none is
 * known, as for a change to the document as a whole).
 *
 * @example
 * ```ts
 * operationsReached(change); // ['GET /api/v2/users/{id}', 'PUT /api/v2/users/{id}']
 * ```
 */
export function operationsReached(change: Change): string[] {
  const { method, path, operations, via } = change.location;
  if (method !== undefined && path !== undefined) return [`${method} ${path}`];
  return operations ?? (via === undefined ? [] : [via]);
}

/**
 * A short, stable name for a change (16 hex digits), for approvals and waivers: the same change
 * gets the same fingerprint on every run and commit. It hashes the rule, the place (the JSON
 * pointer, with the path's prefix and version segment removed and array positions dropped, so
 * `/api/v1` and `/api/v2` documents agree and an unrelated parameter added before it moves
 * nothing) and the old and new values when they are plain values (a type, a field name). The
 * operations a shared schema reaches are left out: another operation starting to use the schema
 * is not a different change.
 *
 * @example
 * ```ts
 * const waived = new Set(waivers.map((w) => w.fingerprint));
 * const open = diffOpenApi({ base, revision }).changes.filter((c) => !waived.has(fingerprintOf(c)));
 * ```
 */
export function fingerprintOf(change: Change): string {
  const { pointer, document } = change.location;
  const tokens = parsePointer(pointer)
    .map((token, i, all) => (i === 1 && all[0] === 'paths' ? withoutVersionPrefix(token) : token))
    .filter((token) => !/^\d+$/.test(token));
  const file = document === undefined ? '' : (document.split(/[\\/]/).at(-1) ?? '');
  const parts = [change.id, file, ...tokens, plain(change.oldValue), plain(change.newValue)];
  return fnv1a64(parts.join('\u0000'));
}

/** A value as text when it is a plain value (or a list of them); anything bigger is left out. */
function plain(value: unknown): string {
  const isPlain = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  if (isPlain(value)) return JSON.stringify(value);
  if (Array.isArray(value) && value.every(isPlain)) return JSON.stringify(value);
  return '';
}

/** 64-bit FNV-1a over UTF-8, as 16 hex digits: core hashes without node:crypto, and needs no secrecy. */
function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}
