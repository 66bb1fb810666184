import type { Dispatcher } from 'undici';
import type { Headers } from './forward-headers.ts';

/** An upstream's answer read whole, or `tooLarge` once it passed the limit (the call then aborted). */
export type WholeAnswer = { statusCode: number; headers: Headers; body: Buffer } | { tooLarge: true };

/**
 * One call upstream with its answer read whole, through undici's `dispatch` (as the forwarder's
 * calls go): no body stream and no async iterator per answer, which a derived version's calls,
 * read whole to be translated, do not need. An answer over `limit` bytes aborts the call.
 */
export function callWhole(
  pool: Dispatcher,
  options: { method: Dispatcher.HttpMethod; path: string; headers: Headers; body: Buffer | null; limit: number },
): Promise<WholeAnswer> {
  return new Promise((resolve, reject) => {
    let statusCode = 0;
    let headers: Headers = {};
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const handler: Dispatcher.DispatchHandler = {
      // Its presence tells undici this handler speaks its controller API (onResponse*).
      onRequestStart() {},
      onResponseStart(_controller, status, upstream) {
        statusCode = status;
        headers = upstream as Headers;
      },
      onResponseData(controller, chunk) {
        size += chunk.length;
        if (size > options.limit) {
          settled = true;
          resolve({ tooLarge: true });
          return controller.abort(new Error('The answer is over the limit.'));
        }
        chunks.push(chunk);
      },
      onResponseEnd() {
        if (settled) return;
        settled = true;
        resolve({ statusCode, headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) });
      },
      onResponseError(_controller, error) {
        if (settled) return;
        settled = true;
        reject(error);
      },
    };
    const { method, path, body } = options;
    pool.dispatch({ method, path, headers: options.headers as Record<string, string>, body }, handler);
  });
}
