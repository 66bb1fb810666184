import type { ExtendedAccessSubject } from '../../kernel/ports/index.ts';
import type { SubjectColumns } from './tables.ts';

/** The columns of a grant's or a request's subject of extended access. */
export function subjectColumns(s: ExtendedAccessSubject): SubjectColumns {
  return {
    subject_kind: s.kind,
    version: s.version,
    method: s.kind === 'endpoint' ? s.method : null,
    path: s.kind === 'endpoint' ? s.path : null,
    element: s.kind === 'element' ? s.element : null,
  };
}

/** The subject of extended access its columns name. */
export function toSubject(row: SubjectColumns): ExtendedAccessSubject {
  if (row.subject_kind === 'endpoint')
    return { kind: 'endpoint', version: row.version, method: row.method ?? '', path: row.path ?? '' };
  if (row.subject_kind === 'element') return { kind: 'element', version: row.version, element: row.element ?? '' };
  return { kind: 'version', version: row.version };
}

// PostgreSQL answers bigint columns as strings.
export const instant = (value: number | string | null) => (value === null ? null : Number(value));
