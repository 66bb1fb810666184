export type {
  BrownoutRow,
  ClientRow,
  Closing,
  DecisionTable,
  ElementRow,
  HeaderSegment,
  ProblemRow,
  RatePolicies,
  RequestFacts,
  RouteRow,
  RuleSegment,
} from './table.ts';
export { decisionTableFormat } from './table.ts';
export { decide } from './decide.ts';
export { brownoutRule } from './rules.ts';
export {
  canonicalPath,
  targetProblem,
  targetRefusals,
  targetUndecodable,
  targetUnreadable,
  undecodableTargetProblem,
  unreadableTargetProblem,
} from './canonical-path.ts';
export type { TargetRefusal } from './canonical-path.ts';
export { sampleSegments, type Sample } from './sample-segments.ts';
export { methodsAt, ruleMethodOf, templateAt } from './route-index.ts';
export { allowOf } from './problems.ts';
