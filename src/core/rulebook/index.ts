export type {
  BrownoutRow,
  ClientRow,
  Closing,
  Decision,
  DecisionRule,
  DecisionTable,
  ElementRow,
  HeaderSegment,
  ProblemRow,
  RatePolicies,
  RatePolicy,
  RequestFacts,
  RouteRow,
  RuleRow,
  RuleSegment,
} from './table.ts';
export { decisionTableFormat } from './table.ts';
export { decide, rulebook } from './decide.ts';
export { brownoutRule, elementsRule, lifecycleRule, ratePolicyOf, versionRule, type Rule } from './rules.ts';
export { canonicalPath, originFormOf, targetProblem, targetRefusalOf, targetRefusals } from './canonical-path.ts';
export type { TargetRefusal } from './canonical-path.ts';
export { headersAt, segmentAt } from './segments.ts';
export { sampleSegments, type Sample } from './sample-segments.ts';
export { ruleMethodOf } from './route-index.ts';
