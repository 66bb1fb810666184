import { randomBytes } from 'node:crypto';
import { ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import type { Client, ClientContact, ClientWebhook } from '../../../kernel/ports/index.ts';
import { assertPublicWebhookUrl } from '../../notices/webhook-target.ts';
import type { WebhookSettings } from '../../notices/webhook-settings.ts';
import type { ClientPatch } from './schemas.ts';

/** A new client id: `cl_` and 64 random bits in hex. */
export function newClientId(): string {
  return `cl_${randomBytes(8).toString('hex')}`;
}

/**
 * Validate and normalise contacts: addresses in lower case, each once. Addresses already stored
 * keep their subscription unless the input says otherwise, so re-sending a list never
 * resubscribes someone who unsubscribed.
 */
export function toContacts(options: {
  input: NonNullable<ClientPatch['contacts']>;
  current: ClientContact[];
}): ClientContact[] {
  const seen = new Set<string>();
  return options.input.map((item, i) => {
    // The schema has checked the address against the email pattern already.
    const email = (typeof item === 'string' ? item : item.email).trim().toLowerCase();
    const pointer = `/body/contacts/${i}`;
    if (seen.has(email)) throw invalid({ pointer, detail: `${email} is listed twice` });
    seen.add(email);
    const stored = options.current.find((c) => c.email === email);
    const subscribed =
      typeof item === 'object' && item.subscribed !== undefined ? item.subscribed : (stored?.subscribed ?? true);
    return { email, subscribed };
  });
}

/**
 * Validate webhooks against the current ones: `{url}` makes a new webhook with a new secret,
 * `{id}` keeps one (and its secret), `{id, url}` moves it. Every URL is checked for SSRF.
 * Returns the list and the webhooks created, whose secrets the response shows once.
 */
export async function toWebhooks(options: {
  input: NonNullable<ClientPatch['webhooks']>;
  current: ClientWebhook[];
  settings: WebhookSettings;
}): Promise<{ webhooks: ClientWebhook[]; created: Set<string> }> {
  const created = new Set<string>();
  const kept = new Set<string>();
  const webhooks: ClientWebhook[] = [];
  for (const [i, item] of options.input.entries()) {
    const pointer = `/body/webhooks/${i}`;
    if (item.url !== undefined)
      await assertPublicWebhookUrl({ url: item.url, settings: options.settings, pointer: `${pointer}/url` });
    if (item.id === undefined) {
      if (item.url === undefined) throw invalid({ pointer, detail: 'a webhook needs a url, or the id of one to keep' });
      // A Standard Webhooks secret: `whsec_` and 32 random bytes in base64.
      const secret = `whsec_${randomBytes(32).toString('base64')}`;
      const webhook = { id: `wh_${randomBytes(8).toString('hex')}`, url: new URL(item.url).href, secret };
      created.add(webhook.id);
      webhooks.push(webhook);
      continue;
    }
    const existing = options.current.find((w) => w.id === item.id);
    if (!existing)
      throw invalid({ pointer: `${pointer}/id`, detail: `this client has no webhook ${item.id.slice(0, 40)}` });
    if (kept.has(existing.id)) throw invalid({ pointer: `${pointer}/id`, detail: `${existing.id} is listed twice` });
    kept.add(existing.id);
    webhooks.push({ ...existing, ...(item.url !== undefined ? { url: new URL(item.url).href } : {}) });
  }
  return { webhooks, created };
}

/** A client as the API answers it: times in ISO 8601, secrets only of the webhooks just created. */
export function toClientBody(client: Client, revealed: ReadonlySet<string> = new Set()): Record<string, unknown> {
  return {
    id: client.id,
    name: client.name,
    contacts: client.contacts.map((c) => ({ email: c.email, subscribed: c.subscribed })),
    webhooks: client.webhooks.map((w) => ({
      id: w.id,
      url: w.url,
      ...(revealed.has(w.id) ? { secret: w.secret } : {}),
    })),
    minimumVersion: client.minimumVersion ?? null,
    createdAt: new Date(client.createdAt).toISOString(),
    updatedAt: new Date(client.updatedAt).toISOString(),
  };
}

function invalid(error: { pointer: string; detail: string }): VersionaryError {
  return new VersionaryError({
    code: ErrorCode.ValidationFailed,
    detail: `The request is invalid: ${error.detail}.`,
    errors: [error],
  });
}
