import type { ErrorCode } from './codes.ts';

/** A field-level problem, as listed in a problem body's `errors` member. */
export interface FieldError {
  /** JSON pointer into the request part (`/body/name`, `/query/limit`). */
  pointer: string;
  detail: string;
}

/** Options for {@link VersionaryError}. */
export interface VersionaryErrorOptions {
  code: ErrorCode;
  detail: string;
  errors?: FieldError[];
  /** Extension members copied into the problem body (for example `supportedVersions`). */
  extensions?: Record<string, unknown>;
  /** Response headers the error implies (`Allow`, `Retry-After`, ...). */
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * The one error type raised by core and the service. It carries a stable code and never an HTTP
 * status: the adapter maps codes to statuses.
 *
 * @example
 * ```ts
 * throw new VersionaryError({ code: ErrorCode.VersionUnknown, detail: 'v9 is not published.' });
 * ```
 */
export class VersionaryError extends Error {
  readonly code: ErrorCode;
  readonly detail: string;
  readonly errors: FieldError[] | undefined;
  readonly extensions: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(options: VersionaryErrorOptions) {
    super(options.detail, { cause: options.cause });
    this.name = 'VersionaryError';
    this.code = options.code;
    this.detail = options.detail;
    this.errors = options.errors;
    this.extensions = options.extensions ?? {};
    this.headers = options.headers ?? {};
  }
}

/**
 * Narrow an unknown thrown value to a {@link VersionaryError}.
 *
 * @example
 * ```ts
 * if (isVersionaryError(err)) console.log(err.code);
 * ```
 */
export function isVersionaryError(value: unknown): value is VersionaryError {
  return value instanceof VersionaryError;
}

const maxEcho = 200;

/**
 * Client input as an error message may repeat it: at most {@link maxEcho} characters, with an
 * ellipsis when cut, so a 60 kB header never comes back whole in a problem body.
 */
export function echo(input: string, max = maxEcho): string {
  return input.length <= max ? input : `${input.slice(0, max)}…`;
}
