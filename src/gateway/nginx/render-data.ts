import { ErrorCode, errorTitles } from '../../core/errors/index.ts';
import { replacementName, type ElementDeprecation } from '../../core/lifecycle/index.ts';
import type { Brownout } from '../../core/notices/index.ts';
import type { VersionBundle } from '../../core/versions/index.ts';
import { statusOf } from '../../http/status-table.ts';
import type { LifecycleRuntime } from '../../loop/lifecycle/runtime-types.ts';
import type { NjsData, NjsParameter, NjsSchedule } from './njs/lifecycle.ts';

/** The codes nginx answers itself; their status and title come from the core's tables. */
const codes = [
  ErrorCode.NotFound,
  ErrorCode.VersionMissing,
  ErrorCode.VersionConflict,
  ErrorCode.VersionUnknown,
  ErrorCode.VersionRemoved,
  ErrorCode.NotAcceptable,
  ErrorCode.ElementRemoved,
  ErrorCode.Unauthenticated,
  ErrorCode.Forbidden,
  ErrorCode.RateLimited,
  ErrorCode.UpstreamUnreachable,
  ErrorCode.UpstreamTimeout,
  ErrorCode.MalformedRequest,
];

/**
 * The lifecycle as the njs module reads it, from the control plane's live runtime: each version's
 * schedule, endpoint and parameter deprecations, brownouts and documented operations. Dates are
 * epoch milliseconds; nginx writes the headers from them and the clock, so none of this goes
 * stale as time passes, only when the lifecycle changes.
 */
export function renderLifecycleData(options: {
  runtime: LifecycleRuntime;
  bundle: VersionBundle;
  prefix: string;
  vendor: string;
  removedStatus: 410 | 404;
  brownouts: readonly Brownout[];
  rate: { max: number; windowSeconds: number };
}): NjsData {
  const { runtime, bundle, prefix } = options;
  const versions = runtime.versions();
  const names = bundle.versions.map((v) => v.name);
  const schedules: Record<string, NjsSchedule> = {};
  const replacements: Record<string, string> = {};
  const guides: Record<string, string> = {};
  for (const [index, v] of versions.entries()) {
    guides[v.name] = runtime.migrationUrl(v.name);
    const replacement = v.replacement ?? versions.slice(index + 1).find((next) => !next.schedule)?.name;
    if (replacement) replacements[v.name] = replacement;
    if (!v.schedule) continue;
    schedules[v.name] = {
      deprecatedAt: v.schedule.deprecatedAt,
      sunsetAt: v.schedule.sunsetAt,
      removed: v.schedule.removed,
      migrationUrl: runtime.migrationUrl(v.name),
      subject: `API version ${v.name}`,
      replacement: replacement ?? '',
    };
  }
  const endpoints: Record<string, NjsSchedule> = {};
  for (const e of runtime.endpointDeprecations()) {
    endpoints[`${e.version} ${e.method} ${e.path}`] = {
      deprecatedAt: e.deprecatedAt,
      sunsetAt: e.sunsetAt,
      removed: false,
      migrationUrl: e.migrationUrl ?? runtime.migrationUrl(e.version),
      subject: `${e.method} ${e.path} in ${e.version}`,
      replacement: replacements[e.version] ?? '',
    };
  }
  return {
    prefix,
    vendor: options.vendor,
    style: runtime.headerStyle === 'rfc' ? 'rfc' : 'iso8601',
    removedStatus: options.removedStatus,
    versions: names,
    schedules,
    replacements,
    operations: Object.fromEntries(
      bundle.versions.map((v) => [
        v.name,
        v.operations.map((op) => ({ method: op.method, path: op.path, pattern: templatePattern(op.path) })),
      ]),
    ),
    endpoints,
    parameters: runtime.elements().flatMap((e) => (e.kind === 'parameter' ? [parameterOf(e, runtime)] : [])),
    brownouts: options.brownouts
      .filter((b) => b.clientId === undefined)
      .map((b) => ({
        id: b.id,
        version: b.version,
        endpoint: b.endpoint ?? '',
        startsAt: b.startsAt,
        endsAt: b.endsAt,
      })),
    listHeaders: runtime.listHeaders(),
    guides,
    rate: { ...options.rate, retrySeconds: Math.max(1, Math.ceil(options.rate.windowSeconds / options.rate.max)) },
    problems: Object.fromEntries(codes.map((code) => [code, [statusOf[code], errorTitles[code]]])),
  };
}

/** `/users/{id}` as a regular expression over the path below the version. */
function templatePattern(template: string): string {
  const parts = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return `^${parts.join('[^/]+')}$`;
}

function parameterOf(e: ElementDeprecation & { kind: 'parameter' }, runtime: LifecycleRuntime): NjsParameter {
  const guide = e.migrationUrl ?? runtime.migrationUrl(e.version);
  const instead = replacementName(e);
  return {
    version: e.version,
    endpoint: `${e.method.toUpperCase()} ${e.path}`,
    name: e.parameter.toLowerCase(),
    element: e.element,
    deprecatedAt: e.deprecatedAt,
    sunsetAt: e.sunsetAt,
    removed: false,
    migrationUrl: guide,
    subject: `${e.element} in ${e.version}`,
    replacement: instead ?? '',
    replacementName: instead ?? '',
    removedSentence: `${e.element} was deprecated in ${e.version} and is past its sunset, ${new Date(e.sunsetAt).toISOString()}: requests may no longer use it.${instead ? ` Use ${instead} instead.` : ''} The migration guide is at ${guide}.`,
    removedPointer: `/query/${e.parameter}`,
    removedDetail: instead ? `${e.element} is past its sunset; use ${instead}` : `${e.element} is past its sunset`,
  };
}
