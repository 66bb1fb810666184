import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';

/** Where portal assets are served from. */
export const assetPath = '/portal-assets';

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

/**
 * Serve the few files pages need, read once at start: the Swagger UI bundle and stylesheet from
 * `node_modules` and the portal's own CSS and script. A fixed list, not a directory: nothing else
 * in the package is reachable.
 *
 * @example
 * ```ts
 * registerPortalAssets(app);
 * ```
 */
export function registerPortalAssets(app: FastifyInstance): void {
  const swagger = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  const own = join(dirname(fileURLToPath(import.meta.url)), 'assets');
  const files: Record<string, [string, string]> = {
    'swagger-ui.css': [join(swagger, 'swagger-ui.css'), 'text/css; charset=utf-8'],
    'swagger-ui-bundle.js': [join(swagger, 'swagger-ui-bundle.js'), 'text/javascript; charset=utf-8'],
    'portal.css': [join(own, 'portal.css'), 'text/css; charset=utf-8'],
    'docs.js': [join(own, 'docs.js'), 'text/javascript; charset=utf-8'],
  };
  for (const [name, [path, type]] of Object.entries(files)) {
    const body = readFileSync(path);
    const asset: Asset = { body, type, etag: `"a-${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"` };
    app.get(`${assetPath}/${name}`, async (_request, reply) => reply
      .headers({ 'content-type': asset.type, etag: asset.etag, 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' })
      .send(asset.body));
  }
}
