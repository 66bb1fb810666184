import type { FastifyRequest } from 'fastify';
import type { VersionaryError } from '../core/errors/index.ts';
import type { ApiVersion, EndpointSource, MigrationPlan, OperationSpec } from '../core/versions/index.ts';

/**
 * How the plugin forwards a version to an upstream instead of calling handlers (`versionary
 * gateway`).
 *
 * @example
 * ```ts
 * const forward: ForwardOptions = { upstreams: { v1: 'http://127.0.0.1:9001', v2: 'http://127.0.0.1:9002' } };
 * ```
 */
export interface ForwardOptions {
  /** Each version's upstream origin, by version name. */
  upstreams: Record<string, string>;
  /** How long to wait for the upstream's response headers, and between body chunks (ms, default 30 000); then 504. */
  timeoutMs?: number;
  /**
   * Forward request headers whose name holds `_` (default false: they are dropped, as nginx's
   * `underscores_in_headers off` does, since CGI and WSGI servers read `X_Client` and `X-Client`
   * as one variable, `HTTP_X_CLIENT`, and a client could pass off its own beside the gateway's).
   */
  underscoresInHeaders?: boolean;
  /** Request headers never forwarded (lower-case names), beside hop-by-hop ones and path overrides. */
  withheldHeaders?: readonly string[];
  /**
   * Which forwarding headers tell the upstream who asked: `x-forwarded` (default: `X-Forwarded-For`,
   * `-Proto`, `-Host`), `forwarded` (RFC 7239) or `both`. The client's own are never passed on.
   */
  forwardedHeaders?: 'both' | 'forwarded' | 'x-forwarded';
  /**
   * Request headers the gateway sets, replacing any the client sent: each one's value for this
   * request (`undefined` sends none). Cheaper than `requestHeaders`, which gets a copy as an object.
   */
  setHeaders?: Readonly<Record<string, (request: FastifyRequest) => string | undefined>>;
  /**
   * Versions whose paths no document declares are forwarded all the same, with the methods the
   * version's operations declare, under the version's verdict alone (no endpoint's rule can apply
   * to them; usage counts them as `METHOD /*`). Any other version answers them 404, never forwarded.
   */
  forwardUndocumented?: readonly string[];
  /** Versions served from a newer one by declared changes (`derivedFrom`): their calls go to the root's upstream, translated. */
  derived?: Record<string, DerivedVersionRoute>;
  /** Answer every call with this problem instead of forwarding it (a control plane whose data plane is nginx). */
  refuse?: () => VersionaryError;
  /** Change the headers sent upstream, after hop-by-hop headers are gone and `Forwarded` is set. */
  requestHeaders?: (
    headers: Record<string, string | string[] | undefined>,
    request: FastifyRequest,
  ) => Record<string, string | string[] | undefined>;
}

/**
 * A version the gateway serves from a newer one (`derivedFrom`): calls go to the newer version's
 * upstream, their bodies migrated up, and the answers come back migrated down, by the same
 * migration plan `defineVersions` compiles for the library.
 */
export interface DerivedVersionRoute {
  /** The version with the upstream, as the chain's plan knows it. */
  root: ApiVersion;
  /** This version, as the chain's plan knows it. */
  self: ApiVersion;
  plan: MigrationPlan;
  /** By operation id, the root's route that serves it (none when a newer version removed it) and the changes on the way. */
  endpoints: ReadonlyMap<string, EndpointSource>;
  /** `/api/v2`: the root's base path, which the upstream serves. */
  rootBase: string;
  /** By the root's route (`GET /users/{id}`), its response schemas by range or default (`2XX`, `DEFAULT`). */
  ranges?: Record<string, Record<string, string>>;
  /** The problem of a request body of this version's schema `name`, in this version's terms, or undefined. */
  checkRequest: (name: string, body: unknown) => VersionaryError | undefined;
  /** The problem of a call's parameters (`path` below the version base, `query` without `?`, as received), or undefined. */
  checkParameters: (operation: OperationSpec, at: { path: string; query: string }) => VersionaryError | undefined;
  /** The root's routes (`PUT /users/{id}`) whose document says their request body is required. */
  requiredBodies: ReadonlySet<string>;
  /** Drops, in place, an answer's undeclared members; answers the pointer of a value that fits no `anyOf`/`oneOf` branch. */
  dropUndeclared: (name: string, body: unknown) => string | undefined;
}
