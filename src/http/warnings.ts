/**
 * Stable codes of the plugin's deprecation warnings (as Fastify's `FSTDEP`), so an app can filter
 * one; `docs/errors.md` lists each and a test keeps the two in step.
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
