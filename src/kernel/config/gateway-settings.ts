import type { SettingsInput } from './feature-settings.ts';
import { gatewaySectionValidator, type GatewaySection } from './gateway-settings-schema.ts';

/** How the gateway knows who is calling. */
type GatewayIdentify =
  /** Versionary's own API keys and clients; the credential is not forwarded. */
  | { kind: 'apiKeys' }
  /** A header set by a trusted auth layer in front of the gateway, naming the client. */
  | { kind: 'header'; header: string }
  /** A bearer JWT checked with `VERSIONARY_JWT_*`; the client is its `client_id` (else `sub`), and the token is forwarded. */
  | { kind: 'jwt'; claim: 'client_id' | 'sub' };

/** A version forwarded to its upstream, or served from a newer one by declared changes (`derivedFrom`). */
export type GatewayVersion =
  | {
      name: string;
      upstream: string;
      openapi: string;
      /** Forward paths the document does not declare (under the version's rules alone); else they are a 404. */
      forwardUndocumented: boolean;
    }
  | { name: string; derivedFrom: string; changes: string };

/**
 * The `gateway` section of the config file (`docs/gateway.md`), its defaults filled in: versions
 * oldest first, whatever the order the file lists them in. `nginx`'s relative paths are the
 * config file's.
 */
export type GatewaySettings = Required<
  Pick<GatewaySection, 'prefix' | 'vendor' | 'clientHeader' | 'timeoutMs' | 'underscoresInHeaders' | 'forwardedHeaders'>
> &
  Pick<GatewaySection, 'title' | 'nginx'> & { versions: GatewayVersion[]; identify: GatewayIdentify };

/** Read the `gateway` section; `undefined` when the file has none (the reference service). */
export function parseGatewaySettings({ file, errors }: SettingsInput): GatewaySettings | undefined {
  const raw = file.gateway;
  if (raw === undefined) return undefined;
  const problems = gatewaySectionValidator.errors(raw, 'gateway');
  const section = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<GatewaySection>;
  const named = isObject(section.versions) ? Object.entries(section.versions) : [];
  if (named.length === 0)
    problems.push(
      'gateway.versions must name each version: { "v1": { "upstream": "http://…", "openapi": "./openapi-v1.json" } }',
    );
  for (const [name, v] of named) {
    if (typeof v !== 'object' || v === null) continue;
    const members = Object.keys(v);
    const upstream = members.includes('upstream') || members.includes('openapi');
    const derived = members.includes('derivedFrom') || members.includes('changes');
    if (derived && members.includes('forwardUndocumented'))
      problems.push(
        `gateway.versions.${name}.forwardUndocumented applies to a version with an upstream: a derived version forwards only what its changes translate`,
      );
    if (upstream && derived)
      problems.push(
        `gateway.versions.${name} has an upstream or an openapi document, and derivedFrom or changes: give one pair`,
      );
    else if (derived && !(members.includes('derivedFrom') && members.includes('changes')))
      problems.push(`gateway.versions.${name} needs both derivedFrom and changes`);
    else if (!derived && !(members.includes('upstream') && members.includes('openapi')))
      problems.push(`gateway.versions.${name} needs both upstream and openapi (or derivedFrom and changes)`);
  }
  errors.push(...problems);
  if (!gatewaySectionValidator.check(raw) || problems.length > 0) return undefined;
  return {
    prefix: raw.prefix ?? '/api',
    underscoresInHeaders: raw.underscoresInHeaders ?? false,
    forwardedHeaders: raw.forwardedHeaders ?? 'x-forwarded',
    vendor: raw.vendor ?? 'api',
    versions: Object.entries(raw.versions ?? {})
      .map(([name, v]): GatewayVersion =>
        v.derivedFrom !== undefined
          ? { name, derivedFrom: v.derivedFrom, changes: v.changes! }
          : {
              name,
              upstream: v.upstream!.replace(/\/$/, ''),
              openapi: v.openapi!,
              forwardUndocumented: v.forwardUndocumented ?? false,
            },
      )
      .sort((a, b) => Number(a.name.slice(1)) - Number(b.name.slice(1))),
    identify: toIdentify(raw.identify),
    clientHeader: (raw.clientHeader ?? 'x-versionary-client').toLowerCase(),
    timeoutMs: raw.timeoutMs ?? 30_000,
    ...(raw.title !== undefined ? { title: raw.title } : {}),
    ...(raw.nginx !== undefined ? { nginx: raw.nginx } : {}),
  };
}

function toIdentify(identify: GatewaySection['identify']): GatewayIdentify {
  if (identify === undefined || 'apiKeys' in identify) return { kind: 'apiKeys' };
  if ('header' in identify) return { kind: 'header', header: identify.header.toLowerCase() };
  return { kind: 'jwt', claim: identify.jwt === true ? 'client_id' : identify.jwt.claim };
}

function isObject(value: unknown): value is Record<string, { upstream: string; openapi: string }> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
