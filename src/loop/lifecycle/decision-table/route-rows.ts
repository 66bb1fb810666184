import { cappedUntil, replacementName, type ElementDeprecation } from '../../../core/lifecycle/index.ts';
import type { Brownout } from '../../../core/notices/index.ts';
import { brownoutProblem, closedProblem } from '../../../core/rulebook/problems.ts';
import type { BrownoutRow, Closing, ElementRow, RouteRow, RuleSegment } from '../../../core/rulebook/index.ts';
import type { ExtendedAccessSubject } from '../../../kernel/ports/index.ts';
import { closingsOf, type VerdictKey } from '../runtime-verdict.ts';
import { clientRow, elementSegments, subjectSegments, type RowContext } from './subject-rows.ts';

export interface RouteRowContext extends RowContext {
  brownouts: readonly Brownout[];
  removedStatus: 410 | 404;
  /** The clients allowed past a closing that has taken effect (the usage store's answer). */
  allowed: (closing: { version: string; endpoint?: string; element?: string; at: number }) => Promise<string[]>;
}

/** The row of an operation; with `gone` (a newer version removed it), refused wherever its lifecycle allows it. */
export async function routeRow(ctx: RouteRowContext, key: VerdictKey, gone?: () => string): Promise<RouteRow> {
  const { runtime } = ctx;
  const segments = subjectSegments(ctx, key);
  const spared = clientsOf(ctx, { kind: 'version', version: key.version }, { kind: 'endpoint', ...key });
  const extendedAccess: RouteRow['row']['extendedAccess'] = {};
  for (const client of spared) {
    const own = clientRow(segments, subjectSegments(ctx, key, client), untilOf(ctx, client, key) ?? 0);
    if (own) extendedAccess[client] = own;
  }
  const closings = await routeClosings(ctx, key);
  const deprecated = runtime.verdictAt(key, ctx.now).verdict.deprecated;
  const access = Object.keys(extendedAccess).length > 0 ? { extendedAccess } : {};
  const closed = closings.length > 0 ? { closings } : {};
  const route = { method: key.method, template: key.path };
  if (gone === undefined) {
    const row = { segments, deprecated, ...access, ...closed };
    return { ...route, row, elements: await elementRows(ctx, key), brownouts: brownoutRows(ctx, key, spared) };
  }
  const problem = gone();
  const refuse = (list: RuleSegment[]): RuleSegment[] =>
    list.map((s) => (s.outcome === 'allow' ? { ...s, outcome: 'refuse', problem } : s));
  for (const own of Object.values(extendedAccess)) own.segments = refuse(own.segments);
  return {
    ...route,
    row: { segments: refuse(segments), deprecated, ...closed, ...access },
    elements: [],
    brownouts: [],
  };
}

function clientsOf(ctx: RowContext, ...subjects: ExtendedAccessSubject[]): string[] {
  return [...new Set(subjects.flatMap((s) => [...ctx.runtime.grantsOf(s).keys()]))].sort();
}

/** A client's own date for an operation: its version's extension, else its endpoint's. */
function untilOf(ctx: RowContext, client: string, key: VerdictKey): number | undefined {
  return (
    ctx.runtime.extensionOf(client, { version: key.version }) ??
    ctx.runtime.extensionOf(client, { version: key.version, endpoint: `${key.method} ${key.path}` })
  );
}

async function routeClosings(ctx: RouteRowContext, key: VerdictKey): Promise<Closing[]> {
  const { runtime } = ctx;
  const found = closingsOf(runtime.scheduleOf(key.version), runtime.endpointDeprecations(), key);
  const replacement = runtime.verdictAt(key, ctx.now).verdict.replacement;
  const guide = runtime.migrationUrl(key.version);
  return Promise.all(
    found.map((c) =>
      closing(
        ctx,
        { version: key.version, ...c },
        { what: c.endpoint ? `${c.endpoint} in ${key.version}` : key.version, replacement, guide },
      ),
    ),
  );
}

/** A closing to new clients, with the clients allowed past it once it has taken effect, and its 403. */
async function closing(
  ctx: RouteRowContext,
  subject: Parameters<RouteRowContext['allowed']>[0],
  words: Omit<Parameters<typeof closedProblem>[0], 'at'>,
): Promise<Closing> {
  const { at } = subject;
  return {
    at,
    allowed: at <= ctx.now ? await ctx.allowed(subject) : [],
    problem: ctx.registry.keyOf(closedProblem({ ...words, at })),
  };
}

