/** What one bench part reports: a table for people and a JSON record for machines. */
export interface BenchReport {
  title: string;
  rows: Record<string, string | number>[];
  json: Record<string, unknown>;
}

/** A bench part: runs and resolves to its report. */
export type BenchPart = () => Promise<BenchReport>;
