import { createHmac, timingSafeEqual } from 'node:crypto';
import { DAY_MS } from '../../core/lifecycle/index.ts';

/** Each notice carries a fresh link, so a link that leaked from an old mailbox stops working. */
export const unsubscribeLinkDays = 90;

/** Whose link it is, and the key it is signed with. */
type Link = { secret: string; clientId: string; email: string };

/** A link's signature: the (client, contact, issue time) triple, so none can be changed. */
function mac(options: Link & { issuedAt: number }): string {
  return createHmac('sha256', options.secret)
    .update(`unsubscribe\n${options.clientId}\n${options.email.toLowerCase()}\n${options.issuedAt}`)
    .digest('base64url');
}

/** `<issue time, base 36 milliseconds>-<43-character HMAC>`: URL-safe, and split without ambiguity. */
const tokenShape = /^([0-9a-z]{1,12})-([A-Za-z0-9_-]{43})$/;

/**
 * Sign a link for a (client, contact) pair at an instant, so its age is known when it comes back.
 *
 * @internal exported for the tests
 */
export function signUnsubscribe(options: Link & { issuedAt: number }): string {
  return `${Math.floor(options.issuedAt).toString(36)}-${mac(options)}`;
}

/**
 * When the link was issued, if `token` signs this (client, contact); the HMAC compared in constant time.
 *
 * @internal exported for the tests
 */
export function readUnsubscribe(options: Link & { token: string }): { issuedAt: number } | undefined {
  const match = tokenShape.exec(options.token);
  if (!match) return undefined;
  const issuedAt = Number.parseInt(match[1]!, 36);
  const expected = Buffer.from(mac({ ...options, issuedAt }));
  const given = Buffer.from(match[2]!);
  return given.length === expected.length && timingSafeEqual(given, expected) ? { issuedAt } : undefined;
}

export type UnsubscribeRefusal = 'forged' | 'expired' | 'superseded';

/**
 * A link older than the client's last change is refused, so a link used once cannot unsubscribe
 * the contact again after the API owner subscribed it back.
 */
export function checkUnsubscribe(
  options: Link & { token: string; now: number; changedAt: number | undefined },
): UnsubscribeRefusal | undefined {
  const link = readUnsubscribe(options);
  if (!link) return 'forged';
  if (options.now - link.issuedAt > unsubscribeLinkDays * DAY_MS) return 'expired';
  if (options.changedAt !== undefined && link.issuedAt < options.changedAt) return 'superseded';
  return undefined;
}

/** The one-click unsubscribe URL of a contact (RFC 8058): POSTed to by mail clients, opened by people. */
export function unsubscribeUrl(options: Link & { publicUrl: string; issuedAt: number }): string {
  const query = new URLSearchParams({
    client: options.clientId,
    contact: options.email,
    token: signUnsubscribe(options),
  });
  return `${options.publicUrl}/notices/unsubscribe?${query.toString()}`;
}
