import type { FastifyInstance } from 'fastify';
import { adminHeaders } from '../support/test-app.ts';

/** Every OpenAPI document the service serves: file name → URL. */
export const servedDocuments: Record<string, string> = {
  'api-v1.openapi.json': '/api/v1/openapi.json',
  'api-v2.openapi.json': '/api/v2/openapi.json',
  'admin-v1.openapi.json': '/admin/v1/openapi.json',
};

/** A JWT secret, so the documents also declare the JWT scheme. */
export const jwtEnv = { VERSIONARY_JWT_SECRET: 'contract-test-secret-0123456789abcdef' };

/** Fetch every served document, as an admin (the management document needs the role). */
export async function fetchServedDocuments(app: FastifyInstance): Promise<Record<string, Record<string, unknown>>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [file, url] of Object.entries(servedDocuments)) {
    const res = await app.inject({ url, headers: adminHeaders });
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body}`);
    out[file] = res.json();
  }
  return out;
}

/**
 * Test-app options with a rate limit no test here meets: these tests send hundreds of requests
 * with one key and check every answer against the documents (the 429 test sets its own limit).
 */
export function generousLimits(env: Record<string, string> = {}): {
  files: Record<string, string>;
  env: Record<string, string>;
} {
  return {
    files: { '/generous.json': JSON.stringify({ rateLimit: { max: 1_000_000, windowSeconds: 60 } }) },
    env: { VERSIONARY_CONFIG: '/generous.json', ...env },
  };
}

// A valid body for every operation that takes one; an operation added without one fails here.
const grantExample = { clientId: 'cl_0000000000000000', version: 'v1', until: '2026-09-01', reason: 'migration in Q3' };
const decisionExample = { decision: 'declined', reason: 'v2 has everything you call' };
export const examples: Record<string, unknown> = {
  'users.create': { name: 'Ada' },
  'users.replace': { name: 'Ada' },
  'users.patch': { name: 'Ada B.' },
  'posts.create': { title: 'Hello', body: 'First post.' },
  'apiKeys.create': { name: 'reporting', roles: ['read'] },
  // A cap on extended access after the sunset the notice sets, so that extended access can be granted.
  'versions.scheduleDeprecation': { noticeMonths: 12, extendedAccessUntil: '2099-01-01T00:00:00Z' },
  'deprecations.create': { version: 'v1', method: 'GET', path: '/users', noticeMonths: 12 },
  'clients.create': { name: 'Acme', contacts: ['ops@acme.test', { email: 'dev@acme.test', subscribed: false }] },
  'approvals.create': { fingerprint: '0123456789abcdef', reason: 'agreed with the only client' },
  'clients.update': { name: 'Acme Corp', contacts: ['ops@acme.test'] },
  // v1 is deprecated in the reference service: a window the day after the test's clock, within its notice period.
  'brownouts.create': { version: 'v1', startsAt: '2026-01-16T12:00:00Z', endsAt: '2026-01-16T13:00:00Z' },
  // The default steps, counted back from v1's sunset (2026-07-14).
  'brownouts.schedule': { version: 'v1', target: { all: true } },
  'extendedAccess.grant': grantExample,
  'extendedAccessRequests.decide': decisionExample,
  // The first release's paths, kept as aliases: the same bodies (one object, so a test that fills in
  // the client id fills it in for both).
  'exemptions.grant': grantExample,
  'exemptionRequests.decide': decisionExample,
};
