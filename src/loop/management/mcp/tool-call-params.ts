import { isPlainObject } from '../../../core/versions/index.ts';

/** JSON-RPC's code for a method called with params it cannot take. */
const invalidParams = -32602;

/**
 * A JSON-RPC error for a `tools/call` message whose params are not a call (no params, no tool
 * name, arguments that are not an object), in one sentence; `undefined` for any other message.
 * The SDK would answer these with -32603 and its raw zod issue list: an internal error, which it is not.
 */
export function toolCallParamsError(
  message: unknown,
): { jsonrpc: '2.0'; id: string | number | null; error: { code: number; message: string } } | undefined {
  if (!isPlainObject(message) || message.method !== 'tools/call') return undefined;
  const why = paramsProblem(message.params);
  if (why === undefined) return undefined;
  const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
  return { jsonrpc: '2.0', id, error: { code: invalidParams, message: `Invalid params: ${why}` } };
}

function paramsProblem(params: unknown): string | undefined {
  if (!isPlainObject(params)) return `tools/call takes params { name, arguments }, an object, not ${kindOf(params)}.`;
  if (typeof params.name !== 'string' || params.name === '')
    return `tools/call takes params.name, the tool's name as a string, not ${kindOf(params.name)}.`;
  if (params.arguments !== undefined && !isPlainObject(params.arguments))
    return `params.arguments of ${params.name.slice(0, 60)} is the tool's inputs as an object, not ${kindOf(params.arguments)}.`;
  return undefined;
}

function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
