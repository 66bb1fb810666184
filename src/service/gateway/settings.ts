import { unknownKey } from '../../core/text/index.ts';
import type { SettingsInput } from '../config/feature-settings.ts';

/** How the gateway knows who is calling. */
export type GatewayIdentify =
  /** Versionary's own API keys and clients; the credential is not forwarded. */
  | { kind: 'apiKeys' }
  /** A header set by a trusted auth layer in front of the gateway, naming the client. */
  | { kind: 'header'; header: string }
  /** A bearer JWT checked with `VERSIONARY_JWT_*`; the client is its `client_id` (else `sub`), and the token is forwarded. */
  | { kind: 'jwt'; claim: 'client_id' | 'sub' };

/** The `gateway` section of the config file (`docs/gateway.md`). */
export interface GatewaySettings {
  prefix: string;
  vendor: string;
  /** The documents' and docs pages' title; the newest document's `info.title` when unset. */
  title?: string;
  /** Oldest first, in the order the file lists them. */
  versions: Array<{ name: string; upstream: string; openapi: string }>;
  identify: GatewayIdentify;
  /** The request header that carries the client id upstream (any value a client sent is replaced). */
  clientHeader: string;
  /** How long to wait for an upstream's response headers, or between body chunks, before a 504. */
  timeoutMs: number;
  /** Forward request headers with `_` in their name (nginx's `underscores_in_headers`); dropped by default. */
  underscoresInHeaders: boolean;
}

const headerName = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/;

/** Read the `gateway` section; `undefined` when the file has none (the reference service). */
export function parseGatewaySettings({ file, errors }: SettingsInput): GatewaySettings | undefined {
  const raw = file.gateway;
  if (raw === undefined) return undefined;
  const at = (key: string) => `gateway.${key}`;
  if (!isObject(raw)) return void errors.push('gateway must be an object');
  const known = [
    'prefix',
    'vendor',
    'title',
    'versions',
    'identify',
    'clientHeader',
    'timeoutMs',
    'underscoresInHeaders',
  ];
  for (const key of Object.keys(raw)) if (!known.includes(key)) errors.push(unknownKey('gateway', key, known));
  const prefix = raw.prefix ?? '/api';
  if (typeof prefix !== 'string' || !/^(\/[A-Za-z0-9._~-]+)+$/.test(prefix))
    errors.push(`${at('prefix')} must be a path such as "/api", not ${JSON.stringify(prefix)}`);
  const vendor = raw.vendor ?? 'api';
  if (typeof vendor !== 'string' || !/^[a-z0-9][a-z0-9.-]*$/i.test(vendor))
    errors.push(`${at('vendor')} must be a media-type token such as "acme", not ${JSON.stringify(vendor)}`);
  if (raw.title !== undefined && (typeof raw.title !== 'string' || raw.title.length === 0))
    errors.push(`${at('title')} must be a non-empty string`);
  const versions: GatewaySettings['versions'] = [];
  if (!isObject(raw.versions) || Object.keys(raw.versions).length === 0)
    errors.push(
      `${at('versions')} must name each version: { "v1": { "upstream": "http://…", "openapi": "./openapi-v1.json" } }`,
    );
  else {
    for (const [name, value] of Object.entries(raw.versions)) {
      if (!/^v[1-9][0-9]{0,5}$/.test(name))
        errors.push(`${at('versions')}: "${name}" is not a version name such as v1`);
      if (!isObject(value)) {
        errors.push(`${at(`versions.${name}`)} must be { upstream, openapi }`);
        continue;
      }
      if (typeof value.upstream !== 'string' || !/^https?:\/\/[^/\s?#]+\/?$/.test(value.upstream))
        errors.push(
          `${at(`versions.${name}.upstream`)} must be an origin such as "http://127.0.0.1:9001", not ${JSON.stringify(value.upstream)}`,
        );
      if (typeof value.openapi !== 'string' || value.openapi.length === 0)
        errors.push(
          `${at(`versions.${name}.openapi`)} must be the path of the version's OpenAPI document (JSON or YAML)`,
        );
      for (const key of Object.keys(value))
        if (key !== 'upstream' && key !== 'openapi')
          errors.push(unknownKey(at(`versions.${name}`), key, ['upstream', 'openapi']));
      versions.push({ name, upstream: String(value.upstream).replace(/\/$/, ''), openapi: String(value.openapi) });
    }
  }
  const identify = parseIdentify(raw.identify ?? { apiKeys: true }, errors);
  const clientHeader = raw.clientHeader ?? 'x-versionary-client';
  if (typeof clientHeader !== 'string' || !headerName.test(clientHeader))
    errors.push(`${at('clientHeader')} must be a header name, not ${JSON.stringify(clientHeader)}`);
  const timeoutMs = raw.timeoutMs ?? 30_000;
  if (!Number.isInteger(timeoutMs) || (timeoutMs as number) < 100 || (timeoutMs as number) > 3_600_000)
    errors.push(`${at('timeoutMs')} must be an integer from 100 to 3600000`);
  const underscoresInHeaders = raw.underscoresInHeaders ?? false;
  if (typeof underscoresInHeaders !== 'boolean') errors.push(`${at('underscoresInHeaders')} must be true or false`);
  return {
    prefix: String(prefix),
    underscoresInHeaders: underscoresInHeaders === true,
    vendor: String(vendor),
    versions,
    identify: identify ?? { kind: 'apiKeys' },
    clientHeader: String(clientHeader).toLowerCase(),
    timeoutMs: Number(timeoutMs),
    ...(typeof raw.title === 'string' ? { title: raw.title } : {}),
  };
}

function parseIdentify(raw: unknown, errors: string[]): GatewayIdentify | undefined {
  const usage =
    'gateway.identify must be one of { "apiKeys": true }, { "header": "x-client-id" } or { "jwt": true } (or { "jwt": { "claim": "sub" } })';
  if (!isObject(raw) || Object.keys(raw).length !== 1) return void errors.push(usage);
  if (raw.apiKeys === true) return { kind: 'apiKeys' };
  if (typeof raw.header === 'string' && headerName.test(raw.header))
    return { kind: 'header', header: raw.header.toLowerCase() };
  if (raw.jwt === true) return { kind: 'jwt', claim: 'client_id' };
  if (isObject(raw.jwt) && (raw.jwt.claim === 'sub' || raw.jwt.claim === 'client_id'))
    return { kind: 'jwt', claim: raw.jwt.claim };
  errors.push(usage);
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
