import type { Brownout } from '../../core/notices/index.ts';
import type { VersionBundle } from '../../core/versions/index.ts';
import type { ServiceConfig } from '../../loop/host/config.ts';
import type { LifecycleRuntime } from '../../loop/lifecycle/runtime-types.ts';
import { renderHttpConf, renderNginxConf, renderServerConf, type NginxConfOptions } from './render-conf.ts';
import { renderLifecycleData } from './render-data.ts';
import { renderNjsModule } from './render-module.ts';

/** Where the rendered files go and what `nginx.conf` listens on. */
export interface NginxTarget {
  /** The directory of the files (absolute). */
  out: string;
  /** The port `nginx.conf` listens on (127.0.0.1). */
  listen: number;
  /** The control plane's origin, `http://127.0.0.1:3000`. */
  control: string;
  /** The usage log (absolute; default `<out>/usage.log`). */
  usageLog?: string;
  /** The njs module nginx loads (default Debian's). */
  module?: string;
}

/** Debian's and Ubuntu's path of the njs module (`libnginx-mod-http-js`). */
export const debianNjsModule = '/usr/lib/nginx/modules/ngx_http_js_module.so';

/**
 * Every file of the data plane by name, from the control plane's live lifecycle: the njs module
 * with the lifecycle as data, the `http {}` and `server {}` includes, and a whole `nginx.conf`.
 */
export function renderNginxFiles(options: {
  config: ServiceConfig;
  runtime: LifecycleRuntime;
  bundle: VersionBundle;
  brownouts: readonly Brownout[];
  target: NginxTarget;
}): Record<string, string> {
  const { config, target } = options;
  const gateway = config.settings.gateway!;
  const rateLimit = config.settings.rateLimit;
  const rate = { max: rateLimit.max, windowSeconds: rateLimit.windowSeconds };
  const data = renderLifecycleData({
    runtime: options.runtime,
    bundle: options.bundle,
    prefix: gateway.prefix,
    vendor: gateway.vendor,
    removedStatus: config.settings.lifecycle.removedStatus,
    brownouts: options.brownouts,
    rate,
  });
  const conf: NginxConfOptions = {
    out: target.out,
    prefix: gateway.prefix,
    upstreams: Object.fromEntries(gateway.versions.flatMap((v) => ('upstream' in v ? [[v.name, v.upstream]] : []))),
    control: target.control,
    usageLog: target.usageLog ?? `${target.out}/usage.log`,
    rate,
    authCacheSeconds: gateway.nginx?.authCacheSeconds ?? 10,
    listHeaders: data.listHeaders,
    clientHeader: gateway.clientHeader,
    keepsCredential: gateway.identify.kind !== 'apiKeys',
    forwardedHeaders: gateway.forwardedHeaders,
  };
  return {
    'versionary.js': renderNjsModule(data),
    'versionary-http.conf': renderHttpConf(conf),
    'versionary.conf': renderServerConf(conf),
    'nginx.conf': renderNginxConf({ ...conf, listen: target.listen, module: target.module ?? debianNjsModule }),
  };
}
