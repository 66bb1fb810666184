import { headersAt, segmentAt } from './segments.ts';
import type { Decision, DecisionTable, ProblemRow, RuleRow } from './table.ts';

/** What a subject's row says of a request: its segments, clients' own segments and closings. */
type JudgedSubject = Pick<RuleRow, 'segments' | 'extendedAccess' | 'closings'>;

/** A problem of the table by key; a missing key is a compiler bug, answered as a plain 404. */
export function problemOf(table: DecisionTable, key: string | undefined): ProblemRow {
  return (key === undefined ? undefined : table.problems[key]) ?? missingProblem;
}

const missingProblem: ProblemRow = {
  status: 404,
  headers: {},
  body: {
    type: '/problems/not-found',
    title: 'Not Found',
    status: 404,
    detail: 'No such resource.',
    code: 'NOT_FOUND',
  },
};

/**
 * Judge one subject (a version, an operation, an element) for a client at `now`: the client's own
 * segments replace the shared ones (extended access), a refusing segment answers its problem with
 * its headers, and while everyone's segment allows, a closing in effect refuses a client not allowed
 * past it.
 */
export function judgeSubject(
  table: DecisionTable,
  subject: JudgedSubject,
  facts: { client: string | undefined; now: number; deprecated: boolean },
): Decision {
  const { client, now, deprecated } = facts;
  const own = client === undefined ? undefined : subject.extendedAccess?.[client];
  const segment = segmentAt(own?.segments ?? subject.segments, now);
  const shared = own === undefined ? segment : segmentAt(subject.segments, now);
  const headers = headersAt(segment, now);
  if (segment.outcome === 'refuse')
    return { outcome: 'refuse', headers, problem: problemOf(table, segment.problem), rule: 'removed', deprecated };
  // Closings guard the subject while it is open to all: past its removal, only the clients granted
  // extended access are served, and that grant is the owner's word for them, closing or not.
  if (subject.closings && shared.outcome === 'allow')
    for (const closing of subject.closings)
      if (now >= closing.at && (client === undefined || !closing.allowed.includes(client)))
        return {
          outcome: 'refuse',
          headers,
          problem: problemOf(table, closing.problem),
          rule: 'closed_to_new_clients',
          deprecated,
        };
  if (own && shared.outcome === 'refuse') return { outcome: 'allow', headers, deprecated, rule: 'extended_access' };
  return { outcome: 'allow', headers, deprecated };
}
