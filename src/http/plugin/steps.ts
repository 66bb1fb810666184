import { negotiationStep } from '../negotiation.ts';
import { routeStep, type ListedStep } from '../pipeline/step-definition.ts';
import { unversionedVaryStep } from '../problem-handling.ts';
import { publicLifecycleHeadersStep } from '../public-lifecycle-headers.ts';
import { removedGateStep } from '../removed-gate.ts';
import { telemetryStep } from '../telemetry/telemetry-step.ts';
import { versionListHeadersStep } from '../version-list-headers.ts';

/** The versioned API's gate, before any credential is read: `Accept`, `Vary`, the version lists, removals. */
export const apiGateSteps: readonly ListedStep[] = [
  negotiationStep,
  unversionedVaryStep,
  versionListHeadersStep,
  removedGateStep,
];

/** The steps a version's routes bring themselves (`versionRouteSteps`, the method guard), in order. */
export const versionRouteStepMarks: readonly ListedStep[] = [
  routeStep('version', 'negotiate'),
  routeStep('version', 'count-call'),
  routeStep('lifecycle', 'rulebook'),
  routeStep('lifecycle', 'lifecycle-headers'),
  routeStep('lifecycle', 'on-versioned-request'),
  routeStep('lifecycle', 'deprecated-elements'),
  routeStep('lifecycle', 'method-not-allowed'),
];

/** An operation's own input steps, before validation, in order. */
export const inputRouteStepMarks: readonly ListedStep[] = [
  routeStep('input', 'query-integers'),
  routeStep('input', 'deprecated-elements'),
  routeStep('input', 'body-media-type'),
];

/** The plugin's steps, in order, without the loop; the loop's list places the same groups among its own. */
export const pluginSteps: readonly ListedStep[] = [
  ...apiGateSteps,
  ...versionRouteStepMarks,
  ...inputRouteStepMarks,
  publicLifecycleHeadersStep,
  telemetryStep,
];
