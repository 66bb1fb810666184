/**
 * Stable codes of the deprecation warnings the plugin emits as Node process warnings (as Fastify's
 * `FSTDEP` ones), so an app can filter one by its code. A code never changes meaning;
 * `docs/errors.md` lists each one and a test keeps the two in step.
 */
export const DeprecationWarningCode = {
  HeaderStyleIso: 'VERSIONARY_DEP001',
  EndpointsKey: 'VERSIONARY_DEP002',
} as const;

export type DeprecationWarningCode = (typeof DeprecationWarningCode)[keyof typeof DeprecationWarningCode];

export const deprecationWarnings: Record<DeprecationWarningCode, string> = {
  VERSIONARY_DEP001: 'lifecycle.headerStyle "iso" is deprecated: write "iso8601", which sends the same headers.',
  VERSIONARY_DEP002:
    'lifecycle.endpoints is deprecated: write endpointDeprecations (as fieldDeprecations and parameterDeprecations), which takes the same entries.',
};

const emitted = new Set<DeprecationWarningCode>();

/** Emit a deprecation warning once per process: a warning on every app built would only be noise. */
export function emitDeprecationWarning(code: DeprecationWarningCode): void {
  if (emitted.has(code)) return;
  emitted.add(code);
  process.emitWarning(deprecationWarnings[code], { type: 'DeprecationWarning', code });
}
