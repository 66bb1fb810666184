import { earlierNames } from '../../core/earlier-names.ts';
import type { Clock } from '../../core/clock/index.ts';
import { DAY_MS } from '../../core/lifecycle/index.ts';
import { subjectId, type DueNotice } from '../../core/notices/index.ts';
import { formatIsoInstant } from '../../core/time/index.ts';
import type { ClientStore, ExtendedAccessDecisionNotifier, NoticeStore } from '../../kernel/ports/index.ts';
import type { LifecycleRuntime } from '../lifecycle/runtime.ts';
import type { NoticeChannel } from './channel.ts';
import { noticeSubjects, type PayloadBuilder } from './gather.ts';
import { outboxRows } from './plan-outbox.ts';

/**
 * The notifier of decisions on requests for extended access. The row's step is the request id, so
 * a decision is told once, however often this runs for it.
 */
export function createDecisionNotifier(options: {
  notices: NoticeStore;
  clients: Pick<ClientStore, 'find'>;
  runtime: LifecycleRuntime;
  payloads: PayloadBuilder;
  channels: readonly NoticeChannel[];
  clock: Clock;
  /** Deliver what is queued, in the background. */
  nudge: () => void;
}): ExtendedAccessDecisionNotifier {
  return async ({ request, until, cap }) => {
    if (request.status === 'pending') return;
    const client = await options.clients.find(request.clientId);
    if (!client) return;
    const s = request.subject;
    const parts = {
      version: s.version,
      ...(s.kind === 'endpoint' ? { endpoint: `${s.method} ${s.path}` } : {}),
      ...(s.kind === 'element' ? { element: s.element } : {}),
    };
    const id = subjectId(parts);
    const now = options.clock.now();
    // The subject's own dates when it is still deprecated; a subject no longer deprecated has none.
    const sunsetAt = noticeSubjects(options.runtime).find((x) => subjectId(x) === id)?.sunsetAt ?? now;
    const notice: DueNotice = {
      ...parts,
      clientId: client.id,
      subject: id,
      kind: request.status,
      step: request.id,
      sunsetAt,
      plannedAt: now,
      daysLeft: Math.max(0, Math.ceil((sunsetAt - now) / DAY_MS)),
    };
    const built = await options.payloads.build({ notice, client, rows: [] });
    const payload = {
      ...built,
      data: {
        ...built.data,
        [earlierNames.noticeMember]: {
          requestId: request.id,
          decision: request.status,
          until: request.status === 'granted' && until !== null ? formatIsoInstant(until) : null,
          cap: cap === null ? null : formatIsoInstant(cap),
          reason: request.decisionNote,
        },
      },
    };
    const rows = outboxRows(options.channels, client, {
      clientId: client.id,
      subject: id,
      kind: notice.kind,
      step: notice.step,
      sunsetAt,
      payload: JSON.stringify(payload),
      createdAt: now,
    });
    if (rows.length > 0 && (await options.notices.enqueue(rows)) > 0) options.nudge();
  };
}
