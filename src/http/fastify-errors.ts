import { echo, ErrorCode, isVersionaryError, VersionaryError, type FieldError } from '../core/errors/index.ts';
import { patternRule } from '../core/text/index.ts';

interface AjvIssue {
  instancePath?: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

interface FrameworkError {
  code?: string;
  statusCode?: number;
  message?: string;
  validation?: AjvIssue[];
  validationContext?: string;
}

const byFastifyCode: Record<string, { code: ErrorCode; detail: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: ErrorCode.UnsupportedMediaType,
    detail: 'The request body must be application/json (application/merge-patch+json for PATCH).',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: ErrorCode.MalformedRequest,
    detail: 'Content-Length does not match the body.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: ErrorCode.PayloadTooLarge, detail: 'The request body is larger than the limit.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: ErrorCode.MalformedRequest, detail: 'The body is empty; send a JSON object.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: ErrorCode.MalformedRequest, detail: 'The body is not valid JSON.' },
  FST_ERR_BAD_URL: { code: ErrorCode.NotFound, detail: 'The URL cannot be decoded.' },
  FST_ERR_ASYNC_CONSTRAINT: { code: ErrorCode.MalformedRequest, detail: 'The request could not be routed.' },
};

const byStatus: Record<number, { code: ErrorCode; detail: string }> = {
  413: { code: ErrorCode.PayloadTooLarge, detail: 'The request body is larger than the limit.' },
  415: { code: ErrorCode.UnsupportedMediaType, detail: 'Unsupported Content-Type.' },
};

/** Whatever a request failed with as a {@link VersionaryError}; `undefined` (a 500) when unknown. */
export function fromFrameworkError(error: unknown): VersionaryError | undefined {
  if (isVersionaryError(error)) return error;
  const e = (error ?? {}) as FrameworkError;
  if (Array.isArray(e.validation)) return fromValidation(e.validation, e.validationContext ?? 'body');
  const known = e.code ? byFastifyCode[e.code] : undefined;
  if (known) return new VersionaryError({ ...known, cause: error });
  if (error instanceof SyntaxError || e.statusCode === 400) {
    return new VersionaryError({
      code: ErrorCode.MalformedRequest,
      detail: echo(e.message ?? '') || 'The request is malformed.',
      cause: error,
    });
  }
  const byCode = e.statusCode === undefined ? undefined : byStatus[e.statusCode];
  return byCode && new VersionaryError(byCode);
}

function fromValidation(issues: AjvIssue[], context: string): VersionaryError {
  const part = context === 'querystring' ? 'query' : context;
  const errors: FieldError[] = issues.slice(0, 20).map((issue) => {
    const extra = issue.params?.missingProperty ?? issue.params?.additionalProperty;
    const pointer = echo(`/${part}${issue.instancePath ?? ''}${extra !== undefined ? `/${String(extra)}` : ''}`);
    return { pointer, detail: issueDetail(issue, extra) };
  });
  const first = errors[0];
  return new VersionaryError({
    code: ErrorCode.ValidationFailed,
    detail: first ? `The ${part} is invalid: ${first.pointer} ${first.detail}.` : `The ${part} is invalid.`,
    errors,
  });
}

function issueDetail(issue: AjvIssue, extra: unknown): string {
  if (issue.keyword === 'additionalProperties') return `unknown field "${echo(String(extra))}" for this API version`;
  if (issue.keyword === 'required') return `"${String(extra)}" is required`;
  // An enum names what it takes (a version of the API, a role), which Ajv's own message does not.
  const allowed = issue.keyword === 'enum' ? issue.params?.allowedValues : undefined;
  if (Array.isArray(allowed)) return `must be one of ${allowed.map((v) => echo(String(v))).join(', ')}`;
  // A shared pattern (one line of text, a migration URL) is told by its rule, not its regular expression.
  const rule = issue.keyword === 'pattern' ? patternRule(issue.params?.pattern) : undefined;
  return rule ?? issue.message ?? 'is invalid';
}
