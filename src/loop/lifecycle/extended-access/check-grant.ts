import type { Static } from '@sinclair/typebox';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import { formatIsoInstant, parseIsoInstant } from '../../../core/time/index.ts';
import type { ExtendedAccessSubject } from '../../../kernel/ports/index.ts';
import type { LifecycleRuntime } from '../runtime.ts';
import { endpointsOf } from '../runtime-verdict.ts';
import type { grantExtendedAccessSchema } from './schemas.ts';

export type GrantBody = Static<typeof grantExtendedAccessSchema.body>;

type Problem = { pointer: string; detail: string };

/** Check a grant against the lifecycle as it is; every mistake is listed in one 400 problem. */
export function checkGrant(o: { body: GrantBody; runtime: LifecycleRuntime; now: number; clientKnown: boolean }): {
  subject: ExtendedAccessSubject;
  until: number;
} {
  const { body, runtime, now } = o;
  const errors: Problem[] = [];
  if (!o.clientKnown) errors.push({ pointer: '/body/clientId', detail: `no client ${body.clientId.slice(0, 60)}` });
  const until = parseIsoInstant(body.until);
  if (until === undefined) errors.push({ pointer: '/body/until', detail: 'not an ISO 8601 date' });
  else if (until <= now) errors.push({ pointer: '/body/until', detail: 'not in the future' });
  const found = subjectOf(body, runtime, errors);
  if (found && until !== undefined) {
    if (found.cap === undefined)
      errors.push({
        pointer: found.pointer,
        detail: `${found.name} has no extendedAccessUntil cap: no extended access can be granted`,
      });
    else if (until > found.cap)
      errors.push({
        pointer: '/body/until',
        detail: `after the cap of ${found.name} (${formatIsoInstant(found.cap)})`,
      });
  }
  if (errors.length > 0 || !found || until === undefined)
    throw new VersionaryError({
      code: ErrorCode.ValidationFailed,
      detail: `The grant cannot be granted: ${errors.map((e) => `${e.pointer} ${e.detail}`).join('; ')}.`,
      errors,
    });
  return { subject: found.subject, until };
}

function subjectOf(
  body: GrantBody,
  runtime: LifecycleRuntime,
  errors: Problem[],
): { subject: ExtendedAccessSubject; cap: number | undefined; name: string; pointer: string } | undefined {
  const given = [body.endpoint, body.element].filter((v) => v !== undefined).length;
  if (given > 1 || (given === 0 && body.version === undefined)) {
    errors.push({ pointer: '/body', detail: 'give exactly one of version, endpoint, element (with version)' });
    return undefined;
  }
  if (body.endpoint && body.version !== undefined && body.version !== body.endpoint.version) {
    errors.push({ pointer: '/body/version', detail: 'differs from endpoint.version' });
    return undefined;
  }
  const version = body.endpoint?.version ?? body.version!;
  const subject: ExtendedAccessSubject = body.endpoint
    ? { kind: 'endpoint', version, method: body.endpoint.method.toUpperCase(), path: body.endpoint.path }
    : body.element !== undefined
      ? { kind: 'element', version, element: body.element }
      : { kind: 'version', version };
  const name =
    subject.kind === 'version'
      ? version
      : `${subject.kind === 'endpoint' ? `${subject.method} ${subject.path}` : subject.element} in ${version}`;
  const known =
    subject.kind === 'endpoint'
      ? endpointsOf(runtime.endpointDeprecations(), subject).length > 0
      : subject.kind === 'element'
        ? runtime.elements().some((e) => e.version === version && e.element === body.element)
        : runtime.versions().find((v) => v.name === version)?.schedule !== undefined;
  const pointer = `/body/${subject.kind}`;
  if (!known) {
    errors.push({ pointer, detail: `${name} is not a deprecated ${subject.kind}` });
    return undefined;
  }
  return { subject, cap: subjectCap(runtime, subject), name, pointer };
}

/** The cap (`extendedAccessUntil`) of a subject, or undefined when none can be granted. */
export function subjectCap(runtime: LifecycleRuntime, s: ExtendedAccessSubject): number | undefined {
  if (s.kind === 'endpoint') return endpointsOf(runtime.endpointDeprecations(), s)[0]?.extendedAccessUntil;
  if (s.kind === 'element')
    return runtime.elements().find((e) => e.version === s.version && e.element === s.element)?.extendedAccessUntil;
  return runtime.scheduleOf(s.version)?.extendedAccessUntil;
}
