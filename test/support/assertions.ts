import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';

/** The members every problem body carries, plus what tests look at. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: Array<{ pointer: string; detail: string }>;
  supportedVersions?: string[];
  [extension: string]: unknown;
}

/**
 * Assert that a response is an RFC 9457 problem with this status (and code, when given), that it
 * is not cacheable and sets no cookie; return the parsed body.
 */
export function assertProblem(res: LightMyRequestResponse, expected: { status: number; code?: string }): Problem {
  assert.equal(res.statusCode, expected.status, `status of ${res.body.slice(0, 300)}`);
  assert.match(String(res.headers['content-type']), /^application\/problem\+json/, 'problem content-type');
  assert.equal(res.headers['cache-control'], 'no-store', 'errors are no-store');
  assert.equal(res.headers['set-cookie'], undefined, 'no cookie');
  const body = JSON.parse(res.body) as Problem;
  assertProblemShape(body, expected.status);
  if (expected.code) assert.equal(body.code, expected.code, `code of ${res.body.slice(0, 300)}`);
  return body;
}

/** Assert the problem members: type, title, status (equal to the response's), detail. */
export function assertProblemShape(body: unknown, status: number): void {
  assert.ok(typeof body === 'object' && body !== null && !Array.isArray(body), 'problem body is an object');
  const p = body as Record<string, unknown>;
  assert.equal(typeof p.type, 'string', 'problem type');
  assert.ok((p.type as string).length > 0);
  assert.equal(typeof p.title, 'string', 'problem title');
  assert.ok((p.title as string).length > 0);
  assert.equal(p.status, status, 'problem status equals the response status');
  assert.equal(typeof p.detail, 'string', 'problem detail');
  assert.ok((p.detail as string).length > 0);
}

/** Assert a field-validation problem: 400, and `errors` naming a pointer. */
export function assertFieldErrors(res: LightMyRequestResponse, pointer: string): Problem {
  const problem = assertProblem(res, { status: 400 });
  assert.ok(Array.isArray(problem.errors) && problem.errors.length > 0, `errors listed in ${res.body}`);
  assert.ok(
    problem.errors.some((e) => e.pointer === pointer),
    `an error at ${pointer} in ${res.body}`,
  );
  return problem;
}

/** The vary header as a lowercase list. */
export function varyOf(res: LightMyRequestResponse): string[] {
  return String(res.headers.vary ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
}
