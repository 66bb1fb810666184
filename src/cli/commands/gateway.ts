import { readFileSync } from 'node:fs';
import { importServiceModule } from '../../compose/load-service.ts';
import { defineCommand } from '../command.ts';
import { ExitCode } from '../io.ts';

/**
 * `versionary gateway`: the deprecation loop in front of an API written in any language.
 *
 * @example
 * ```sh
 * VERSIONARY_CONFIG=gateway.json PORT=8080 versionary gateway
 * ```
 */
export const gatewayCommand = defineCommand({
  name: 'gateway',
  summary: 'Run the deprecation loop as a reverse proxy in front of any HTTP API',
  help: `Usage: npx versionary gateway

A reverse proxy that puts the whole deprecation loop in front of existing HTTP APIs: routing by
path (/api/v1/...) or Accept, Deprecation/Sunset/Link/Warning headers, 410 after removal and in
brownouts, usage per client, email and webhook notices, the portal and docs pages, and the
management API under /admin/v1. See docs/gateway.md.

Configured by the environment, as the reference service is:
  VERSIONARY_CONFIG      the JSON config file; its "gateway" section is required:
                           prefix        where the API lives (default "/api")
                           vendor        media-type vendor: application/vnd.<vendor>.v2+json (default "api")
                           title         the docs' title (default: the newest document's info.title)
                           versions      { "v1": { "upstream": "http://host:port", "openapi": "./v1.json" }, ... }
                                         oldest first; documents are JSON or YAML, relative to the config file
                           identify      { "apiKeys": true } (default): Versionary keys, not forwarded
                                         { "header": "x-client-id" }: a trusted header names the client
                                         { "jwt": true } or { "jwt": { "claim": "sub" } }: a JWT checked
                                         with VERSIONARY_JWT_*, forwarded unchanged
                           clientHeader  the header that tells the upstream the client id
                                         (default "x-versionary-client")
                           timeoutMs     wait for an upstream's headers before a 504 (default 30000)
                         and the service's keys: versions, endpointDeprecations, publicUrl,
                         notices, webhooks, rateLimit, usage, timeouts, audience, removedStatus.
  PORT, HOST             where to listen (default 3000 on 127.0.0.1)
  DATABASE_URL           sqlite:<file> (default sqlite:./data/versionary.db) or postgres://...
  VERSIONARY_REDIS_URL   share rate limits and the change feed between several gateways
  VERSIONARY_ADMIN_KEY   an admin key for the management API (else one is created and printed once)
  VERSIONARY_SMTP_URL, VERSIONARY_MAIL_FROM   where notice emails go
  VERSIONARY_JWT_SECRET, _PUBLIC_KEY, _JWKS, _ISSUER, _AUDIENCE   for identify: jwt
  LOG_LEVEL              fatal, error, warn, info (default), debug, trace, silent

Stops cleanly on SIGTERM or SIGINT (docs/operations.md).`,
  options: {},
  positionals: { min: 0, max: 0, names: '' },
  async run({ io }) {
    // Imported here, not at the top: the other commands run without the service's packages.
    const { startService } = await importServiceModule(() => import('../../compose/start-service.ts'));
    const { composeGateway } = await importServiceModule(() => import('../../compose/gateway-composition.ts'));
    const readFile = (p: string) => readFileSync(p, 'utf8');
    await startService({ env: io.env ?? {}, readFile, compose: (config) => composeGateway({ config, readFile }) });
    return await new Promise<number>(() => {}).then(() => ExitCode.Ok);
  },
});
