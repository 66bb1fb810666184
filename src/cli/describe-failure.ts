import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isVersionaryError } from '../core/errors/index.ts';

/**
 * One clear line for a failure, with `file://` URIs shown as paths relative to `cwd`. Never a
 * stack trace: CI logs should name the file and the place, nothing else.
 */
export function describeFailure(error: unknown, cwd: string): string {
  // A start that lacks packages says which, and the line that installs them: already written for people.
  // So does a start that could not listen: it names the port and what to do.
  const code = (error as { code?: unknown })?.code;
  if (code === 'PACKAGES_MISSING' || code === 'LISTEN_FAILED') return (error as Error).message;
  if (isVersionaryError(error)) return `${error.code}: ${shortenUris(error.detail, cwd)}`;
  const message = error instanceof Error ? error.message : String(error);
  return `internal error: ${shortenUris(message, cwd)}`;
}

/** Replace `file://` URIs in a message with relative paths. */
export function shortenUris(text: string, cwd: string): string {
  return text.replace(/file:\/\/[^\s#"',)]+/g, (uri) => {
    try {
      const absolute = fileURLToPath(uri);
      const path = relative(cwd, absolute);
      // Outside the working directory a relative path is harder to read than the absolute one.
      return path === '' ? '.' : path.startsWith('..') ? absolute : path;
    } catch {
      return uri;
    }
  });
}