/** Parameters of this operation, and fields of its version when the method carries a body. */
function elementsOf(ctx: RowContext, key: VerdictKey): ElementDeprecation[] {
  const body = key.method === 'POST' || key.method === 'PUT' || key.method === 'PATCH' || key.method === 'QUERY';
  return ctx.runtime
    .elements()
    .filter(
      (e) =>
        e.version === key.version &&
        (e.kind === 'parameter' ? e.method.toUpperCase() === key.method && e.path === key.path : body),
    );
}

async function elementRows(ctx: RouteRowContext, key: VerdictKey): Promise<ElementRow[]> {
  const rows: ElementRow[] = [];
  for (const e of elementsOf(ctx, key)) {
    const segments = elementSegments(ctx, { key, element: e });
    const extendedAccess: NonNullable<ElementRow['extendedAccess']> = {};
    const subject = { kind: 'element', version: e.version, element: e.element } as const;
    for (const [clientId, latest] of ctx.runtime.grantsOf(subject)) {
      const until = cappedUntil(latest, e.extendedAccessUntil);
      if (until === undefined || until <= e.sunsetAt) continue;
      const own = clientRow(segments, elementSegments(ctx, { key, element: e, clientId, sunsetAt: until }), until);
      if (own) extendedAccess[clientId] = own;
    }
    const at = e.closedToNewClientsAt;
    const guide = e.migrationUrl ?? ctx.runtime.migrationUrl(e.version);
    const words = { what: `${e.element} in ${e.version}`, replacement: replacementName(e), guide };
    const closed =
      at === undefined ? undefined : await closing(ctx, { version: e.version, element: e.element, at }, words);
    rows.push({
      name: e.element,
      kind: e.kind,
      ...(e.kind === 'parameter' ? { parameter: e.parameter.toLowerCase() } : { field: e.field }),
      segments,
      ...(Object.keys(extendedAccess).length > 0 ? { extendedAccess } : {}),
      ...(closed ? { closings: [closed] } : {}),
    });
  }
  return rows;
}

type BrownoutRowContext = RowContext & Pick<RouteRowContext, 'brownouts' | 'removedStatus'>;

/** The brownouts that reach an operation, in the order planned, each sparing the `extended` clients. */
function brownoutRows(ctx: BrownoutRowContext, key: VerdictKey, extended: readonly string[]): BrownoutRow[] {
  const endpoint = `${key.method} ${key.path}`;
  return ctx.brownouts
    .filter(
      (b) => b.version === key.version && (b.endpoint === undefined || b.endpoint === endpoint) && b.endsAt > ctx.now,
    )
    .map((b) => {
      const spared: Record<string, number> = {};
      for (const client of extended) {
        const own =
          ctx.runtime.extensionOf(client, { version: key.version }) ??
          (b.endpoint ? ctx.runtime.extensionOf(client, { version: key.version, endpoint: b.endpoint }) : undefined);
        if (own !== undefined) spared[client] = own;
      }
      const clients = b.clientId !== undefined ? [b.clientId] : b.clients ? [...b.clients] : undefined;
      const { verdict } = ctx.runtime.verdictAt(key, Math.max(ctx.now, b.startsAt));
      const problem = verdict.removed
        ? ctx.registry.keyOf(verdict.removed)
        : ctx.registry.keyOf(
            brownoutProblem({
              brownout: b,
              version: key.version,
              sunsetAt: verdict.sunsetAt,
              guide: ctx.runtime.migrationUrl(key.version),
              status: ctx.removedStatus,
            }),
          );
      return {
        id: b.id,
        startsAt: b.startsAt,
        endsAt: b.endsAt,
        ...(clients ? { clients } : {}),
        problem,
        ...(Object.keys(spared).length > 0 ? { spared } : {}),
      };
    });
}

/** A version's whole-version brownouts, for a path under it with no route (an undocumented path a version forwards). */
export function versionBrownoutRows(ctx: RouteRowContext, version: string): BrownoutRow[] {
  const spared = clientsOf(ctx, { kind: 'version', version });
  // `/*` names no endpoint: only the brownouts of the whole version reach it.
  return brownoutRows(ctx, { version, method: 'GET', path: '/*' }, spared);
}
