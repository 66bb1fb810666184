export { DAY_MS, MONTH_MS } from './durations.ts';
export type { Audience, DeprecationReason, DeprecationSchedule, LifecycleVersion } from './schedule.ts';
export type { LifecycleState } from './lifecycle-state.ts';
export { checkDeprecationStatus, type DeprecationStatus } from './deprecation-status.ts';
export { PolicyRule, createViolation, toPolicyError, type PolicyWarning } from './policy-report.ts';
export { checkNoticePeriod } from './schedule-rules.ts';
export { checkLifecycleConfig, assertLifecycleConfig } from './check-lifecycle-config.ts';
export {
  scheduleDeprecation,
  type ScheduleDeprecationOptions,
  type ScheduledDeprecation,
} from './schedule-deprecation.ts';
export {
  rescheduleDeprecation,
  type RescheduleDeprecationOptions,
  type RescheduledDeprecation,
} from './reschedule-deprecation.ts';
export { deprecationHeaders, type DeprecationHeaderStyle } from './deprecation-headers.ts';
export { versionListHeaders } from './version-list-headers.ts';
export { buildLifecycleDocument, undatedLifecycleDocument, type LifecycleDocument } from './lifecycle-document.ts';
export { evaluateVerdict, type LifecycleVerdict, type VerdictCandidate } from './lifecycle-verdict.ts';
export {
  deprecationDateKeys,
  deprecationDatesOf,
  deprecationDatesSchema,
  LifecycleConfigSchema,
  lifecycleConfigKeys,
  lifecycleShapeErrors,
  readEndpointEntry,
  readVersionEntry,
  type DeprecationDates,
  type EndpointLifecycle,
  type VersionLifecycle,
} from './lifecycle-schema.ts';
export { capErrors, checkLifecycleRules, closingErrors, cappedUntil } from './lifecycle-rules.ts';
export { declaredOrder, orderReleases } from './release-order.ts';
export {
  checkLifecycleConfigShape,
  createConfigLifecycle,
  type ConfigLifecycleOptions,
  type EndpointLifecycleConfig,
  type InstantInput,
  type LifecycleConfig,
  type LifecycleSource,
  type VersionLifecycleConfig,
} from './config-lifecycle.ts';
export { replacementName, type ElementDeprecation } from './element-deprecation.ts';
export { nextReplacement } from './replacement-rule.ts';
export { checkElementDeprecations, parseElementDeprecations } from './element-config.ts';
export { compileElementUses, looseQuery, type ElementUseCheck } from './element-uses.ts';
export { fieldSchemas, servedSchemas, successSchemas } from './element-schemas.ts';
export { elementVerdict } from './element-headers.ts';
export { buildDeprecationManifest, deprecationManifestType } from './deprecation-manifest.ts';
