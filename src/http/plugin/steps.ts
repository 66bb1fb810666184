import { negotiationStep } from '../negotiation.ts';
import { routeStep, type ListedStep } from '../pipeline/step-definition.ts';
import { unversionedVaryStep } from '../problem-handling.ts';
import { publicLifecycleHeadersStep } from '../public-lifecycle-headers.ts';
import { removedGateStep } from '../removed-gate.ts';
import { telemetryStep } from '../telemetry/telemetry-step.ts';
import { versionListHeadersStep } from '../version-list-headers.ts';

/**
 * The plugin's steps, in order, for an app that registers it without the loop (whose list, in
 * `loop/steps.ts`, holds these same definitions among its own): the plugin installs its steps from
 * it (`defaultSteps`, which imposes no order: such a context runs its steps in the order added).
 * Its routes' own steps (version, lifecycle, input) are marked too, so that the list is the
 * plugin's whole request and may also be given as a context's list (`listSteps`).
 */
export const pluginSteps: readonly ListedStep[] = [
  negotiationStep,
  unversionedVaryStep,
  versionListHeadersStep,
  removedGateStep,
  routeStep('version', 'negotiate'),
  routeStep('version', 'count-call'),
  routeStep('lifecycle', 'lifecycle-headers'),
  routeStep('lifecycle', 'on-versioned-request'),
  routeStep('lifecycle', 'deprecated-elements'),
  routeStep('lifecycle', 'method-not-allowed'),
  routeStep('input', 'query-integers'),
  routeStep('input', 'deprecated-elements'),
  routeStep('input', 'body-media-type'),
  publicLifecycleHeadersStep,
  telemetryStep,
];
