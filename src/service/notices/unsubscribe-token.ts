import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Sign an unsubscribe link's (client, contact) pair, so a link cannot be made for someone else.
 *
 * @example
 * ```ts
 * const token = signUnsubscribe({ secret, clientId: 'cl_1', email: 'dev@acme.test' });
 * ```
 */
export function signUnsubscribe(options: { secret: string; clientId: string; email: string }): string {
  return createHmac('sha256', options.secret).update(`unsubscribe\n${options.clientId}\n${options.email.toLowerCase()}`).digest('base64url');
}

/**
 * Whether `token` is the signature of this (client, contact), compared in constant time.
 *
 * @example
 * ```ts
 * verifyUnsubscribe({ secret, clientId, email, token }); // true or false
 * ```
 */
export function verifyUnsubscribe(options: { secret: string; clientId: string; email: string; token: string }): boolean {
  const expected = Buffer.from(signUnsubscribe(options));
  const given = Buffer.from(options.token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The one-click unsubscribe URL of a contact (RFC 8058): POSTed to by mail clients, opened by people.
 *
 * @example
 * ```ts
 * unsubscribeUrl({ publicUrl: 'https://api.example.com', secret, clientId, email });
 * ```
 */
export function unsubscribeUrl(options: { publicUrl: string; secret: string; clientId: string; email: string }): string {
  const query = new URLSearchParams({ client: options.clientId, contact: options.email, token: signUnsubscribe(options) });
  return `${options.publicUrl}/notices/unsubscribe?${query.toString()}`;
}
