import { versionListHeaders } from '../../../core/lifecycle/index.ts';
import type { Brownout } from '../../../core/notices/index.ts';
import {
  decisionTableFormat,
  sampleSegments,
  targetProblem,
  targetRefusals,
  undecodableTargetProblem,
  unreadableTargetProblem,
  type DecisionTable,
  type HeaderSegment,
  type MinimumVersionRow,
  type RatePolicies,
  type RouteRow,
  type TargetRefusal,
} from '../../../core/rulebook/index.ts';
import {
  acceptSeveralProblem,
  acceptUnreadableProblem,
  methodNotAllowedProblem,
  notAcceptableProblem,
  notServedProblem,
  unknownVersionProblem,
  upstreamProblem,
  versionConflictProblem,
  retiredForClientProblem,
  versionMissingProblem,
  endpointRemovedProblem,
} from '../../../core/rulebook/problems.ts';
import type { VersionBundle } from '../../../core/versions/index.ts';
import type { VersionaryError } from '../../../core/errors/index.ts';
import type { LifecycleRuntime } from '../runtime.ts';
import { createProblemRegistry, type ProblemRegistry } from './problem-registry.ts';
import { routeRow, versionBrownoutRows, type RouteRowContext } from './route-rows.ts';
import { subjectSegments } from './subject-rows.ts';

/** How long after a closing takes effect its allowed clients are read once more (the usage flush, and some). */
const closingSettleMs = 5_000;

export interface DecisionTableSources {
  runtime: LifecycleRuntime;
  bundle: VersionBundle;
  prefix: string;
  vendor: string;
  removedStatus: 410 | 404;
  /** Brownout windows planned (progressive ones expanded); none when absent. */
  brownouts?: () => readonly Brownout[];
  allowed: RouteRowContext['allowed'];
  access?: () => AccessRefusals | undefined;
  /** The clients' minimum versions (client id → version), and a stamp that moves when they may have. */
  minimumVersions?: { list(): Promise<Readonly<Record<string, string>>>; stamp(): number };
  /** The versions whose undocumented paths a forwarding data plane passes on (`forwardUndocumented`). */
  forwardUndocumented?: readonly string[];
}

/** The access part's answers, handed over as values (the compiler imports no part above it). */
export interface AccessRefusals {
  policies: RatePolicies;
  /** `credentials-missing`, `credentials-repeated`, `credentials-unavailable`. */
  credentials: ReadonlyArray<{ key: string; error: VersionaryError }>;
  /** `rate-limited:<policy>`, with `{seconds}` until the window resets. */
  rateLimited: ReadonlyArray<{ key: string; error: VersionaryError }>;
}

const noRefusals: AccessRefusals = { policies: { roles: {} }, credentials: [], rateLimited: [] };

/** Compile the table at `now`: each row sampled where the runtime's answer changes, as the pipeline sends it. */
export async function compileDecisionTable(
  sources: DecisionTableSources,
  o: { now: number; generation: number; registry?: ProblemRegistry },
): Promise<DecisionTable> {
  const { runtime, bundle } = sources;
  const { now } = o;
  const registry = o.registry ?? createProblemRegistry();
  const versions = runtime.versions().map((v) => v.name);
  const ctx: RouteRowContext = {
    runtime,
    registry,
    now,
    brownouts: sources.brownouts?.() ?? [],
    removedStatus: sources.removedStatus,
    allowed: once(sources.allowed),
  };
  const access = sources.access?.() ?? noRefusals;
  fixedProblems(registry, { ...sources, versions: bundle.versions.map((v) => v.name), access });
  for (const { key, error } of access.rateLimited) registry.keyOf(error, key);
  const minimumVersions = minimumVersionRows(registry, {
    minimums: (await sources.minimumVersions?.list()) ?? {},
    versions,
    prefix: sources.prefix,
  });
  const versionRows: DecisionTable['versionRows'] = {};
  for (const version of versions) {
    const segments = subjectSegments(ctx, { version, method: 'GET', path: '/' });
    versionRows[version] = { segments, deprecated: runtime.scheduleOf(version) !== undefined };
  }
  const versionBrownouts: NonNullable<DecisionTable['versionBrownouts']> = {};
  for (const version of versions) {
    const rows = versionBrownoutRows(ctx, version);
    if (rows.length > 0) versionBrownouts[version] = rows;
  }
  const routes: Record<string, RouteRow[]> = {};
  for (const v of bundle.versions) {
    routes[v.name] = [];
    for (const op of v.operations) {
      const key = { version: v.name, method: op.method.toUpperCase(), path: op.path };
      const removedIn = v.removed?.[op.id];
      const endpoint = `${key.method} ${sources.prefix}/${v.name}${op.path}`;
      const gone =
        removedIn === undefined
          ? undefined
          : () => registry.keyOf(endpointRemovedProblem({ endpoint, removedIn, version: v.name }));
      routes[v.name]!.push(await routeRow(ctx, key, gone));
    }
  }
  const closingsAhead = [
    ...versions.map((v) => runtime.scheduleOf(v)?.closedToNewClientsAt),
    ...runtime.endpointDeprecations().map((e) => e.closedToNewClientsAt),
    ...runtime.elements().map((e) => e.closedToNewClientsAt),
  ]
    // A closing that took effect moments ago is compiled once more after `closingSettleMs`: calls made
    // just before it on another instance reach the usage store within that time (its flush), and
    // the clients allowed past it are fixed only then.
    .map((at) => (at !== undefined && at <= now && now < at + closingSettleMs ? at + closingSettleMs : at))
    .filter((at): at is number => at !== undefined && at > now);
  return {
    format: decisionTableFormat,
    generation: o.generation,
    compiledAt: now,
    recompileAt: closingsAhead.length > 0 ? Math.min(...closingsAhead) : null,
    prefix: sources.prefix,
    vendor: sources.vendor,
    versions,
    listHeaders: listHeaderSegments(runtime, now),
    versionRows,
    routes,
    ...(Object.keys(versionBrownouts).length > 0 ? { versionBrownouts } : {}),
    forwardUndocumented: [...(sources.forwardUndocumented ?? [])],
    policies: access.policies,
    minimumVersions,
    problems: registry.problems,
  };
}

