import type { NoticeIdentity, NoticeSubject } from './types.ts';

/**
 * The stable id of a subject: the version name, or `version method path` for an endpoint.
 *
 * @example
 * ```ts
 * subjectId({ version: 'v1', endpoint: 'GET /users' }); // 'v1 GET /users'
 * ```
 */
export function subjectId(subject: Pick<NoticeSubject, 'version' | 'endpoint'>): string {
  return subject.endpoint ? `${subject.version} ${subject.endpoint}` : subject.version;
}

/**
 * One string per notice identity, for sets and maps.
 *
 * @example
 * ```ts
 * new Set(recorded.map(noticeKey)).has(noticeKey(due));
 * ```
 */
export function noticeKey(notice: NoticeIdentity): string {
  return [notice.clientId, notice.subject, notice.kind, notice.step, String(notice.sunsetAt)].join('\u0000');
}

/**
 * Whether a usage row's endpoint falls under a subject: every endpoint of the version, or the one.
 *
 * @example
 * ```ts
 * covers({ version: 'v1' }, { version: 'v1', endpoint: 'GET /users' }); // true
 * ```
 */
export function covers(
  subject: Pick<NoticeSubject, 'version' | 'endpoint'>,
  row: { version: string; endpoint: string },
): boolean {
  return subject.version === row.version && (subject.endpoint === undefined || subject.endpoint === row.endpoint);
}
