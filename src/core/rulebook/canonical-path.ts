import { ErrorCode, VersionaryError } from '../errors/index.ts';

/**
 * Why a request target is refused, each with the words its problem uses. The keys are the
 * decision table's problem keys (`target-<reason>`), checked in this order.
 */
export const targetRefusals = {
  'not-a-path': 'a target that is neither a path nor an absolute http URL',
  backslash: 'a backslash',
  'empty-segment': 'an empty segment ("//")',
  semicolon: 'a ";" (a matrix parameter)',
  'bad-escape': 'a "%" that is not followed by two hexadecimal digits',
  'encoded-separator': 'an encoded "/" or "\\" (%2F, %5C)',
  'encoded-control': 'an encoded control character',
  'dot-segment': 'a "." or ".." segment (plain or percent-encoded)',
} as const;

/** A reason of {@link targetRefusals}. */
export type TargetRefusal = keyof typeof targetRefusals;

/**
 * The target without the scheme and authority of an absolute-form target (`GET http://h/x
 * HTTP/1.1`, which a server must accept, RFC 9112 §3.2.2): what the router matches and what is
 * forwarded. Any other target is returned as it is.
 */
export function originFormOf(url: string): string {
  // An origin-form target (nearly every one) has no scheme to strip.
  if (url.charCodeAt(0) === 47) return url;
  const origin = /^https?:\/\/[^/?#]*/i.exec(url);
  if (!origin) return url;
  const rest = url.slice(origin[0].length);
  return rest[0] === '/' ? rest : `/${rest}`;
}

/**
 * Why a request target is refused, or `undefined` when it has one meaning only. The router
 * matches the raw target, and whatever sits behind it (the gateway's upstream, a framework, a
 * WSGI server, WHATWG `new URL()`, nginx's `$uri`) may read the same bytes differently: `\` as
 * `/`, `%2e%2e` as `..`, `;x=1` as a matrix parameter, `//` as one slash. A target any of them
 * could read as another path is refused rather than normalised, so that what is routed, judged
 * and forwarded is one and the same path.
 */
export function targetRefusalOf(url: string): TargetRefusal | undefined {
  const target = originFormOf(url);
  if (target[0] !== '/') return 'not-a-path';
  // Most targets, query included, hold none of the characters below: one scan of the whole target
  // answers them, with no search for the query and no copy of the path (this runs on every request).
  if (!/[\\;%]|\/\/|\/\./.test(target)) return undefined;
  const path = pathOf(target);
  if (!/[\\;%]|\/\/|\/\./.test(path)) return undefined;
  if (path.includes('\\')) return 'backslash';
  if (path.includes('//')) return 'empty-segment';
  if (path.includes(';')) return 'semicolon';
  for (let at = path.indexOf('%'); at !== -1; at = path.indexOf('%', at + 1)) {
    const hex = path.slice(at + 1, at + 3);
    if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return 'bad-escape';
    const code = Number.parseInt(hex, 16);
    if (code === 0x2f || code === 0x5c) return 'encoded-separator';
    if (code < 0x20 || code === 0x7f) return 'encoded-control';
  }
  for (const segment of path.split('/')) {
    const plain = segment.replace(/%2e/gi, '.');
    if (plain === '.' || plain === '..') return 'dot-segment';
  }
  return undefined;
}

/**
 * Whether a request target holds a byte no target may hold (RFC 9112 §3.2, RFC 3986): a control,
 * a space, DEL or a raw non-ASCII byte (`/users\xC0\xAF1`), which each server reads its own way.
 * Node's HTTP parser refuses such a target before any route sees it; a data plane that accepts it
 * (nginx) refuses it with {@link unreadableTargetProblem}, the same 400. The parity cases' reference.
 *
 * @internal
 */
export function targetUnreadable(target: string): boolean {
  return /[^\x21-\x7e]/.test(target);
}

/** The problem of an unreadable target (see {@link targetUnreadable}): 400 `MALFORMED_REQUEST`. */
export function unreadableTargetProblem(): VersionaryError {
  return new VersionaryError({ code: ErrorCode.MalformedRequest, detail: 'The request target is not a valid URL.' });
}

/**
 * Whether a target (its query included) is not percent-encoded UTF-8: a stray `%` or a Latin-1
 * escape such as `%E9`, which no two upstream frameworks decode alike. What a forwarding data plane
 * refuses, with {@link undecodableTargetProblem}, instead of passing it on.
 */
export function targetUndecodable(target: string): boolean {
  if (!target.includes('%')) return false;
  try {
    decodeURIComponent(target);
    return false;
  } catch {
    return true;
  }
}

/** The problem of an undecodable target (see {@link targetUndecodable}): 400 `MALFORMED_REQUEST`. */
export function undecodableTargetProblem(): VersionaryError {
  return new VersionaryError({
    code: ErrorCode.MalformedRequest,
    detail: 'The request target is not valid percent-encoded UTF-8.',
  });
}

/** The problem of a refused target: 404, the spec's "invalid ID or URI". */
export function targetProblem(reason: TargetRefusal): VersionaryError {
  return new VersionaryError({
    code: ErrorCode.NotFound,
    detail: `The request path holds ${targetRefusals[reason]}, which servers read differently: send the canonical path.`,
  });
}

/**
 * The canonical path of a request target: the strict check first (see {@link targetRefusalOf}),
 * then the path decoded once, so `/api/v2/%65cho` is judged as `/api/v2/echo`, as the router
 * matches it, and without a trailing slash, which the router ignores. The query is left out.
 */
export function canonicalPath(target: string): { path: string } | { refused: TargetRefusal } {
  const refused = targetRefusalOf(target);
  if (refused) return { refused };
  let path = pathOf(originFormOf(target));
  // The routers ignore one trailing slash (`ignoreTrailingSlash`): `/users/` is `/users`.
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  if (!path.includes('%')) return { path };
  try {
    return { path: decodeURIComponent(path) };
  } catch {
    // Well-formed escapes that are not UTF-8 (`%ff`): no route has such a name.
    return { refused: 'bad-escape' };
  }
}

function pathOf(target: string): string {
  const end = target.search(/[?#]/);
  return end === -1 ? target : target.slice(0, end);
}
