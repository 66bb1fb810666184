import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { createApiKey } from '../../src/loop/access/auth/api-keys.ts';
import type { TestApp } from '../support/test-app.ts';

/** A client with a read key, stored through the real ports. */
export async function addClient(
  t: TestApp,
  options: {
    id: string;
    name: string;
    contacts?: Array<{ email: string; subscribed: boolean }>;
    roles?: Array<'read' | 'write'>;
  },
): Promise<string> {
  const now = t.clock.now();
  await t.storage.clients.insert({
    id: options.id,
    name: options.name,
    contacts: options.contacts ?? [],
    webhooks: [],
    createdAt: now,
    updatedAt: now,
  });
  const { key } = await createApiKey({
    store: t.storage.apiKeys,
    name: `${options.name} key`,
    roles: options.roles ?? ['read'],
    clientId: options.id,
    now,
  });
  return key;
}

/** Call the API as a key, expecting success. */
export async function call(t: TestApp, options: { key: string; url: string; times?: number }): Promise<void> {
  for (let i = 0; i < (options.times ?? 1); i++) {
    const res = await t.app.inject({ url: options.url, headers: { authorization: `Bearer ${options.key}` } });
    assert.ok(res.statusCode < 300, `${options.url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  }
}

/** Sign in through the form; returns the cookie header to send next. */
export async function signIn(t: TestApp, key: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/portal/sign-in',
    payload: `key=${encodeURIComponent(key)}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(res.statusCode, 303, res.body.slice(0, 300));
  assert.equal(res.headers.location, '/portal');
  return cookieOf(res);
}

/** The `name=value` of the response's sign-in cookie. */
export function cookieOf(res: LightMyRequestResponse): string {
  const header = ([] as string[])
    .concat(res.headers['set-cookie'] ?? [])
    .find((c) => c.startsWith('versionary_portal='));
  assert.ok(header, 'a sign-in cookie is set');
  return header.split(';')[0]!;
}

/** The CSRF token rendered in a page's forms. */
export function csrfOf(body: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(body);
  assert.ok(match, 'the page carries a CSRF token');
  return match[1]!;
}
