export * from './table.ts';
export { decide } from './decide.ts';
export { ratePolicyOf, retiresSome } from './rules.ts';
export { targetProblem, targetRefusals, undecodableTargetProblem, unreadableTargetProblem } from './canonical-path.ts';
export type { TargetRefusal } from './canonical-path.ts';
export { sampleSegments, type Sample } from './sample-segments.ts';
