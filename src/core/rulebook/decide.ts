import {
  brownoutRule,
  elementsRule,
  lifecycleRule,
  methodRule,
  minimumVersionRule,
  versionRule,
  type Rule,
} from './rules.ts';
import type { Decision, DecisionRule, DecisionTable, RequestFacts } from './table.ts';

/**
 * The request rules, in the order a request meets them: a new rule is its function and its line
 * here (and its rows in `test/support/parity-cases.ts`).
 */
const rulebook: readonly Rule[] = [
  versionRule,
  minimumVersionRule,
  lifecycleRule,
  methodRule,
  elementsRule,
  brownoutRule,
];

/**
 * Decide a request: the first refusal answers (with the headers the rules before it set), else it is
 * allowed with every rule's headers, a later rule's value replacing an earlier one's.
 */
export function decide(facts: RequestFacts, table: DecisionTable): Decision {
  let headers: Record<string, string> | undefined;
  let deprecated = false;
  let rule: DecisionRule | undefined;
  for (const judge of rulebook) {
    const decision = judge(facts, table);
    deprecated ||= decision.deprecated;
    if (decision.outcome === 'refuse')
      return headers === undefined
        ? { ...decision, deprecated }
        : { ...decision, headers: { ...headers, ...decision.headers }, deprecated };
    rule = decision.rule ?? rule;
    if (!isEmpty(decision.headers))
      headers = headers === undefined ? decision.headers : { ...headers, ...decision.headers };
  }
  return {
    outcome: 'allow',
    headers: headers ?? {},
    deprecated,
    ...(rule === undefined ? {} : { rule }),
  };
}

function isEmpty(headers: Record<string, string>): boolean {
  for (const _ in headers) return false;
  return true;
}
