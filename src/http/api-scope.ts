type ApiRoute = NonNullable<ReturnType<typeof splitRoute>>;

/** A version's OpenAPI document, below the version: `<prefix>/<version>/openapi.json`. */
export const versionDocumentPath = '/openapi.json';

/** Where the API lives, in one place: an app under `/public` is gated and counted as one under `/api`. */
export interface ApiScope {
  readonly prefix: string;
  readonly management: string;
  /** A path (raw, or a route pattern) at or under the API prefix. A query or fragment may follow. */
  isApi(path: string): boolean;
  isManagement(path: string): boolean;
  /** The version a path under the prefix names (`v2` for `/api/v2/users/1?x`), else `undefined`. */
  versionOf(path: string): string | undefined;
  /** A route pattern under a version, split once and remembered (patterns are few and fixed). */
  routeOf(pattern: string): ApiRoute | undefined;
}

/** The scope of an API under `prefix` (and its management API under `/admin`), one object per prefix. */
export function createApiScope(prefix: string, options: { management?: string } = {}): ApiScope {
  const management = options.management ?? '/admin';
  const key = `${prefix} ${management}`;
  let scope = scopes.get(key);
  if (!scope) scopes.set(key, (scope = buildScope(prefix, management)));
  return scope;
}

const scopes = new Map<string, ApiScope>();

function buildScope(prefix: string, management: string): ApiScope {
  const routes = new Map<string, ApiRoute | null>();
  const versionOf = (path: string) => {
    const rest = under(path, prefix);
    if (rest === undefined || rest[0] !== '/') return undefined;
    let end = 1;
    while (end < rest.length && !isBoundary(rest.charCodeAt(end))) end++;
    const segment = rest.slice(1, end);
    return isVersionSegment(segment) ? segment : undefined;
  };
  return {
    prefix,
    management,
    isApi: (path) => under(path, prefix) !== undefined,
    isManagement: (path) => under(path, management) !== undefined,
    versionOf,
    routeOf(pattern) {
      let known = routes.get(pattern);
      if (known === undefined) routes.set(pattern, (known = splitRoute(pattern, prefix, versionOf(pattern)) ?? null));
      return known ?? undefined;
    },
  };
}

function under(path: string, base: string): string | undefined {
  if (!path.startsWith(base)) return undefined;
  const rest = path.slice(base.length);
  return rest === '' || isBoundary(rest.charCodeAt(0)) ? rest : undefined;
}

// `/`, `?` and `#` end a segment.
const isBoundary = (code: number) => code === 47 || code === 63 || code === 35;

function isVersionSegment(segment: string): boolean {
  if (segment.length < 2 || segment[0] !== 'v') return false;
  for (let i = 1; i < segment.length; i++) {
    const code = segment.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** `path` as the router spells it (`/users/:id`), `template` as OpenAPI does: the lifecycle's key. */
function splitRoute(pattern: string, prefix: string, version: string | undefined) {
  if (!version) return undefined;
  const path = pattern.slice(prefix.length + 1 + version.length) || '/';
  const template = path.replace(/:([^/]+)/g, '{$1}');
  return { version, path, template, isDocument: path === versionDocumentPath };
}
