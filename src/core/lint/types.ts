/** One conformance problem found by {@link lintOpenApi}. */
export interface LintFinding {
  /** Stable rule id from {@link lintRules}. */
  rule: string;
  /** API path the finding is about. */
  path: string;
  /** Upper-case method, when the finding is about one operation. */
  method?: string;
  /** JSON pointer of the offending element in the root document. */
  pointer: string;
  message: string;
  /** What to do instead. */
  suggestion: string;
}
