import { isVersionaryError, type VersionaryError } from '../../core/errors/index.ts';

/** What {@link readableStartFailure} throws: one readable message, and the original error behind it. */
export interface StartFailure extends Error {
  code: string;
  detail: string;
  /** The configuration, policy or handler error itself, with its `errors` and `extensions`. */
  versionaryError: VersionaryError;
}

/**
 * A start-up error made to print once, readably: message and stack are one text; `code`, `detail` and
 * `versionaryError` stay readable by code but out of Node's print, which would repeat the text thrice.
 */
export function readableStartFailure(error: unknown, what: string): unknown {
  if (!isVersionaryError(error)) return error;
  const text = `${what} cannot start: ${error.code}: ${error.detail}`;
  const failure = new Error(text);
  const hidden = (value: unknown) => ({ value, enumerable: false, writable: true, configurable: true });
  Object.defineProperties(failure, {
    stack: hidden(text),
    code: hidden(error.code),
    detail: hidden(error.detail),
    versionaryError: hidden(error),
  });
  return failure as StartFailure;
}
