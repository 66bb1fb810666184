import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';

export const assetPath = '/portal-assets';

/** The site icon; also answers `/favicon.ico`, which browsers ask for on pages that name none. */
export const iconUrl = `${assetPath}/icon.svg`;

// An hour for files that change with a release; a year for the icon, which does not.
const shortCache = 'public, max-age=3600';
const longCache = 'public, max-age=31536000';

/** Serve the few files pages need, read once at start: a fixed list, so nothing else is reachable. */
export function registerPortalAssets(app: FastifyInstance): void {
  const swagger = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const own = join(dirname(fileURLToPath(import.meta.url)), 'assets');
  const files: Record<string, [string, string, string]> = {
    'swagger-ui.css': [join(swagger, 'swagger-ui.css'), 'text/css; charset=utf-8', shortCache],
    'swagger-ui-bundle.js': [join(swagger, 'swagger-ui-bundle.js'), 'text/javascript; charset=utf-8', shortCache],
    'portal.css': [join(own, 'portal.css'), 'text/css; charset=utf-8', shortCache],
    'docs.js': [join(own, 'docs.js'), 'text/javascript; charset=utf-8', shortCache],
    'icon.svg': [join(own, 'icon.svg'), 'image/svg+xml', longCache],
  };
  for (const [name, [path, type, cache]] of Object.entries(files)) {
    const body = readFileSync(path);
    const etag = `"a-${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
    const headers = { 'content-type': type, etag, 'cache-control': cache, 'x-content-type-options': 'nosniff' };
    const send = async (_request: unknown, reply: FastifyReply) => reply.headers(headers).send(body);
    app.get(`${assetPath}/${name}`, send);
    if (`${assetPath}/${name}` === iconUrl) app.get('/favicon.ico', send);
  }
}
