import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import { dataPlaneSecretProblem } from '../../core/rulebook/problems.ts';
import { toProblem } from '../../http/problem.ts';
import type { ServiceConfig } from '../../loop/settings.ts';
import { renderHttpConf, renderNginxConf, renderServerConf, type NginxConfOptions } from './render-conf.ts';
import { nginxRedisOf, redisPasswordFileOf } from './redis-settings.ts';
import { secretFileOf } from './secret.ts';

/** Where the rendered files go and what `nginx.conf` listens on. */
export interface NginxTarget {
  /** The directory of the files (absolute). */
  out: string;
  /** The port `nginx.conf` listens on (127.0.0.1). */
  listen: number;
  /** The control plane's origin, `http://127.0.0.1:3000`. */
  control: string;
  /** The shared secret's file (absolute; default `<out>/private/secret`). */
  secretFile?: string;
  /** The Lua module nginx.conf loads; `none` when nginx has it built in (OpenResty). Default Debian's. */
  module?: string;
}

/**
 * Debian's and Ubuntu's lua-nginx-module (`libnginx-mod-http-lua`) and the NDK it needs, loaded in this order.
 *
 * @internal exported for the tests
 */
export const debianLuaModules = [
  '/usr/lib/nginx/modules/ndk_http_module.so',
  '/usr/lib/nginx/modules/ngx_http_lua_module.so',
];

/** The Lua data plane's files, shipped beside this module (`dist/gateway/nginx/lua/` once built). */
const luaDir = new URL('./lua/', import.meta.url).pathname;

function luaFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string, under: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }))
      if (entry.isDirectory()) walk(join(dir, entry.name), `${under}${entry.name}/`);
      // A vendored module's licence goes with it.
      else if (entry.name.endsWith('.lua') || entry.name.startsWith('LICENSE'))
        files[`lua/${under}${entry.name}`] = readFileSync(join(dir, entry.name), 'utf8');
  };
  walk(luaDir, '');
  return files;
}

/** Every file of the data plane by name. None holds the lifecycle: it is pushed, so a change needs no reload. */
export function renderNginxFiles(options: { config: ServiceConfig; target: NginxTarget }): Record<string, string> {
  const { config, target } = options;
  const gateway = config.settings.gateway!;
  // Before the control plane's first table reaches nginx (it is asked for one at once): a 503.
  const { body } = toProblem(
    new VersionaryError({
      code: ErrorCode.StorageUnavailable,
      detail: 'The rules of this API have not reached nginx from its control plane yet. Retry later.',
    }),
  );
  const conf: NginxConfOptions = {
    out: target.out,
    prefix: gateway.prefix,
    upstreams: Object.fromEntries(gateway.versions.flatMap((v) => ('upstream' in v ? [[v.name, v.upstream]] : []))),
    control: target.control,
    usageMemory: gateway.nginx?.usageMemory ?? '8m',
    authCacheSeconds: gateway.nginx?.authCacheSeconds ?? 10,
    clientHeader: gateway.clientHeader,
    keepsCredential: gateway.identify.kind !== 'apiKeys',
    forwardedHeaders: gateway.forwardedHeaders,
    noTable: JSON.stringify(body),
    secretFile: secretFileOfTarget(target),
    pushRefused: JSON.stringify(toProblem(dataPlaneSecretProblem()).body),
  };
  const redis = nginxRedisOf(config);
  if (redis) conf.redis = { redis, passwordFile: redisPasswordFileOf(target.out) };
  const modules = target.module === 'none' ? [] : target.module ? [target.module] : debianLuaModules;
  return {
    ...luaFiles(),
    'versionary-http.conf': renderHttpConf(conf),
    'versionary.conf': renderServerConf(conf),
    'nginx.conf': renderNginxConf({ ...conf, listen: target.listen, modules }),
  };
}

export function secretFileOfTarget(target: NginxTarget): string {
  return target.secretFile ?? secretFileOf(target.out);
}
