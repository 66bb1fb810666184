import type { FastifyRequest } from 'fastify';
import { handlerOptionProblems } from '../handler-coverage.ts';
import type { Clock } from '../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import {
  checkLifecycleConfigShape,
  type LifecycleConfig,
  type LifecycleSource,
  type LifecycleVerdict,
} from '../../core/lifecycle/index.ts';
import type { ApiVersion, ElementDocumentation, OpenApiVersion, VersionBundle } from '../../core/versions/index.ts';
import type { OperationHandler } from '../operation-types.ts';
import type { ForwardOptions } from '../forward-options.ts';
import type { VersionedRequestHook } from '../versioned-api-options.ts';
import { pluginOptionsValidator } from './options-schema.ts';

/** One call to a deprecated (or removed) version or endpoint, handed to `onUsage`. */
export interface UsageEvent {
  version: string;
  /** Method and route template, e.g. `GET /books/{id}`. */
  endpoint: string;
  clientId: string;
  at: number;
  /** Set when the call used a deprecated field or query parameter: its name (`Book.isbn10`, `GET /books?order`). */
  element?: string;
}

/** One call that reached an operation of a version, deprecated or not, handed to `onCall`. */
export interface CallEvent {
  version: string;
  /** Method and route template without the prefix and version, e.g. `GET /books/{id}`. */
  endpoint: string;
  /** From `clientIdOf`. */
  clientId: string;
  at: number;
}

/**
 * Options of the `versionary` Fastify plugin. Checked when the plugin registers: every problem is
 * listed in one error (`INVALID_DEFINITION` when only the bundle or handlers are wrong, else
 * `INVALID_CONFIG`), so a bad setup fails at start, never on a request.
 *
 * @example
 * ```ts
 * const options: VersionaryPluginOptions = { bundle, handlers, vendor: 'acme', lifecycle: { versions: { v1: { deprecatedAt: '2026-06-01', sunsetAt: '2027-06-01', migrationUrl: '/docs/v2' } } } };
 * ```
 */
export interface VersionaryPluginOptions {
  /** The versions, from `defineVersions`. */
  bundle: VersionBundle;
  /** One handler per operation id of the head, written against the newest representation. */
  handlers?: Record<string, OperationHandler>;
  /** Instead of `handlers`: forward each version to its own upstream (`versionary gateway`). */
  forward?: ForwardOptions;
  /** The media-type vendor: `Accept: application/vnd.<vendor>+json; version=2`. */
  vendor: string;
  /** Where the API lives; defaults to `/api`. */
  prefix?: string;
  /** A plain lifecycle config (evaluated with the core rules) or a lifecycle source such as a storage-backed runtime. */
  lifecycle?: LifecycleConfig | LifecycleSource;
  /** Time for the lifecycle config; defaults to the system clock. */
  clock?: Clock;
  /** Told of every call to a deprecated or removed version or endpoint (usage monitoring). */
  onUsage?: (call: UsageEvent, request: FastifyRequest) => void;
  /** Told once of every call that reached an operation, before `onUsage`: keep it cheap. */
  onCall?: (call: CallEvent, request: FastifyRequest) => void;
  /** Who is calling, for `onUsage`, `onCall` and handlers; defaults to the remote address. */
  clientIdOf?: (request: FastifyRequest) => string;
  /**
   * The client extended access and closings to new clients are judged for; `undefined` for an
   * unauthenticated call. Defaults to `clientIdOf`.
   *
   * @example
   * ```ts
   * await app.register(versionary, { bundle, handlers, lifecycle, clientOf: (request) => request.user?.clientId });
   * ```
   */
  clientOf?: (request: FastifyRequest) => string | undefined;
  /**
   * Serve each version's OpenAPI document at `<prefix>/<version>/openapi.json` (`false`: none);
   * `document` builds it instead, per request; `openapiVersion` `'3.2'` writes QUERY under `query`.
   */
  openapi?: { title: string; document?: OpenApiDocumentBuilder; openapiVersion?: OpenApiVersion } | false;
  /** Serve the lifecycle document at `<prefix>/versions` (default true). */
  versionsDocument?: boolean;
  /** Make every error an RFC 9457 problem and explain unknown and removed versions (default true). */
  problems?: boolean;
  /** With `problems`, answer the paths under the prefix with no route as problems too (default true). */
  notFound?: boolean;
  /** Send the version list headers on every response (default true), or with `'api'` under the prefix only. */
  versionListHeaders?: boolean | 'api';
  /** More steps that run once the version of a request is known, after the lifecycle's. */
  onVersionedRequest?: VersionedRequestHook[];
  /** Check every response body against its version's schema (default true); one that breaks it is a 500. */
  validateResponses?: boolean;
}

/** What an {@link VersionaryPluginOptions.openapi} `document` builder is given. */
export interface OpenApiDocumentInput {
  version: ApiVersion;
  title: string;
  /** `<prefix>/<version>`. */
  basePath: string;
  /** The lifecycle's verdict on one operation of this version. */
  verdict(operation: { method: string; path: string }): LifecycleVerdict;
  /** The OpenAPI version asked for (`3.1` unless the plugin's `openapi.openapiVersion` says otherwise). */
  openapiVersion: OpenApiVersion;
  /** Deprecated fields and parameters, when any: pass it on as `toOpenApiDocument`'s `elements`. */
  elements?: ElementDocumentation;
}

