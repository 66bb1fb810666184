import type { IncomingMessage } from 'node:http';
import { parseAccept } from '../core/negotiation/index.ts';
import { createApiScope } from './api-scope.ts';
import type { VersionBundle } from '../core/versions/index.ts';

const kFromAccept = Symbol.for('versionary.versionFromAccept');
const kUnversioned = Symbol.for('versionary.unversioned');

type MarkedRequest = IncomingMessage & { [kFromAccept]?: boolean; [kUnversioned]?: boolean };

/** Options for {@link createVersionRewriter}. */
export interface VersionRewriterOptions {
  bundle: VersionBundle;
  /** Where the API lives, for example `/api`. */
  prefix: string;
  vendor: string;
  /** Segments under the prefix that are not resources of any version, such as `versions`. */
  reserved?: string[];
}

/**
 * Build Fastify's `rewriteUrl`: a request to `/api/users` whose `Accept` names a version is routed
 * as `/api/v<n>/users`, so each version's routes, schemas and hooks serve it unchanged. Requests
 * it cannot place keep their URL and the not-found handler explains why.
 */
export function createVersionRewriter(options: VersionRewriterOptions): (req: IncomingMessage) => string {
  const scope = createApiScope(options.prefix);
  const base = `${options.prefix}/`;
  const reserved = new Set(options.reserved ?? []);
  return (req) => {
    const url = req.url ?? '/';
    if (!url.startsWith(base) || scope.versionOf(url)) return url;
    const rest = url.slice(base.length);
    const segment = /^[^/?#]*/.exec(rest)?.[0] ?? '';
    if (reserved.has(segment)) return url;
    const marked = req as MarkedRequest;
    marked[kUnversioned] = true;
    const info = parseAccept(headerOf(req.headers.accept), { vendor: options.vendor });
    const [version] = info.versions;
    if (info.versions.length !== 1 || info.malformed.length > 0 || !options.bundle.byNumber(version!)) return url;
    marked[kFromAccept] = true;
    return `${base}v${version}/${rest}`;
  };
}

/** Whether a request reached its version through `Accept` (it then varies by `Accept`). */
export function isVersionFromAccept(req: IncomingMessage): boolean {
  return (req as MarkedRequest)[kFromAccept] === true;
}

/** Whether a request addressed the API without a version in its path. */
export function isUnversioned(req: IncomingMessage): boolean {
  return (req as MarkedRequest)[kUnversioned] === true;
}

function headerOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
