// The changelog's entry, in a leaf: changelog.ts builds entries and element-entries.ts adds its own,
// so neither imports the other for the type.

/** What happened, in the changelog's words. */
type ChangelogKind =
  | 'released'
  | 'deprecated'
  | 'endpoint_deprecated'
  | 'element_deprecated'
  | 'closed_to_new_clients'
  | 'reminder'
  | 'brownout'
  | 'removed';

/** One dated event of the changelog. */
export interface ChangelogEntry {
  /** Stable across rebuilds, so feed readers do not show an entry twice. */
  id: string;
  at: number;
  kind: ChangelogKind;
  version: string;
  title: string;
  summary: string;
  /** The declared changes a release brings (empty for lifecycle events). */
  changes: string[];
  /** `METHOD /path` when the event concerns one endpoint. */
  endpoint?: string;
  /** `User.nickname` or `GET /users?order` when the event concerns one field or query parameter. */
  element?: string;
  guideUrl?: string;
}
