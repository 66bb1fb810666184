import { echo, ErrorCode, VersionaryError } from '../errors/index.ts';
import type { Brownout } from '../notices/types.ts';
import { formatIsoInstant } from '../time/index.ts';

/**
 * Every refusal a request rule answers, worded once: the lifecycle, the client access, the
 * brownout guard, the strict target check and the decision table all build their problems here.
 */

/** Where the callers of a removed or closed subject go: its replacement, when it has one, and its guide. */
interface Move {
  replacement: string | undefined;
  guide: string;
}

function moveSentence({ replacement, guide }: Move): string {
  return replacement
    ? ` Use ${replacement} instead; the migration guide is at ${guide}.`
    : ` The migration guide is at ${guide}.`;
}

/** A version or endpoint past its sunset: 410 (`VERSION_REMOVED`), or 404 when so configured. */
export function removedProblem(o: Move & { subject: string; sunsetAt: number; status: 410 | 404 }): VersionaryError {
  return new VersionaryError({
    code: o.status === 404 ? ErrorCode.NotFound : ErrorCode.VersionRemoved,
    detail: `${o.subject} was removed at its sunset date, ${formatIsoInstant(o.sunsetAt)}.${moveSentence(o)}`,
    extensions: {
      replacement: o.replacement ?? null,
      migrationGuide: o.guide,
      sunsetAt: formatIsoInstant(o.sunsetAt),
    },
  });
}

/**
 * An operation a newer version removed with nothing serving it, called in the older version that
 * still documents it (a derived version): 410 (`ENDPOINT_REMOVED`), never forwarded.
 */
export function endpointRemovedProblem(o: { endpoint: string; removedIn: string; version: string }): VersionaryError {
  return new VersionaryError({
    code: ErrorCode.EndpointRemoved,
    detail: `${echo(o.endpoint)} was removed in ${o.removedIn}; ${o.version} answers it 410.`,
  });
}

/** A path a derived version has no operation at: 404, rather than forward it untranslated. */
export function notServedProblem(o: { path: string; version: string }): VersionaryError {
  return new VersionaryError({ code: ErrorCode.NotFound, detail: `${o.version} has no operation at ${echo(o.path)}.` });
}

/** A subject closed to new clients, refused to a client that had not called it before: 403. */
export function closedProblem(o: Move & { what: string; at: number }): VersionaryError {
  return new VersionaryError({
    code: ErrorCode.ClosedToNewClients,
    detail: `${o.what} is closed to new clients since ${formatIsoInstant(o.at)}, and this client had not called it before.${moveSentence(o)}`,
    extensions: {
      replacement: o.replacement ?? null,
      migrationGuide: o.guide,
      closedToNewClientsAt: formatIsoInstant(o.at),
    },
  });
}

/** A version older than its client's minimum: 410, with a `Link` to the minimum version's document. */
export function retiredForClientProblem(o: { minimumVersion: string; prefix: string }): VersionaryError {
  const successor = `${o.prefix}/${o.minimumVersion}/openapi.json`;
  return new VersionaryError({
    code: ErrorCode.VersionRetiredForClient,
    detail: `This client has moved to ${o.minimumVersion}: the versions before it no longer answer its calls. Use ${o.minimumVersion} (${successor}); the API's operators can lower the client's minimum version.`,
    extensions: { minimumVersion: o.minimumVersion },
    headers: { link: `<${successor}>; rel="successor-version"` },
  });
}

/**
 * A call refused during a brownout (a rehearsal for one client, one aimed at some, or everyone's), as
 * the removal will refuse it. `retry-after` is left to the caller: it counts down to the window's end.
 */
export function brownoutProblem(o: {
  brownout: Pick<Brownout, 'id' | 'startsAt' | 'endsAt' | 'endpoint' | 'clientId' | 'clients'>;
  version: string;
  sunsetAt: number | undefined;
  guide: string;
  status: 410 | 404;
}): VersionaryError {
  const b = o.brownout;
  const removalAt = o.sunsetAt === undefined ? null : formatIsoInstant(o.sunsetAt);
  const what = b.endpoint ? `${b.endpoint} in ${o.version}` : o.version;
  const kind = b.clientId
    ? 'brownout rehearsal for your client'
    : b.clients
      ? 'planned brownout aimed at your client'
      : 'planned brownout';
  return new VersionaryError({
    code: o.status === 404 ? ErrorCode.NotFound : ErrorCode.VersionRemoved,
    detail: `${what} is in a ${kind} until ${formatIsoInstant(b.endsAt)}: it answers as it will after its removal${removalAt ? ` on ${removalAt}` : ''}. Migrate before then.`,
    extensions: {
      brownout: {
        id: b.id,
        startsAt: formatIsoInstant(b.startsAt),
        endsAt: formatIsoInstant(b.endsAt),
        rehearsal: b.clientId !== undefined,
      },
      removalAt,
      migrationGuide: o.guide,
    },
  });
}

/** A deprecated element (field or parameter) used past its sunset. */
export interface PastElement {
  element: string;
  version: string;
  sunsetAt: number;
  /** The replacement's own name (`GET /users?sort`), when there is one. */
  replacement: string | undefined;
  guide: string;
  /** `/query/order` or `/body/nickname`. */
  pointer: string;
}

