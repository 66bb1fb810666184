/**
 * The names Versionary writes on the request's span and on its call counter, in one place: the
 * docs (`docs/observability/attributes.md`) list these same names, and every writer imports them.
 * The standard HTTP attributes (`http.request.method`, `http.response.status_code`) are the
 * instrumentation's (`@fastify/otel`); only `http.route` is repeated, on the counter.
 */
export const VersionaryAttribute = {
  /** The version the call addressed, `v1`. */
  version: 'versionary.api.version',
  /** Where that version came from: `path` or `accept`. */
  versionSource: 'versionary.api.version_source',
  /** Whether the answer carried a `Deprecation` header (a version, endpoint, field or parameter). */
  deprecated: 'versionary.deprecated',
  /** The sunset that applies to this client, ISO 8601. */
  sunset: 'versionary.sunset',
  /** The version clients should move to. */
  replacement: 'versionary.replacement',
  /** The deprecated fields and parameters the call used (`User.nickname`). */
  deprecatedElements: 'versionary.deprecated_elements',
  /** The client the call counts for, once identified: never a credential. */
  clientId: 'versionary.client.id',
  /** A rule that answered instead of the handler, or let a removed call through. */
  decision: 'versionary.decision',
  /** The matched route's pattern, on the counter (the span has it from the instrumentation). */
  route: 'http.route',
} as const;

/** The meter and counter Versionary records calls on. */
export const versionaryMeter = { name: 'versionary', calls: 'versionary.calls' } as const;
