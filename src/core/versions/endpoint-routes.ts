import type { ApiVersion } from './bundle-types.ts';
import type { EndpointInstruction } from './endpoint-instructions.ts';
import type { HttpMethod } from './types.ts';

/** A rename of one step, names as the newer version has them and as the older one had them. */
interface Rename {
  name: string;
  previousName: string;
}

/** What one version changed on a route's transport: its statuses, headers and query parameters. */
interface TransportStep {
  /** The version that made the change. */
  version: string;
  /** Each status the newer version answers, by the one the older version answered instead. */
  statuses: Array<{ status: number; previousStatus: number }>;
  /** Header renames, names as the change wrote them (headers match in any case). */
  requestHeaders: Rename[];
  responseHeaders: Rename[];
  query: Rename[];
}

/** Where an older version's route is served in a newer version, and what changed on the way. */
export interface EndpointSource {
  /** The newer version's route that serves it; undefined when a version on the way removed it. */
  route?: { method: HttpMethod; path: string };
  /** The version that removed it without a route serving it: the older version answers 410. */
  removedIn?: string;
  /** The transport changes of each version on the way, oldest first. */
  steps: TransportStep[];
}

/** An older version's route followed up to version `to` (moves, removals), with the transport changes on the way. */
export function endpointSource(
  versions: readonly Pick<ApiVersion, 'name' | 'changes'>[],
  at: { from: number; to: number; route: { method: HttpMethod; path: string } },
): EndpointSource {
  let route = at.route;
  const steps: TransportStep[] = [];
  for (let i = at.from + 1; i <= at.to; i++) {
    const version = versions[i]!;
    const instructions = version.changes
      .flatMap((c) => c.instructions)
      .filter((s): s is EndpointInstruction => 'method' in s || s.op === 'header-renamed');
    const moved = instructions.find(
      (s) =>
        s.op === 'endpoint-moved' && (s.previousMethod ?? s.method) === route.method && s.previousPath === route.path,
    );
    const removed = instructions.find(
      (s) => s.op === 'endpoint-removed' && s.method === route.method && s.path === route.path,
    );
    if (moved?.op === 'endpoint-moved') route = { method: moved.method, path: moved.path };
    else if (removed?.op === 'endpoint-removed') {
      if (removed.upstreamPath === undefined) return { removedIn: version.name, steps };
      route = { method: removed.upstreamMethod ?? removed.method, path: removed.upstreamPath };
    }
    steps.push(transportOf(version.name, instructions, route));
  }
  return { route, steps };
}

function transportOf(
  version: string,
  instructions: EndpointInstruction[],
  route: { method: HttpMethod; path: string },
): TransportStep {
  const step: TransportStep = { version, statuses: [], requestHeaders: [], responseHeaders: [], query: [] };
  for (const s of instructions) {
    const here = s.method === route.method && s.path === route.path;
    if (s.op === 'status-changed' && here) step.statuses.push({ status: s.status, previousStatus: s.previousStatus });
    else if (s.op === 'query-renamed' && here) step.query.push({ name: s.name, previousName: s.previousName });
    else if (s.op === 'header-renamed' && (here || s.method === undefined)) {
      const rename = { name: s.name, previousName: s.previousName };
      (s.in === 'request' ? step.requestHeaders : step.responseHeaders).push(rename);
    }
  }
  return step;
}