function fixedProblems(
  registry: ProblemRegistry,
  o: { prefix: string; vendor: string; versions: readonly string[]; access: AccessRefusals },
): void {
  registry.keyOf(
    versionMissingProblem({ prefix: o.prefix, vendor: o.vendor, supported: o.versions }),
    'version-missing',
  );
  const unknown = { name: '{version}', supported: o.versions };
  registry.keyOf(unknownVersionProblem({ ...unknown, source: 'path' }), 'version-unknown');
  registry.keyOf(unknownVersionProblem({ ...unknown, source: 'accept' }), 'version-unknown-accept');
  for (const reason of Object.keys(targetRefusals) as TargetRefusal[])
    registry.keyOf(targetProblem(reason), `target-${reason}`);
  registry.keyOf(unreadableTargetProblem(), 'target-unreadable');
  registry.keyOf(undecodableTargetProblem(), 'target-undecodable');
  // The answers of a data plane's own steps, for those that cannot run core: `{…}` is filled in from the request.
  const supported = o.versions;
  registry.keyOf(acceptUnreadableProblem({ ranges: '{ranges}', supported }), 'version-accept-unreadable');
  registry.keyOf(acceptSeveralProblem({ versions: '{versions}', supported }), 'version-accept-several');
  registry.keyOf(versionConflictProblem({ path: '{path}', accept: '{accept}', supported }), 'version-conflict');
  registry.keyOf(notAcceptableProblem({ supported }), 'not-acceptable');
  // `{allow}` is the route's (`allowOf` of its methods), in the header and the detail.
  registry.keyOf(methodNotAllowedProblem({ method: '{method}', allow: '{allow}' }), 'method-not-allowed');
  // A path no route of the version matches, where the version does not forward such paths.
  registry.keyOf(notServedProblem({ path: '{path}', version: '{version}' }), 'not-documented');
  for (const { key, error } of o.access.credentials) registry.keyOf(error, key);
  registry.keyOf(upstreamProblem(false), 'upstream-unreachable');
  registry.keyOf(upstreamProblem(true), 'upstream-timeout');
}

/** Each client's minimum version with its 410; a minimum the API no longer knows retires nothing. */
function minimumVersionRows(
  registry: ProblemRegistry,
  o: { minimums: Readonly<Record<string, string>>; versions: readonly string[]; prefix: string },
): Record<string, MinimumVersionRow> {
  const rows: Record<string, MinimumVersionRow> = {};
  for (const [client, version] of Object.entries(o.minimums))
    if (o.versions.includes(version))
      rows[client] = {
        version,
        problem: registry.keyOf(retiredForClientProblem({ minimumVersion: version, prefix: o.prefix })),
      };
  return rows;
}

function listHeaderSegments(runtime: LifecycleRuntime, now: number): HeaderSegment[] {
  const versions = runtime.versions();
  return sampleSegments((t) => {
    const { headers, changesAt } = versionListHeaders({ versions, clock: { now: () => t } });
    return { outcome: 'allow', headers: headers as Record<string, string>, until: changesAt ?? Infinity };
  }, now).map(({ from, headers }) => ({ from, headers }));
}

/**
 * The clients allowed past each closing, read once per compilation: a version's closing is every
 * route's, and each read flushes usage and scans it.
 */
function once(allowed: RouteRowContext['allowed']): RouteRowContext['allowed'] {
  const read = new Map<string, Promise<string[]>>();
  return (closing) => {
    const key = JSON.stringify([closing.version, closing.endpoint, closing.element, closing.at]);
    let found = read.get(key);
    if (!found) read.set(key, (found = allowed(closing)));
    return found;
  };
}
