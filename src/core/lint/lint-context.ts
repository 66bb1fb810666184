import {
  createRefResolver,
  listOperations,
  toDocumentSet,
  type DocumentSet,
  type RefResolver,
} from '../compat/index.ts';
import type { OperationEntry } from '../compat/openapi-document.ts';

/** What every lint rule reads. */
export interface LintContext {
  set: DocumentSet;
  doc: Record<string, unknown>;
  resolver: RefResolver;
  operations: OperationEntry[];
  /** Extra segments (lower-case) that are not collections. */
  allowSegments: ReadonlySet<string>;
}

export function createLintContext(input: unknown, allowSegments: readonly string[] = []): LintContext {
  const set = toDocumentSet(input);
  const resolver = createRefResolver(set);
  return {
    set,
    doc: set.documents.get(set.root) as Record<string, unknown>,
    resolver,
    operations: listOperations({ set, resolver }),
    allowSegments: new Set(allowSegments.map((s) => s.toLowerCase())),
  };
}

/** One conformance problem found by {@link lintOpenApi}. */
export interface LintFinding {
  /** Stable rule id from {@link lintRules}. */
  rule: string;
  path: string;
  /** Upper-case method, when the finding is about one operation. */
  method?: string;
  /** JSON pointer of the offending element in the root document. */
  pointer: string;
  message: string;
  /** What to do instead. */
  suggestion: string;
}
