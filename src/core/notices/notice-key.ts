import type { NoticeIdentity, NoticeSubject } from './types.ts';

/**
 * The stable id of a subject: the version name, `version method path` for an endpoint, or
 * `version element` for a field (`v2 User.nickname`) or query parameter (`v2 GET /users?order`).
 */
export function subjectId(subject: Pick<NoticeSubject, 'version' | 'endpoint' | 'element'>): string {
  if (subject.element) return `${subject.version} ${subject.element}`;
  return subject.endpoint ? `${subject.version} ${subject.endpoint}` : subject.version;
}

/**
 * What a stored subject id names, read back from {@link subjectId}: after the version, an endpoint
 * is `METHOD /path` (no `?`); a field (`User.nickname`) has no space, a parameter a `?`.
 */
export function subjectParts(id: string): { version: string; endpoint?: string; element?: string } {
  const space = id.indexOf(' ');
  if (space < 0) return { version: id };
  const version = id.slice(0, space);
  const rest = id.slice(space + 1);
  return !rest.includes(' ') || rest.includes('?') ? { version, element: rest } : { version, endpoint: rest };
}

/** One string per notice identity, for sets and maps. */
export function noticeKey(notice: NoticeIdentity): string {
  return [notice.clientId, notice.subject, notice.kind, notice.step, String(notice.sunsetAt)].join('\u0000');
}

/**
 * Whether a usage row falls under a subject: every endpoint of the version, or the one. Rows of
 * element calls fall under their element's subject only, and no other row does.
 */
export function covers(
  subject: Pick<NoticeSubject, 'version' | 'endpoint' | 'element'>,
  row: { version: string; endpoint: string; element?: string },
): boolean {
  if ((subject.element ?? '') !== (row.element ?? '')) return false;
  return subject.version === row.version && (subject.endpoint === undefined || subject.endpoint === row.endpoint);
}