/**
 * Builds a version's OpenAPI document for the plugin to serve.
 *
 * @example
 * ```ts
 * const document: OpenApiDocumentBuilder = ({ version, title, basePath }) => toOpenApiDocument({ version, title, basePath });
 * ```
 */
export type OpenApiDocumentBuilder = (input: OpenApiDocumentInput) => Record<string, unknown>;

export type ResolvedPluginOptions = ReturnType<typeof resolvePluginOptions>;

/**
 * Whether a lifecycle option is a source (it answers verdicts) rather than a plain config.
 *
 * @example
 * ```ts
 * isLifecycleSource(runtime); // true
 * ```
 */
export function isLifecycleSource(value: unknown): value is LifecycleSource {
  return typeof value === 'object' && value !== null && typeof (value as { verdict?: unknown }).verdict === 'function';
}

/** Check the plugin options and apply defaults, throwing one error that lists every problem. */
export function resolvePluginOptions(options: VersionaryPluginOptions) {
  const errors: string[] = [];
  const raw = (options ?? {}) as unknown as Record<string, unknown>;
  const bundle = raw.bundle as VersionBundle | undefined;
  const bundleOk =
    typeof bundle === 'object' && bundle !== null && Array.isArray(bundle.versions) && typeof bundle.get === 'function';
  if (!bundleOk) errors.push('bundle must be a version bundle from defineVersions()');
  const names = bundleOk ? bundle.versions.map((v) => v.name) : [];
  const forward = raw.forward as ForwardOptions | undefined;
  const handlers = (forward !== undefined && raw.handlers === undefined ? {} : raw.handlers) as
    Record<string, unknown> | undefined;
  if (forward !== undefined) errors.push(...checkForward({ forward, names, hasHandlers: raw.handlers !== undefined }));
  else if (typeof handlers !== 'object' || handlers === null)
    errors.push('handlers must be an object of functions keyed by operation id');
  else if (bundleOk) errors.push(...handlerOptionProblems(bundle.head, handlers));
  errors.push(...pluginOptionsValidator.errors(raw, ''));
  const lifecycle = raw.lifecycle ?? {};
  if (!isLifecycleSource(lifecycle)) errors.push(...checkLifecycleConfigShape({ config: lifecycle, versions: names }));
  if (errors.length > 0) {
    // Only the bundle and its handlers wrong: a definition error, as registerVersionedApi raises.
    const definitionOnly = errors.every((e) => e.startsWith('bundle ') || e.startsWith('handlers '));
    throw new VersionaryError({
      code: definitionOnly ? ErrorCode.InvalidDefinition : ErrorCode.InvalidConfig,
      detail: `The versionary plugin options have ${errors.length} problem(s):\n- ${errors.join('\n- ')}`,
    });
  }
  const given = options as Omit<VersionaryPluginOptions, 'lifecycle'>;
  return {
    ...given,
    handlers: handlers as Record<string, OperationHandler>,
    prefix: given.prefix ?? '/api',
    lifecycle: lifecycle as LifecycleConfig | LifecycleSource,
    clock: given.clock ?? { now: Date.now },
    clientIdOf: given.clientIdOf ?? ((request) => request.ip),
    clientOf: given.clientOf ?? given.clientIdOf ?? ((request) => request.ip),
    openapi: given.openapi ?? { title: 'API' },
    versionsDocument: given.versionsDocument !== false,
    problems: given.problems !== false,
    notFound: given.notFound !== false,
    versionListHeaders: given.versionListHeaders === 'api' ? ('api' as const) : given.versionListHeaders !== false,
    validateResponses: given.validateResponses !== false,
    onVersionedRequest: given.onVersionedRequest ?? [],
    forward,
  };
}

/** Tell `onUsage` of a call to a deprecated or removed version or endpoint. */
export function reportUsage(
  o: ResolvedPluginOptions,
  request: FastifyRequest,
  call: { version: string; endpoint: string },
): void {
  o.onUsage?.({ ...call, clientId: o.clientIdOf(request), at: o.clock.now() }, request);
}

function checkForward(options: { forward: ForwardOptions; names: string[]; hasHandlers: boolean }): string[] {
  const { forward, names } = options;
  const errors: string[] = [];
  if (options.hasHandlers) errors.push('give handlers or forward, not both');
  if (typeof forward !== 'object' || forward === null || typeof forward.upstreams !== 'object' || !forward.upstreams)
    return [...errors, 'forward must be { upstreams: { v1: "http://…" }, timeoutMs? }'];
  for (const name of names) {
    const url = forward.upstreams[name];
    if (typeof url !== 'string' || !/^https?:\/\/[^/\s]+\/?$/.test(url))
      errors.push(
        `forward.upstreams.${name} must be an origin such as "http://127.0.0.1:9001", not ${JSON.stringify(url)}`,
      );
  }
  const timeout = forward.timeoutMs;
  if (timeout !== undefined && (!Number.isInteger(timeout) || timeout < 1 || timeout > 3_600_000))
    errors.push('forward.timeoutMs must be an integer from 1 to 3600000');
  if (forward.requestHeaders !== undefined && typeof forward.requestHeaders !== 'function')
    errors.push('forward.requestHeaders must be a function');
  const undocumented = forward.forwardUndocumented as unknown;
  if (
    undocumented !== undefined &&
    (!Array.isArray(undocumented) || undocumented.some((name) => !names.includes(name as string)))
  )
    errors.push(`forward.forwardUndocumented must list versions of the bundle (${names.join(', ')})`);
  return errors;
}
