import type { VersionaryError } from '../../../core/errors/index.ts';
import type { ProblemRow } from '../../../core/rulebook/index.ts';
import { toProblem } from '../../../http/problem.ts';

export type ProblemRegistry = ReturnType<typeof createProblemRegistry>;

/** A registry where equal problems share one key (`p1`, …); `errors` may be shared by successive tables'. */
export function createProblemRegistry(
  // By the rendered body, which a decision passes on as it is.
  errors: WeakMap<object, VersionaryError> = new WeakMap(),
) {
  const problems: Record<string, ProblemRow> = {};
  const byText = new Map<string, string>();
  return {
    problems,
    // The error a problem was rendered from, for a data plane that answers with the error itself (Fastify).
    errorOf: (problem: ProblemRow): VersionaryError | undefined => errors.get(problem.body),
    // Rendered and stored on first sight; `name` for a fixed key.
    keyOf(error: VersionaryError, name?: string): string {
      const { status, body } = toProblem(error);
      const row: ProblemRow = { status, headers: lowerCased(error.headers), body };
      const text = JSON.stringify(row);
      const known = name === undefined ? byText.get(text) : undefined;
      if (known !== undefined) return known;
      const key = name ?? `p${byText.size + 1}`;
      byText.set(text, key);
      problems[key] = row;
      errors.set(row.body, error);
      return key;
    },
  };
}

export function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
