import * as handlers from './njs/handlers.ts';
import * as lifecycle from './njs/lifecycle.ts';
import type { NjsData } from './njs/lifecycle.ts';

/** The `js_set` variables and the `js_content` handlers, by the name nginx knows them. */
export const njsExports = {
  route: handlers.ngxRoute,
  version: handlers.ngxVersion,
  operation: handlers.ngxOperation,
  deprecated: handlers.ngxDeprecated,
  target: handlers.ngxTarget,
  log: handlers.ngxLog,
  role: handlers.ngxRole,
  credential: handlers.ngxCredential,
  deprecation: handlers.ngxDeprecation,
  sunset: handlers.ngxSunset,
  link: handlers.ngxLink,
  warning: handlers.ngxWarning,
  vary: handlers.ngxVary,
  gate: handlers.ngxGate,
  late: handlers.ngxLate,
  auth_problem: handlers.ngxAuthProblem,
  limited: handlers.ngxLimited,
  upstream_error: handlers.ngxUpstreamError,
} as const;

/**
 * `versionary.js`: the lifecycle data as JSON and the functions of `njs/lifecycle.ts` and
 * `njs/handlers.ts` by their own source text, for njs 0.7.9. One source: the functions Node's
 * tests run are the functions nginx runs. `__name` is the helper a TypeScript loader may wrap
 * named functions in; njs gets it as the identity.
 */
export function renderNjsModule(data: NjsData): string {
  const functions = [...Object.values(lifecycle), ...Object.values(handlers)].filter(
    (value) => typeof value === 'function',
  ) as Array<(...args: never[]) => unknown>;
  const exported = Object.entries(njsExports)
    .map(([name, fn]) => `  ${name}: ${fn.name},`)
    .join('\n');
  return [
    '// Written by `versionary nginx`: do not edit, render again (docs/gateway.md#nginx-as-the-data-plane).',
    'var __name = function (f) { return f; };',
    'var MEMO = null;',
    `var DATA = ${JSON.stringify(data)};`,
    ...functions.map((fn) => fn.toString()),
    `export default {\n${exported}\n};`,
    '',
  ].join('\n\n');
}
