import type { ApiVersion, MigrationPlan } from '../core/versions/index.ts';

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
  /** `/api/v2`: the root's base path, which the upstream serves. */
  rootBase: string;
  /**
   * By operation id, the response schemas the root's document gives by range or by default
   * (`2XX`, `DEFAULT`), for an answer whose exact status it does not document.
   */
  ranges?: Record<string, Record<string, string>>;
}
