import { deprecationDateKeys } from '../../core/lifecycle/index.ts';
import { formatIsoInstant } from '../../core/time/index.ts';
import type { StoredSchedule } from '../../kernel/ports/index.ts';
import type { VersionSettings } from './settings.ts';

/** A difference at start between a version's entry in the config file and its stored schedule. */
export interface ConfigConflict {
  version: string;
  /** `config`: the file's entry changed since it last applied, so it applied. `store`: it did not, so the stored dates stand. */
  winner: 'config' | 'store';
  fields: Array<{ field: DatedField; config: string | null; stored: string | null }>;
  detail: string;
}

// The schedule's two dates and the lifecycle schema's optional ones (`deprecationDateKeys`).
const datedFields = ['deprecatedAt', 'sunsetAt', ...deprecationDateKeys] as const;
type DatedField = (typeof datedFields)[number];

/** What an entry declares of a schedule: the same entry, however spelled, gives the same fingerprint. */
function configFingerprint(v: VersionSettings): string {
  return JSON.stringify([
    v.deprecatedAt ?? null,
    v.sunsetAt ?? null,
    v.removed === true,
    v.reason ?? null,
    v.migrationUrl ?? null,
    v.extendedAccessUntil ?? null,
    v.closedToNewClientsAt ?? null,
  ]);
}

/** The file applies when its entry is new or changed since it last applied, else the stored schedule stands. */
export function mergeConfigured(options: {
  entry: VersionSettings;
  declared: StoredSchedule;
  stored: StoredSchedule | undefined;
}): { save?: StoredSchedule; conflict?: ConfigConflict } {
  const { entry, declared, stored } = options;
  const fingerprint = configFingerprint(entry);
  const fields = stored ? differences(entry, declared, stored) : [];
  if (stored?.configFingerprint === fingerprint)
    return fields.length === 0 ? {} : { conflict: conflictOf({ version: declared.version, winner: 'store', fields }) };
  const keep = (at: number | undefined) => (at !== undefined && at > declared.sunsetAt ? at : undefined);
  const cap = declared.extendedAccessUntil ?? keep(stored?.extendedAccessUntil);
  const closing = declared.closedToNewClientsAt ?? stored?.closedToNewClientsAt;
  const save: StoredSchedule = {
    ...declared,
    removed: declared.removed || stored?.removed === true,
    migrationUrl: entry.migrationUrl ?? stored?.migrationUrl ?? null,
    ...(cap === undefined ? {} : { extendedAccessUntil: cap }),
    ...(closing === undefined ? {} : { closedToNewClientsAt: closing }),
    configFingerprint: fingerprint,
  };
  // A row written before fingerprints were kept was the file's own: only a real difference is news.
  return fields.length === 0
    ? { save }
    : { save, conflict: conflictOf({ version: declared.version, winner: 'config', fields }) };
}

function differences(
  entry: VersionSettings,
  declared: StoredSchedule,
  stored: StoredSchedule,
): ConfigConflict['fields'] {
  const show = (at: number | undefined) => (at === undefined ? null : formatIsoInstant(at));
  return datedFields
    .filter((field) => entry[field] !== undefined && declared[field] !== stored[field])
    .map((field) => ({ field, config: show(declared[field]), stored: show(stored[field]) }));
}

function conflictOf(options: Pick<ConfigConflict, 'version' | 'winner' | 'fields'>): ConfigConflict {
  const { version, winner, fields } = options;
  const said = fields
    .map((f) => `${f.field} ${f.config ?? 'unset'} in the config file, ${f.stored ?? 'unset'} in the database`)
    .join('; ');
  const outcome =
    winner === 'store'
      ? "the database's dates stand (set through the management API): the config file's entry has not changed since it last applied; change the entry to apply it"
      : "the config file's entry applies: it changed since it last applied";
  return { version, winner, fields, detail: `Lifecycle of ${version}: ${said}; ${outcome}.` };
}
