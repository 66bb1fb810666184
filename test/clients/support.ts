import type { FastifyInstance } from 'fastify';
import { adminHeaders, createTestApp, type TestApp } from '../support/test-app.ts';

/** A test app whose config lets webhooks reach loopback (the test receivers), plus any other keys. */
export function createClientsTestApp(file: Record<string, unknown> = {}): Promise<TestApp> {
  const config = {
    rateLimit: { max: 1_000_000, windowSeconds: 60 },
    webhooks: { allowPrivateTargets: ['loopback'] },
    ...file,
  };
  return createTestApp({
    env: { VERSIONARY_CONFIG: '/clients.json' },
    files: { '/clients.json': JSON.stringify(config) },
  });
}

/** Create a client as admin; returns its body. */
export async function createClient(
  app: FastifyInstance,
  body: Record<string, unknown>,
): Promise<Record<string, unknown> & { id: string }> {
  const res = await app.inject({ method: 'POST', url: '/admin/v1/clients', headers: adminHeaders, payload: body });
  if (res.statusCode !== 201) throw new Error(`createClient: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Create an API key as admin; returns its id and the bearer headers that send it. */
export async function createKey(
  app: FastifyInstance,
  body: { name: string; roles: string[]; clientId?: string },
): Promise<{ id: string; headers: { authorization: string } }> {
  const res = await app.inject({ method: 'POST', url: '/admin/v1/api-keys', headers: adminHeaders, payload: body });
  if (res.statusCode !== 201) throw new Error(`createKey: ${res.statusCode} ${res.body}`);
  const created = res.json() as { id: string; key: string };
  return { id: created.id, headers: { authorization: `Bearer ${created.key}` } };
}
