import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import { handlerCoverage } from './handler-coverage.ts';
import type { HandlerMap, HandlerSource } from './handler-types.ts';
import type { OperationHandler } from './operation-types.ts';

/**
 * Declare one handler per operation of the head, each typed from its operation's declaration: a
 * missing or unknown handler, or a wrong body, fails `tsc`; at run time an unknown or missing id throws.
 *
 * @example
 * ```ts
 * const handlers = defineHandlers(bundle, {
 *   'books.get': async ({ params }) => ({ status: 200, body: await books.get(params.id) }),
 * });
 * ```
 */
export function defineHandlers<const A extends HandlerSource>(
  api: A,
  handlers: NoInfer<HandlerMap<A>>,
): Record<string, OperationHandler>;
/**
 * The untyped form: handlers keyed by operation id, checked only when the plugin registers.
 *
 * @deprecated Pass the bundle first, `defineHandlers(bundle, handlers)`, to type each handler.
 */
export function defineHandlers(handlers: Record<string, OperationHandler>): Record<string, OperationHandler>;
export function defineHandlers(
  ...args: [HandlerSource, unknown] | [Record<string, OperationHandler>]
): Record<string, OperationHandler> {
  if (args.length === 1) return args[0];
  const [source, handlers] = args;
  const head = 'head' in source ? source.head : source;
  const { missing, unknown } = handlerCoverage(head, handlers as unknown as Record<string, unknown>);
  const problems = [
    ...(missing.length > 0 ? [`no handler for operation(s): ${missing.join(', ')}`] : []),
    ...(unknown.length > 0 ? [`handlers for operation(s) the head does not declare: ${unknown.join(', ')}`] : []),
  ];
  if (problems.length > 0)
    throw new VersionaryError({ code: ErrorCode.InvalidDefinition, detail: `defineHandlers: ${problems.join('; ')}.` });
  // The plugin calls each handler with the context its operation was typed for.
  return handlers as unknown as Record<string, OperationHandler>;
}

/** Read `If-Match` into revisions (`"r<revision>.<version>..."`); any other tag reads as -1, never matching. */
export function parseIfMatch(header: string | undefined): number[] | '*' | undefined {
  if (header === undefined) return undefined;
  if (header.trim() === '*') return '*';
  return header
    .split(',')
    .slice(0, 20)
    .map((tag) => {
      const match = /^\s*"r([0-9]{1,12})\.[^"]*"\s*$/.exec(tag);
      return match ? Number(match[1]) : -1;
    });
}

/** The strong ETag of a revisioned representation: revision, version and field selection. */
export function revisionTag(options: { revision: number; version: string; fields?: string }): string {
  const selection = options.fields ? `.f${fnv1a(options.fields)}` : '';
  return `"r${options.revision}.${options.version}${selection}"`;
}

function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}
