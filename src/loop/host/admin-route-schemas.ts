import { Type, type TSchema } from '@sinclair/typebox';
import { reasonTextPattern } from '../../core/text/index.ts';
import { problemSchema } from '../../core/versions/index.ts';

// Pieces of `/admin/v1` route schemas several parts use: beneath the parts, so none imports another for them.

export const problem = (description: string): TSchema => Type.Unsafe({ ...problemSchema, description });

/** An admin route's problems by status; 401, 403, 429 and 503 are added by the document generator. */
export function problems(byStatus: Record<number, string>): Record<number, TSchema> {
  return Object.fromEntries(Object.entries(byStatus).map(([status, description]) => [status, problem(description)]));
}

// Routes without query parameters refuse unknown ones, as the rest of the management API does.
export const NoQuery = Type.Object({}, { additionalProperties: false });

/** An instant as the management API reads it: an RFC 3339 date-time, or a date (its midnight UTC). */
export const instantInput = (description: string) =>
  Type.Union([Type.String({ format: 'date-time', maxLength: 40 }), Type.String({ format: 'date', maxLength: 10 })], {
    description,
  });

/** A reason as the management API takes it: one line, no control characters, not blank (as the portal asks). */
export const reasonText = (options: { maxLength: number; description?: string }) =>
  Type.String({ minLength: 1, pattern: reasonTextPattern, ...options });
