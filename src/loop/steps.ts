import { cachingResponseStep, conditionalHeaderLengthStep } from '../http/caching.ts';
import { identityEncodingStep } from '../http/json-body.ts';
import { lingeringCloseStep } from '../http/lingering-close.ts';
import { routeStep, type ListedStep } from '../http/pipeline/step-definition.ts';
import { apiGateSteps, inputRouteStepMarks, versionRouteStepMarks } from '../http/plugin/steps.ts';
import { publicLifecycleHeadersStep } from '../http/public-lifecycle-headers.ts';
import { telemetryStep } from '../http/telemetry/telemetry-step.ts';
import { strictRequestsStep } from '../http/request-target.ts';
import { securityHeadersResponseStep, securityHeadersStep } from '../http/security-headers.ts';
import { metricsStep } from '../kernel/ops/install-metrics.ts';
import { requestIdStep } from '../kernel/ops/install-ops.ts';
import { authenticateStep, authorizeStep } from './access/auth/authenticate.ts';
import {
  idempotencyAbortStep,
  idempotencyRecordStep,
  idempotencyReleaseStep,
  idempotencyStep,
} from './access/idempotency/install-idempotency.ts';
import { addressRateLimitStep, rateLimitStep } from './access/rate-limit/install-rate-limit.ts';
import { brownoutListingStep } from './notices/brownout-guard.ts';
import { sessionBudgetStep } from './portal/dashboard/session-budget.ts';
import { notFoundPageStep } from './portal/not-found-page.ts';
import { pageRateLimitStep } from './portal/page-rate-limit.ts';
import { usageStep } from './usage/usage-step.ts';

/**
 * Every per-request step of the loop, in the order a request meets them. The loop's pipeline runs
 * its steps in this order within each phase and refuses a step that is not here; each step is a
 * value that `needs` a typed key, and a part installs the steps of this list that need its keys by
 * providing their resources (`provideSteps(app, [[key, resource]])`), so this list is the whole
 * request: a new rule is its step value (its `defineStep`) plus one line here. Steps that
 * routes bring themselves (a version's negotiation, lifecycle and input steps, built per
 * operation) are named by `routeStep`, so that this list orders them too. `docs/architecture.md`'s
 * table is generated from what the pipeline compiles of it (`npm run steps-table`).
 */
export const loopSteps: readonly ListedStep[] = [
  // onRequest: refusals that need no credential, then who is calling and what they may do.
  strictRequestsStep,
  ...apiGateSteps,
  securityHeadersStep,
  addressRateLimitStep,
  pageRateLimitStep,
  authenticateStep,
  rateLimitStep,
  sessionBudgetStep,
  authorizeStep,
  conditionalHeaderLengthStep,
  // onRequest, a version's own routes: the version and its lifecycle.
  ...versionRouteStepMarks,
  // preParsing and preValidation: the body's encoding, then the input before validation.
  identityEncodingStep,
  ...inputRouteStepMarks,
  routeStep('input', 'webhook-urls'),
  // preHandler: with the body and the principal.
  idempotencyStep,
  // preSerialization and onSend: the answer on its way out.
  brownoutListingStep,
  publicLifecycleHeadersStep,
  requestIdStep,
  securityHeadersResponseStep,
  cachingResponseStep,
  notFoundPageStep,
  lingeringCloseStep,
  idempotencyRecordStep,
  telemetryStep,
  // onResponse, or onRequestAbort when the client left.
  metricsStep,
  usageStep,
  idempotencyReleaseStep,
  idempotencyAbortStep,
];
