import { DAY_MS } from '../../core/lifecycle/index.ts';
import type { Brownout } from '../../core/notices/index.ts';
import type { ClientStore, UsageStore } from '../../kernel/ports/index.ts';

/** A brownout body's `target`: exactly one member (the schema says so). */
export interface TargetInput {
  all?: true;
  clients?: string[];
  calledWithinDays?: number;
}

export type ResolvedTarget = {
  target: Pick<Brownout, 'clients' | 'calledWithinDays'>;
  problems: Array<{ pointer: string; detail: string }>;
};

/**
 * Resolve a target to its clients once, when the brownout is planned (usage flushed first). A set
 * that comes out empty is a problem: the brownout would refuse nobody.
 */
export async function resolveTarget(options: {
  target: TargetInput | undefined;
  subject: { version: string; endpoint?: string };
  clients: Pick<ClientStore, 'findMany'>;
  usage: Pick<UsageStore, 'byClient'>;
  flushUsage: () => Promise<void>;
  now: number;
}): Promise<ResolvedTarget> {
  const { target, subject } = options;
  if (!target || target.all) return { target: {}, problems: [] };
  if (target.clients) {
    const known = new Set((await options.clients.findMany(target.clients)).map((c) => c.id));
    const problems = target.clients.flatMap((id, i) =>
      known.has(id) ? [] : [{ pointer: `/target/clients/${i}`, detail: `no client ${id}` }],
    );
    return { target: { clients: [...target.clients] }, problems };
  }
  const days = target.calledWithinDays!;
  await options.flushUsage();
  const rows = await options.usage.byClient({ since: options.now - days * DAY_MS, version: subject.version });
  const callers = [
    ...new Set(
      rows
        .filter((r) => r.calls > 0 && (subject.endpoint === undefined || r.endpoint === subject.endpoint))
        .map((r) => r.clientId),
    ),
  ].sort();
  const what = subject.endpoint ? `${subject.endpoint} of ${subject.version}` : subject.version;
  const detail = `no client called ${what} in the last ${days} days: the brownout would refuse nobody`;
  return {
    target: { clients: callers, calledWithinDays: days },
    problems: callers.length === 0 ? [{ pointer: '/target/calledWithinDays', detail }] : [],
  };
}

export function targetItem(b: Brownout): { all: boolean; clients: string[] | null; calledWithinDays: number | null } {
  if (b.clientId !== undefined) return { all: false, clients: [b.clientId], calledWithinDays: null };
  return {
    all: b.clients === undefined,
    clients: b.clients ? [...b.clients] : null,
    calledWithinDays: b.calledWithinDays ?? null,
  };
}
