import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import type { PrivateTargetKind, WebhookSettings } from './webhook-settings.ts';

export type ResolveHost = (host: string) => Promise<LookupAddress[]>;

const lookupTimeoutMs = 3000;

/**
 * What range an address is in, in the config's terms; IPv4-mapped IPv6 addresses are judged as
 * the IPv4 address they carry.
 *
 * @internal exported for the tests
 */
export function classifyAddress(address: string): 'public' | PrivateTargetKind | 'forbidden' {
  if (!ipaddr.isValid(address)) return 'forbidden';
  const parsed = ipaddr.process(address);
  // ::/96 holds the deprecated IPv4-compatible form (`::127.0.0.1`, which URLs print as
  // `::7f00:1`): ipaddr.js calls it unicast, but it names an IPv4 host. No public target uses it.
  if (
    parsed.kind() === 'ipv6' &&
    parsed.range() === 'unicast' &&
    (parsed as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)
  )
    return 'forbidden';
  const range = parsed.range();
  if (range === 'unicast') return 'public';
  if (range === 'uniqueLocal') return 'private';
  if (range === 'loopback' || range === 'private' || range === 'linkLocal' || range === 'carrierGradeNat') return range;
  return 'forbidden';
}

/** Why an address may not be a webhook target under the settings, or undefined when it may. */
function refusal(address: string, settings: WebhookSettings): string | undefined {
  const kind = classifyAddress(address);
  if (kind === 'public') return undefined;
  if (kind !== 'forbidden' && settings.allowPrivateTargets.has(kind)) return undefined;
  const hint =
    kind === 'forbidden'
      ? 'never a webhook target'
      : `allow it with webhooks.allowPrivateTargets: ["${kind}"] in the config`;
  return `${address} is a ${kind === 'forbidden' ? 'special-purpose' : kind} address (${hint})`;
}

const defaultResolve: ResolveHost = (host) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(Object.assign(new Error(`lookup of ${host} timed out`), { code: 'ETIMEOUT' })),
      lookupTimeoutMs,
    );
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => {
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(addresses);
    });
  });

const refusal400 = (pointer: string, why: string) =>
  new VersionaryError({
    code: ErrorCode.ValidationFailed,
    detail: `The webhook URL is refused: ${why}.`,
    errors: [{ pointer, detail: why }],
  });

/**
 * The network-free part of {@link assertPublicWebhookUrl}, run before schema validation so that a
 * URL `format: uri` would refuse gets this precise reason instead.
 */
export function webhookUrlShape(options: { url: string; pointer: string }): URL {
  const refuse = (why: string) => refusal400(options.pointer, why);
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw refuse('it is not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw refuse(`the scheme must be http or https, not ${url.protocol.slice(0, 20)}`);
  if (url.username !== '' || url.password !== '')
    throw refuse('it must not carry credentials; the signature authenticates each message');
  if (url.hostname === '') throw refuse('it has no host');
  return url;
}

/**
 * Check that every address of a webhook URL's host is public (or allowed): else a client could make
 * the server reach its own network. Call it when a URL is saved and before each delivery, which
 * also connects through {@link createWebhookLookup}, so DNS rebinding is caught on the address used.
 * A name that does not resolve is accepted when saved (with no addresses) and refused at delivery
 * by the lookup; otherwise every address the host resolved to is given back, all allowed.
 */
export async function assertPublicWebhookUrl(options: {
  url: string;
  settings: WebhookSettings;
  pointer?: string;
  resolve?: ResolveHost;
}): Promise<{ url: URL; addresses: string[] }> {
  const pointer = options.pointer ?? '/url';
  const url = webhookUrlShape({ url: options.url, pointer });
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = (await (options.resolve ?? defaultResolve)(host)).map((a) => a.address);
    } catch {
      return { url, addresses: [] };
    }
  }
  for (const address of addresses) {
    const why = refusal(address, options.settings);
    if (why) throw refusal400(pointer, `${host} resolves to ${why}`);
  }
  return { url, addresses };
}

/** A `lookup` that fails the connection when any address is not allowed: checked on the socket's own address. */
export function createWebhookLookup(settings: WebhookSettings): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as LookupAddress[];
      const bad = list.map((a) => refusal(a.address, settings)).find((why) => why !== undefined);
      if (bad || list.length === 0) {
        const refused = new Error(`webhook target refused: ${hostname} resolves to ${bad ?? 'nothing'}`);
        return callback(Object.assign(refused, { code: 'EWEBHOOKTARGET' }), '', 0);
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      return callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
