export { DAY_MS, MONTH_MS } from './durations.ts';
export type { Audience, DeprecationReason, DeprecationSchedule } from './schedule.ts';
export type { LifecycleVersion } from './lifecycle-version.ts';

export type { LifecycleState } from './lifecycle-state.ts';
export { checkDeprecationStatus } from './deprecation-status.ts';
export type { DeprecationStatus } from './deprecation-status.ts';

export { PolicyRule, createViolation, toPolicyError } from './policy-report.ts';
export type { PolicyWarning } from './policy-report.ts';
export { checkNoticePeriod } from './schedule-rules.ts';

export { checkLifecycleConfig, assertLifecycleConfig } from './check-lifecycle-config.ts';

export { scheduleDeprecation } from './schedule-deprecation.ts';
export type { ScheduleDeprecationOptions, ScheduledDeprecation } from './schedule-deprecation.ts';
export { rescheduleDeprecation } from './reschedule-deprecation.ts';
export type { RescheduleDeprecationOptions, RescheduledDeprecation } from './reschedule-deprecation.ts';

export { deprecationHeaders } from './deprecation-headers.ts';
export type { DeprecationHeaderStyle } from './deprecation-headers.ts';
export { versionListHeaders } from './version-list-headers.ts';

export { buildLifecycleDocument } from './lifecycle-document.ts';
export type { LifecycleDocument } from './lifecycle-document.ts';

export { evaluateVerdict } from './lifecycle-verdict.ts';
export type { LifecycleVerdict, VerdictCandidate } from './lifecycle-verdict.ts';
export {
  deprecationDateKeys,
  deprecationDatesOf,
  deprecationDatesSchema,
  LifecycleConfigSchema,
  lifecycleConfigKeys,
  lifecycleShapeErrors,
  readEndpointEntry,
  readVersionEntry,
} from './lifecycle-schema.ts';
export type { DeprecationDates, EndpointLifecycle, VersionLifecycle } from './lifecycle-schema.ts';
export { capErrors, checkLifecycleRules, closingErrors } from './lifecycle-rules.ts';

export { declaredOrder, orderReleases } from './release-order.ts';

export { checkLifecycleConfigShape, createConfigLifecycle } from './config-lifecycle.ts';
export type {
  ConfigLifecycleOptions,
  EndpointLifecycleConfig,
  InstantInput,
  LifecycleConfig,
  LifecycleSource,
  VersionLifecycleConfig,
} from './config-lifecycle.ts';
export { replacementName } from './element-deprecation.ts';
export type { ElementDeprecation } from './element-deprecation.ts';
export { checkElementDeprecations, parseElementDeprecations } from './element-config.ts';

export { compileElementUses, looseQuery } from './element-uses.ts';
export { fieldSchemas, servedSchemas, successSchemas } from './element-schemas.ts';
export type { ElementUseCheck } from './element-uses.ts';
export { elementVerdict } from './element-headers.ts';

export { buildDeprecationManifest, deprecationManifestType } from './deprecation-manifest.ts';
export { cappedUntil } from './extended-access-cap.ts';
