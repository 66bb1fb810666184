import type { NoticeIdentity, NoticeSubject } from './types.ts';

/** The stable id of a subject: the version name, or `version method path` for an endpoint. */
export function subjectId(subject: Pick<NoticeSubject, 'version' | 'endpoint'>): string {
  return subject.endpoint ? `${subject.version} ${subject.endpoint}` : subject.version;
}

/** One string per notice identity, for sets and maps. */
export function noticeKey(notice: NoticeIdentity): string {
  return [notice.clientId, notice.subject, notice.kind, notice.step, String(notice.sunsetAt)].join('\u0000');
}

/** Whether a usage row's endpoint falls under a subject: every endpoint of the version, or the one. */
export function covers(
  subject: Pick<NoticeSubject, 'version' | 'endpoint'>,
  row: { version: string; endpoint: string },
): boolean {
  return subject.version === row.version && (subject.endpoint === undefined || subject.endpoint === row.endpoint);
}
