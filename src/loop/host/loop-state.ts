import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from './feature.ts';

/**
 * The names of the loop's parts, in the order an app registers them (`docs/loop.md#adopt-it-part-by-part`).
 *
 * @example
 * ```ts
 * const registered = loopPartNames.filter((name) => app.hasPlugin(name));
 * ```
 */
export const loopPartNames = [
  'versionary-loop-storage',
  'versionary-loop-usage',
  'versionary-loop-lifecycle',
  'versionary-loop-access',
  'versionary-loop-notices',
  'versionary-loop-portal',
  'versionary-loop-management',
] as const;

/**
 * One part's name.
 *
 * @example
 * ```ts
 * const first: LoopPartName = 'versionary-loop-storage';
 * ```
 */
export type LoopPartName = (typeof loopPartNames)[number];

/** What the parts share, decorated by the storage part: the service context, which no part changes after. */
export interface LoopState {
  context: ServiceContext;
  /** Whether each part answers unknown paths under its prefixes (the preset answers all once every part is in). */
  partNotFound: boolean;
  /** The variables the loop was handed (never `process.env` unless passed): the parts' package checks read them. */
  env: Record<string, string | undefined>;
  /** Fail, naming every one, when a package `part` needs for this configuration is not installed (set by the storage part). */
  assertPeers(part: LoopPartName): void;
}

const kLoopState = 'versionaryLoopState';

export function provideLoopState(app: FastifyInstance, state: LoopState): void {
  app.decorate(kLoopState, state);
}

/** The loop's state, set by the storage part in this context or an enclosing one. */
export function loopStateOf(app: FastifyInstance): LoopState {
  // Undefined only before the storage part (whose own check names it when another part comes first).
  return (app as unknown as Record<typeof kLoopState, LoopState>)[kLoopState];
}

// The parts registered on one server, in order, whichever context holds them.
const partsByServer = new WeakMap<object, LoopPartName[]>();

export function recordLoopPart(app: FastifyInstance, name: LoopPartName): void {
  let parts = partsByServer.get(app.server);
  if (!parts) partsByServer.set(app.server, (parts = []));
  parts.push(name);
}

/**
 * The loop's parts registered on `app`'s server, in the order they were registered.
 *
 * @internal exported for the tests
 */
export function registeredLoopParts(app: FastifyInstance): readonly LoopPartName[] {
  return partsByServer.get(app.server) ?? [];
}
