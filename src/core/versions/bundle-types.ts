// The shapes of a defined bundle, in a leaf of their own: define-versions.ts builds them and the
// checks and the migration plan it calls read them, so none of those imports define-versions.ts.
import type { VersionChange } from './version-change.ts';
import type { HeadDefinition, MigrationContext, OperationSpec, SchemaMap } from './types.ts';

/** A version with its derived schemas and routed operations. */
export interface ApiVersion {
  name: string;
  number: number;
  /** Position in the bundle, 0 = oldest. */
  index: number;
  schemas: SchemaMap;
  operations: OperationSpec[];
  changes: VersionChange[];
  /**
   * The names this version's documents give schemas a newer version renamed (`schema-renamed`),
   * by the head's names, which `schemas`, operations and migrations keep throughout.
   */
  names?: Readonly<Record<string, string>>;
  /**
   * The operations a newer version removed with nothing serving them (a derived version's
   * `endpoint-removed` without an `upstreamPath`), by operation id: the version that removed each.
   * The decision table refuses them (410, `ENDPOINT_REMOVED`) on every data plane.
   */
  removed?: Readonly<Record<string, string>>;
}

/**
 * Every version, derived and checked, plus the compiled migrations between them. `H` keeps the
 * head's literal types, from which `defineHandlers` types each handler.
 */
export interface VersionBundle<H extends HeadDefinition = HeadDefinition> {
  head: H;
  versions: ApiVersion[];
  latest: ApiVersion;
  get(name: string): ApiVersion | undefined;
  byNumber(number: number): ApiVersion | undefined;
  migrations: MigrationPlan;
}

/** `v1`, `v2`…: a version's name, with its number. */
export const versionNamePattern = /^v([1-9][0-9]{0,5})$/;

/** The bundle of checked versions (oldest first), with their lookups. */
export function toBundle<H extends HeadDefinition>(
  head: H,
  versions: ApiVersion[],
  migrations: MigrationPlan,
): VersionBundle<H> {
  const byName = new Map(versions.map((v) => [v.name, v]));
  const byNumber = new Map(versions.map((v) => [v.number, v]));
  return {
    head,
    versions,
    latest: versions[versions.length - 1]!,
    get: (name) => byName.get(name),
    byNumber: (n) => byNumber.get(n),
    migrations,
  };
}

interface MigrateOptions {
  /** Component schema name of the body. */
  schema: string;
  body: unknown;
  /** Version the body is in. */
  from: ApiVersion;
  /** Version the body must end in. */
  to: ApiVersion;
  operationId?: string;
  /** The call the body belongs to, as migrations are told it (by default, the operation alone). */
  context?: MigrationContext;
}

/** Migrations compiled once from the declared changes. */
export interface MigrationPlan {
  /** Newer → older, step by step: each step's migrations on the newer shape, then the older shape. */
  responseDown(options: MigrateOptions): unknown;
  /** Older → newer, step by step: each step's migrations on the older shape, then the newer shape. */
  requestUp(options: MigrateOptions): unknown;
}
