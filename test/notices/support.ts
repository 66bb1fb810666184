import type { FastifyInstance } from 'fastify';
import { adminHeaders, createTestApp, json, type TestApp, type TestAppOptions } from '../support/test-app.ts';

/** Config for notice tests: no timer (passes run on request), loopback webhooks allowed. */
export function noticeConfig(extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    rateLimit: { max: 1_000_000, windowSeconds: 60 },
    publicUrl: 'https://api.example.test',
    webhooks: { allowPrivateTargets: ['loopback'] },
    ...extra,
    notices: { intervalSeconds: 0, retryBaseSeconds: 10, maxAttempts: 5, ...(extra.notices as object | undefined) },
  });
}

/** A test app with notices configured (and SMTP when `smtpUrl` is given). */
export async function createNoticeApp(
  options: { smtpUrl?: string; config?: Record<string, unknown> } & Pick<TestAppOptions, 'now' | 'databasePath'> = {},
): Promise<TestApp> {
  return createTestApp({
    files: { '/notices.json': noticeConfig(options.config) },
    env: {
      VERSIONARY_CONFIG: '/notices.json',
      VERSIONARY_NOTICE_SECRET: 'notice-secret-0123456789-0123456789',
      ...(options.smtpUrl
        ? { VERSIONARY_SMTP_URL: options.smtpUrl, VERSIONARY_MAIL_FROM: 'Versionary <notices@versionary.test>' }
        : {}),
    },
    ...(options.now !== undefined ? { now: options.now } : {}),
    ...(options.databasePath ? { databasePath: options.databasePath } : {}),
  });
}

/** Create a client with contacts (and webhooks) and a read key for it; returns ids and the key. */
export async function createClientWithKey(
  app: FastifyInstance,
  options: { name: string; contacts?: string[]; webhooks?: string[]; keyName: string },
) {
  const created = await app.inject({
    method: 'POST',
    url: '/admin/v1/clients',
    headers: adminHeaders,
    payload: {
      name: options.name,
      contacts: options.contacts ?? [],
      webhooks: (options.webhooks ?? []).map((url) => ({ url })),
    },
  });
  if (created.statusCode !== 201) throw new Error(`client: ${created.statusCode} ${created.body}`);
  const client = json<{ id: string; webhooks: Array<{ id: string; secret: string }> }>(created);
  const key = await app.inject({
    method: 'POST',
    url: '/admin/v1/api-keys',
    headers: adminHeaders,
    payload: { name: options.keyName, roles: ['read', 'write'], clientId: client.id },
  });
  if (key.statusCode !== 201) throw new Error(`key: ${key.statusCode} ${key.body}`);
  return { client, key: json<{ key: string }>(key).key };
}

/** Run one notices pass through the management API. */
export async function runNotices(app: FastifyInstance): Promise<{
  planned: number;
  enqueued: number;
  sent: number;
  retrying: number;
  failed: number;
  skipped: Array<{ subject: string; client: string; reason: string }>;
}> {
  const res = await app.inject({ method: 'POST', url: '/admin/v1/notices/run', headers: adminHeaders });
  if (res.statusCode !== 200) throw new Error(`run: ${res.statusCode} ${res.body}`);
  return json(res);
}
