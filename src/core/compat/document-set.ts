/**
 * Parsed documents keyed by absolute URI, so refs across files resolve without I/O. The CLI
 * loads the files; core only reads this map.
 */
export interface DocumentSet {
  /** URI of the entry document. */
  root: string;
  documents: ReadonlyMap<string, unknown>;
}

/** URI given to a lone in-memory document. */
const DEFAULT_ROOT_URI = 'memory:///openapi.json';

/** Wrap a single parsed document (or pass a set through unchanged). */
export function toDocumentSet(input: unknown, uri: string = DEFAULT_ROOT_URI): DocumentSet {
  if (isDocumentSet(input)) return input;
  return { root: uri, documents: new Map([[uri, input]]) };
}

/** Tell a {@link DocumentSet} from a plain parsed document. */
function isDocumentSet(input: unknown): input is DocumentSet {
  return (
    typeof input === 'object' &&
    input !== null &&
    'documents' in input &&
    input.documents instanceof Map &&
    'root' in input &&
    typeof input.root === 'string'
  );
}
