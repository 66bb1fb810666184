import type { VersionaryError } from '../core/errors/index.ts';
import type { ApiVersion, EndpointSource, MigrationPlan, OperationSpec } from '../core/versions/index.ts';

// Its own file, apart from the forwarder: the forwarder's types name undici (an optional peer
// dependency), and this one reaches the public declarations through the `forward` option.
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
  /**
   * By this version's operation id, the root's route that serves it (moved, or another one for a
   * removed endpoint; none when a newer version removed it: a 410) and the transport changes on
   * the way (statuses, headers, query parameters).
   */
  endpoints: ReadonlyMap<string, EndpointSource>;
  /** `/api/v2`: the root's base path, which the upstream serves. */
  rootBase: string;
  /**
   * By operation id, the response schemas the root's document gives by range or by default
   * (`2XX`, `DEFAULT`), for an answer whose exact status it does not document.
   */
  ranges?: Record<string, Record<string, string>>;
  /**
   * The problem of a request body of this version's schema `name`, checked in this version's
   * terms before any migration (its document's constraints, members it does not declare), or
   * undefined when it may go up.
   */
  checkRequest: (name: string, body: unknown) => VersionaryError | undefined;
  /**
   * The problem of a call's path and query parameters (`path` below the version base, `query`
   * without its `?`, both as received), checked in this version's terms, or undefined.
   */
  checkParameters: (operation: OperationSpec, at: { path: string; query: string }) => VersionaryError | undefined;
  /** The ids of the operations whose document says their request body is required. */
  requiredBodies: ReadonlySet<string>;
  /**
   * Drops, in place, the members of a translated answer (of this version's schema `name`) that
   * this version's document does not declare; answers the pointer of a value that fits no branch
   * of an `anyOf`/`oneOf`, whose members cannot be told, else undefined.
   */
  dropUndeclared: (name: string, body: unknown) => string | undefined;
}
