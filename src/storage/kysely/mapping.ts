import type { SelectQueryBuilder } from 'kysely';
import type { ExtendedAccessSubject, Page } from '../../kernel/ports/index.ts';
import type { SubjectColumns } from './tables.ts';

/** A row as a driver answers it, or as a write's values. */
export type Row = Record<string, unknown>;

/**
 * How one field of a record is kept in a row: the columns it writes, and its value read back
 * (undefined: absent from the record). `column` is the field's name in snake case.
 */
export interface Field<V> {
  toRow(value: V, column: string): Row;
  fromRow(row: Row, column: string): V | undefined;
}

const oneColumn = <V>(read: (value: unknown) => V, write: (value: V) => unknown = (value) => value): Field<V> => ({
  toRow: (value, column) => ({ [column]: write(value) }),
  fromRow: (row, column) => read(row[column]),
});

// The record's type is the port's: what a column holds is the port's to say, as the casts said before.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const asIs: Field<any> = oneColumn((value) => value);
/** An instant or a count; null stays null. PostgreSQL answers bigint columns as strings. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const numeric: Field<any> = oneColumn((value) => (value === null ? null : Number(value)));
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const json: Field<any> = oneColumn((value) => JSON.parse(value as string), JSON.stringify);
export const flag: Field<boolean> = oneColumn(
  (value) => Number(value) === 1,
  (value) => (value ? 1 : 0),
);

/** A field absent from the record while its column is null, written null when absent. */
export function optional<V>(field: Field<V>): Field<V | undefined> {
  return {
    toRow: (value, column) => (value === undefined ? { [column]: null } : field.toRow(value, column)),
    fromRow: (row, column) => (row[column] === null ? undefined : field.fromRow(row, column)),
  };
}

/** A field kept in a column of another name than its own. */
export function inColumn<V>(column: string, field: Field<V>): Field<V> {
  return { toRow: (value) => field.toRow(value, column), fromRow: (row) => field.fromRow(row, column) };
}

/** What extended access is for, in the columns of its grants and its requests. */
export const subject: Field<ExtendedAccessSubject> = {
  toRow: (s) => ({
    subject_kind: s.kind,
    version: s.version,
    method: s.kind === 'endpoint' ? s.method : null,
    path: s.kind === 'endpoint' ? s.path : null,
    element: s.kind === 'element' ? s.element : null,
  }),
  fromRow(row) {
    const { version, method, path, element } = row as unknown as SubjectColumns;
    if (row.subject_kind === 'endpoint') return { kind: 'endpoint', version, method: method ?? '', path: path ?? '' };
    if (row.subject_kind === 'element') return { kind: 'element', version, element: element ?? '' };
    return { kind: 'version', version };
  },
};

/** Every field of a record, each with how it is kept: a field the port adds fails to compile here until it has one. */
export type Fields<Rec> = { [K in keyof Rec]-?: Field<Rec[K]> };

/** The mapping between a table's rows and the port's records, declared once per table, in the record's order. */
export function rowMapping<Rec extends object>(fields: Fields<Rec>) {
  const entries = Object.entries(fields as Record<string, Field<unknown>>).map(
    ([key, field]) => [key, key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), field] as const,
  );
  return {
    /** The columns of a whole record. */
    toRow(record: Rec): Row {
      return Object.assign({}, ...entries.map(([key, column, field]) => field.toRow(record[key as keyof Rec], column)));
    },
    /** The columns of the fields `values` names, for an update. */
    columnsOf(values: Partial<Rec>): Row {
      const named = entries.filter(([key]) => key in values);
      return Object.assign({}, ...named.map(([key, column, field]) => field.toRow(values[key as keyof Rec], column)));
    },
    fromRow(row: Row): Rec {
      const record: Row = {};
      for (const [key, column, field] of entries) {
        const value = field.fromRow(row, column);
        if (value !== undefined) record[key] = value;
      }
      return record as Rec;
    },
  };
}

/** Narrow a query to the rows whose columns equal `values` (null: is null); an undefined value narrows nothing. */
export function matching<Q>(query: Q, values: Row): Q {
  let q = query as unknown as SelectQueryBuilder<Record<string, Row>, string, Row>;
  for (const [column, value] of Object.entries(values))
    if (value !== undefined) q = q.where(column, value === null ? 'is' : '=', value);
  return q as unknown as Q;
}

/** One page of `limit` records in id order: a row more is read, to know whether another page follows. */
export async function readPage<DB, TB extends keyof DB, O, T extends { id: number }>(
  query: SelectQueryBuilder<DB, TB, O>,
  limit: number,
  toRecord: (row: O) => T,
): Promise<Page<T>> {
  // Every paged table keys its rows by `id`, which the generic table names cannot show.
  const q = query as unknown as SelectQueryBuilder<Record<string, Row>, string, O>;
  const rows = await q
    .orderBy('id')
    .limit(limit + 1)
    .execute();
  const items = rows.slice(0, limit).map((row) => toRecord(row));
  return { items, nextAfter: rows.length > limit ? items[items.length - 1]!.id : null };
}