/** Elements used past their sunset: 400 (`ELEMENT_REMOVED`), one sentence and one error each. */
export function elementRemovedProblem(past: readonly PastElement[]): VersionaryError {
  const sentences = past.map((e) => {
    const instead = e.replacement ? ` Use ${e.replacement} instead.` : '';
    return `${e.element} was deprecated in ${e.version} and is past its sunset, ${formatIsoInstant(e.sunsetAt)}: requests may no longer use it.${instead} The migration guide is at ${e.guide}.`;
  });
  return new VersionaryError({
    code: ErrorCode.ElementRemoved,
    detail: sentences.join(' '),
    errors: past.map((e) => ({
      pointer: e.pointer,
      detail: e.replacement
        ? `${e.element} is past its sunset; use ${e.replacement}`
        : `${e.element} is past its sunset`,
    })),
    extensions: {
      elements: past.map((e) => ({
        element: e.element,
        version: e.version,
        sunsetAt: formatIsoInstant(e.sunsetAt),
        replacement: e.replacement ?? null,
        migrationGuide: e.guide,
      })),
    },
  });
}

/** A negotiation refusal's own members, and the versions the API supports, which it names. */
type Negotiation<T> = T & { supported: readonly string[] };

/** A refusal of the version negotiation: it names the versions the API supports. */
function negotiationProblem(code: ErrorCode, detail: string, supported: readonly string[]): VersionaryError {
  return new VersionaryError({ code, detail, extensions: { supportedVersions: [...supported] } });
}

/** A version the API does not publish, named in the path or (`source: 'accept'`) in `Accept`. */
export function unknownVersionProblem(o: Negotiation<{ name: string; source: 'path' | 'accept' }>): VersionaryError {
  const named = o.source === 'path' ? echo(o.name) : `Accept names ${o.name}, which`;
  const detail = `${named} is not a published version. Supported versions: ${o.supported.join(', ')}.`;
  return negotiationProblem(ErrorCode.VersionUnknown, detail, o.supported);
}

/** An API path with no version in it nor in `Accept`. */
export function versionMissingProblem(o: Negotiation<{ prefix: string; vendor: string }>): VersionaryError {
  const detail = `No API version given. Use ${o.prefix}/v<n>/... or Accept: application/vnd.${o.vendor}.v<n>+json. Supported versions: ${o.supported.join(', ')}.`;
  return negotiationProblem(ErrorCode.VersionMissing, detail, o.supported);
}

/** `Accept` names a version that cannot be read (`version=abc`): 400 `VERSION_MISSING`. */
export function acceptUnreadableProblem(o: Negotiation<{ ranges: string }>): VersionaryError {
  const detail = `Accept names a version that cannot be read (${o.ranges}). Supported versions: ${o.supported.join(', ')}.`;
  return negotiationProblem(ErrorCode.VersionMissing, detail, o.supported);
}

/** `Accept` names several versions: 400 `VERSION_CONFLICT`. */
export function acceptSeveralProblem(o: Negotiation<{ versions: string }>): VersionaryError {
  const detail = `Accept names several versions (${o.versions}); name one.`;
  return negotiationProblem(ErrorCode.VersionConflict, detail, o.supported);
}

/** The path and `Accept` name different versions: 400 `VERSION_CONFLICT`. */
export function versionConflictProblem(o: Negotiation<{ path: string; accept: string }>): VersionaryError {
  const detail = `The path says ${o.path} but Accept says ${o.accept}.`;
  return negotiationProblem(ErrorCode.VersionConflict, detail, o.supported);
}

/** `Accept` admits no JSON: 406 `NOT_ACCEPTABLE`. */
export function notAcceptableProblem(o: { supported: readonly string[] }): VersionaryError {
  const detail = 'This API answers only with JSON: accept application/json or a versioned media type.';
  return negotiationProblem(ErrorCode.NotAcceptable, detail, o.supported);
}

/** The upstream could not be reached, or did not answer in time: 502 or 504. */
export function upstreamProblem(timedOut: boolean): VersionaryError {
  return new VersionaryError(
    timedOut
      ? { code: ErrorCode.UpstreamTimeout, detail: 'The upstream did not answer in time.' }
      : { code: ErrorCode.UpstreamUnreachable, detail: 'The upstream could not be reached.' },
  );
}

/**
 * A call on what only nginx and its control plane exchange (the table, the key check, the push
 * socket) without their shared secret: 401 `UNAUTHENTICATED`.
 */
export function dataPlaneSecretProblem(): VersionaryError {
  return new VersionaryError({
    code: ErrorCode.Unauthenticated,
    detail:
      "Only nginx and its control plane exchange this: the call lacks the data plane's shared secret (docs/gateway.md#the-shared-secret).",
  });
}

/** The `Allow` of a path: its operations' methods, HEAD beside GET, OPTIONS, and never TRACE (never served). */
export function allowOf(declared: Iterable<string>): string {
  const methods = [...new Set(declared)].filter((m) => m !== 'TRACE' && m !== 'HEAD' && m !== 'OPTIONS');
  return [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
}

/** A method the path has no operation for (or TRACE): 405 `METHOD_NOT_ALLOWED`, with `Allow`. */
export function methodNotAllowedProblem(o: { method: string; allow: string }): VersionaryError {
  return new VersionaryError({
    code: ErrorCode.MethodNotAllowed,
    detail: `${echo(o.method)} is not supported here. Allowed: ${o.allow}.`,
    headers: { allow: o.allow },
  });
}
