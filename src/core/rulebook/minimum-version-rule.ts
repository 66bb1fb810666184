import { problemOf } from './judge-row.ts';
import type { Rule } from './rules.ts';
import type { Decision, DecisionTable } from './table.ts';

const allowed: Decision = Object.freeze({
  outcome: 'allow',
  headers: Object.freeze({}),
  deprecated: false,
}) as Decision;

/**
 * A client's minimum version: set once a client has migrated, so that it never slides back. Its
 * calls to a version older than its minimum (in the table's `versions` order) are refused with
 * the 410 that names the minimum and links to it; every other client, and an anonymous call, is
 * judged as before. A minimum the table does not know (a version since dropped) retires nothing.
 */
export const minimumVersionRule: Rule = (facts, table) => {
  const client = facts.principal?.client;
  if (client === undefined || facts.version === undefined) return allowed;
  const minimum = table.minimumVersions?.[client];
  if (minimum === undefined) return allowed;
  const asked = table.versions.indexOf(facts.version);
  const floor = table.versions.indexOf(minimum.version);
  if (asked === -1 || floor === -1 || asked >= floor) return allowed;
  return {
    outcome: 'refuse',
    headers: {},
    problem: problemOf(table, minimum.problem),
    rule: 'minimum_version',
    deprecated: false,
  };
};

/**
 * Whether some client's minimum version is after `version`: a data plane that refuses a removed
 * version before the caller is known waits for the caller instead, whose own minimum answers first.
 */
export function retiresSome(table: DecisionTable, version: string): boolean {
  const asked = table.versions.indexOf(version);
  if (asked === -1 || table.minimumVersions === undefined) return false;
  for (const client in table.minimumVersions)
    if (table.versions.indexOf(table.minimumVersions[client]!.version) > asked) return true;
  return false;
}
