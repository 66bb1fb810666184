export { DAY_MS, MONTH_MS, ENDING_SOON_AFTER_MS, WARNING_WINDOW_MS, monthsToMs, formatDays } from './durations.ts';
export type { Audience, DeprecationReason, DeprecationSchedule } from './schedule.ts';
export type { LifecycleVersion } from './lifecycle-version.ts';
export { lifecycleTransitions, canTransition, transition, stateAt } from './lifecycle-state.ts';
export type { LifecycleState, LifecycleEvent, LifecycleTransition, StateAtOptions } from './lifecycle-state.ts';
export { checkDeprecationStatus } from './deprecation-status.ts';
export type {
  DeprecationStatus,
  CheckDeprecationStatusOptions,
  DeprecationStatusResult,
} from './deprecation-status.ts';
export { nextLifecycleChange, earliest } from './next-change.ts';
export type { NextLifecycleChangeOptions } from './next-change.ts';
export { PolicyRule, createViolation, toPolicyError } from './policy-report.ts';
export type { PolicyWarning, PolicyReport, CreateViolationOptions, ToPolicyErrorOptions } from './policy-report.ts';
export { minimumNoticeMs, checkNoticePeriod, checkConcreteSunset, checkSunsetOrder } from './schedule-rules.ts';
export type { CheckNoticePeriodOptions, CheckConcreteSunsetOptions } from './schedule-rules.ts';
export { resolveReplacement, checkVersionKnown, checkReplacementExists } from './replacement-rule.ts';
export type { ReplacementOptions } from './replacement-rule.ts';
export { BREAKING_SPACING_MS, checkBreakingSpacing } from './breaking-spacing.ts';
export { checkSchedulePolicy } from './check-schedule-policy.ts';
export type { CheckSchedulePolicyOptions } from './check-schedule-policy.ts';
export { checkLifecycleConfig, assertLifecycleConfig, checkMigrationGuide } from './check-lifecycle-config.ts';
export type { CheckLifecycleConfigOptions } from './check-lifecycle-config.ts';
export { scheduleDeprecation } from './schedule-deprecation.ts';
export type { ScheduleDeprecationOptions, ScheduledDeprecation } from './schedule-deprecation.ts';
export { rescheduleDeprecation } from './reschedule-deprecation.ts';
export type { RescheduleDeprecationOptions, RescheduledDeprecation } from './reschedule-deprecation.ts';
export { readNoticeMonths, readScheduleInstant } from './schedule-input.ts';
export type { ReadNoticeMonthsOptions, ReadScheduleInstantOptions } from './schedule-input.ts';
export { quoteHeaderText, linkTarget } from './header-text.ts';
export { deprecationHeaders } from './deprecation-headers.ts';
export type {
  DeprecationHeaderStyle,
  HeaderSchedule,
  DeprecationHeadersOptions,
  DeprecationHeaders,
} from './deprecation-headers.ts';
export { formatVersionList, versionListHeaders } from './version-list-headers.ts';
export type { VersionListHeadersOptions, VersionListHeaders } from './version-list-headers.ts';
export { buildLifecycleDocument } from './lifecycle-document.ts';
export type { LifecycleDocument, LifecycleDocumentEntry, BuildLifecycleDocumentOptions } from './lifecycle-document.ts';
export { summarizeUsage } from './usage-summary.ts';
export type { UsageRecord, VersionUsage, SummarizeUsageOptions } from './usage-summary.ts';
export { evaluateVerdict } from './lifecycle-verdict.ts';
export type { LifecycleVerdict, VerdictCandidate, EvaluateVerdictOptions } from './lifecycle-verdict.ts';
export {
  EndpointLifecycleSchema,
  FieldDeprecationSchema,
  LifecycleConfigSchema,
  ParameterDeprecationSchema,
  VersionLifecycleSchema,
  lifecycleConfigKeys,
  lifecycleShapeErrors,
} from './lifecycle-schema.ts';
export { capErrors, checkLifecycleRules, closingErrors, instantMs } from './lifecycle-rules.ts';
export type { CheckLifecycleRulesOptions } from './lifecycle-rules.ts';
export { declaredOrder, orderReleases } from './release-order.ts';
export type { OrderedRelease, ReleaseInput } from './release-order.ts';
export { checkLifecycleConfigShape, createConfigLifecycle } from './config-lifecycle.ts';
export type {
  ConfigLifecycleOptions,
  EndpointLifecycleConfig,
  InstantInput,
  LifecycleConfig,
  LifecycleSource,
  VersionLifecycleConfig,
} from './config-lifecycle.ts';
export { elementName, replacementName } from './element-deprecation.ts';
export type {
  ElementDeprecation,
  FieldDeprecationConfig,
  FieldElement,
  ParameterDeprecationConfig,
  ParameterElement,
} from './element-deprecation.ts';
export { checkElementDeprecations, parseElementDeprecations } from './element-config.ts';
export type { ElementVersionShape } from './element-config.ts';
export { compileElementUses, looseQuery } from './element-uses.ts';
export { fieldSchemas, ofResource, propertiesOf, servedSchemas, successSchemas } from './element-schemas.ts';
export type { ElementUseCheck, ElementUseInput } from './element-uses.ts';
export { elementVerdict } from './element-headers.ts';
export type { CurrentDeprecationHeaders, ElementVerdictOptions } from './element-headers.ts';
export { buildDeprecationManifest, deprecationManifestType } from './deprecation-manifest.ts';
export type {
  DeprecationManifest,
  DeprecationManifestEntry,
  DeprecationManifestSource,
  ManifestEndpoint,
} from './deprecation-manifest.ts';
export { cappedUntil } from './extended-access-cap.ts';
