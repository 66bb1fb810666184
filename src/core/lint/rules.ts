/**
 * Conformance rules of `versionary lint`, each from the REST conventions spec. Ids are stable;
 * `docs/compatibility.md` lists them and a test keeps the two in step.
 * @internal exported for the tests
 */
export const lintRules = {
  'collection-not-plural': {
    description: 'A collection segment is not a plural noun (singular, verb form, or mixed such as getUsers).',
  },
  'identifier-in-query': {
    description: 'A resource identifier is passed as a query parameter (?id=, ?userId=) instead of a path segment.',
  },
  'unversioned-path': {
    description:
      'A path is not under /api/v<n>/ (or any v<n> segment) and no server URL or media type carries the version.',
  },
  'error-not-problem-details': {
    description:
      'A 4xx/5xx/default response does not use the RFC 9457 problem shape (application/problem+json, or a schema with type, title, status, detail).',
  },
  'deprecated-without-sunset': {
    description:
      'A deprecated operation has no sunset date: neither an x-sunset extension nor a documented Sunset response header.',
  },
  'additional-operation-fixed-method': {
    description:
      'An OpenAPI 3.2 additionalOperations entry names a method that has a fixed field (get, post, query…), which the specification forbids.',
  },
  'querystring-parameter-conflict': {
    description:
      'An operation has more than one in: querystring parameter, or one beside in: query parameters (OpenAPI 3.2 forbids both).',
  },
} as const;

/** A lint rule id. */
export type LintRuleId = keyof typeof lintRules;
