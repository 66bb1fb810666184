import { Type, type TSchema } from '@sinclair/typebox';
import { reasonTextPattern } from '../../core/text/index.ts';
import { problemSchema } from '../../core/versions/index.ts';
import { requestHeadLimit } from '../../kernel/app/request-head.ts';

// Pieces of `/admin/v1` route schemas several parts use: beneath the parts, so none imports another for them.

const problem = (description: string): TSchema => Type.Unsafe({ ...problemSchema, description });

/** A route's responses by status, a problem for each given as its description; 401, 403, 429 and 503 are added by the document generator. */
export const responses = (byStatus: Record<number, object | string>) =>
  Object.fromEntries(
    Object.entries(byStatus).map(([status, r]) => [status, typeof r === 'string' ? problem(r) : r]),
  ) as Record<number, TSchema>;

// Routes without query parameters refuse unknown ones, as the rest of the management API does.
const NoQuery = Type.Object({}, { additionalProperties: false });

/**
 * An admin route's schema, a problem for each response given as its description. Without a
 * `querystring` of its own a route takes no query parameter: an unknown one is a 400.
 */
export function adminRoute<S extends { response: Record<number, object | string> }>(schema: S) {
  return {
    querystring: NoQuery,
    ...schema,
    response: responses({ 400: 'An unknown query parameter', ...schema.response }),
  };
}

/** `?limit=` of a paged admin list: one shape for every list. */
export const pageLimit = (size = 20) =>
  Type.Optional(
    Type.Integer({
      format: 'int32',
      minimum: 1,
      maximum: 100,
      default: size,
      description: `Page size, 1 to 100 (default ${size}).`,
    }),
  );

const described = (description: string | undefined) => (description ? { description } : {});
export const instant = (description?: string) =>
  Type.String({ format: 'date-time', maxLength: 40, ...described(description) });
export const nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], described(description));
export const count = (description?: string) =>
  Type.Integer({ format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, ...described(description) });

/**
 * `{id}` of a route on one record. maxLength is the router's own bound on a path segment
 * (maxParamLength): up to it, any other value is a 404, as documented.
 */
export const idParams = (description: string) =>
  Type.Object({ id: Type.String({ maxLength: requestHeadLimit, description }) });

/** An instant as the management API reads it: an RFC 3339 date-time, or a date (its midnight UTC). */
export const instantInput = (description: string) =>
  Type.Union([Type.String({ format: 'date-time', maxLength: 40 }), Type.String({ format: 'date', maxLength: 10 })], {
    description,
  });

/** A reason as the management API takes it: one line, no control characters, not blank (as the portal asks). */
export const reasonText = (options: { maxLength: number; description?: string }) =>
  Type.String({ minLength: 1, pattern: reasonTextPattern, ...options });
