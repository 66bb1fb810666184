import { echo, ErrorCode, VersionaryError } from '../../../core/errors/index.ts';

/** What `PATCH /admin/v1/clients/{id}` needs to set a client's minimum version. */
export interface MinimumVersionOptions {
  /** Every version the API knows, oldest first. */
  versions: () => readonly string[];
  /** Resolves once this instance's decision table holds the clients as stored now. */
  tableMoved: () => Promise<unknown>;
}

/**
 * The minimum version a merge patch leaves: absent keeps the current one, `null` clears it, a
 * version sets it. A version the API does not know is a 400 naming the ones it does: retiring
 * every version below a name that is not there would retire nothing anyone could read.
 */
export function patchedMinimumVersion(o: {
  input: string | null | undefined;
  current: string | undefined;
  versions: readonly string[];
}): string | undefined {
  if (o.input === undefined) return o.current;
  if (o.input === null) return undefined;
  if (o.versions.includes(o.input)) return o.input;
  throw new VersionaryError({
    code: ErrorCode.ValidationFailed,
    detail: `The request is invalid: "${echo(o.input)}" is not a version of this API (${o.versions.join(', ')}).`,
    errors: [{ pointer: '/body/minimumVersion', detail: `not a version of this API: ${o.versions.join(', ')}` }],
  });
}
