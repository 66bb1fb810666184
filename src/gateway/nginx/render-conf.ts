import { join } from 'node:path';
import { pathOverrides } from '../../http/forward-headers.ts';
import { nginxAuthPath, nginxTablePath, nginxUsagePath } from './control-paths.ts';
import type { NginxRedis } from './redis-settings.ts';
import { privateDirOf } from './secret.ts';

/** What the nginx configuration needs: where things are, never the lifecycle (nginx is pushed it). */
export interface NginxConfOptions {
  /** Where the files go (absolute): the Lua files, the includes, and for `nginx.conf` its pid, logs and temp files. */
  out: string;
  prefix: string;
  /** Each version's upstream origin, `http://127.0.0.1:9001`. */
  upstreams: Record<string, string>;
  /** The control plane's origin: the key check, the table, the docs, the portal and the management API. */
  control: string;
  /** The usage counters' shared memory, in nginx's size syntax (`8m`). */
  usageMemory: string;
  /** How long nginx keeps a key check's answer (seconds). */
  authCacheSeconds: number;
  /** The header that tells the upstream the client id. */
  clientHeader: string;
  /** Whether the credential goes upstream (it is the upstream's, not a Versionary key). */
  keepsCredential: boolean;
  /** Which forwarding headers go upstream, as `versionary gateway` sends them (`gateway.forwardedHeaders`). */
  forwardedHeaders: 'both' | 'forwarded' | 'x-forwarded';
  /** The 503 problem's body while no table has reached nginx (rendered by core). */
  noTable: string;
  /** The shared secret's file (absolute), which nginx's master reads at start. */
  secretFile: string;
  /** The 401 problem's body for a push without the secret (rendered by core). */
  pushRefused: string;
  /** The Redis the rate limits are counted in, shared with every host (`VERSIONARY_REDIS_URL`); its password's file. */
  redis?: { redis: NginxRedis; passwordFile: string };
}

const hostOf = (origin: string) => new URL(origin).host;

/** The unix socket the control plane pushes to: nginx makes it 0666, in the private folder (0700), and each push carries the secret. */
export function pushSocketOf(out: string): string {
  return join(privateDirOf(out), 'push.sock');
}

/** A Lua long string that no value can close. */
function luaString(text: string): string {
  let level = '=';
  while (text.includes(`]${level}]`)) level += '=';
  return `[${level}[${text}]${level}]`;
}

/** The Lua table of the Redis settings: no password (nginx's master reads it from its file). */
function redisSettings(redis: NginxRedis, passwordFile: string): string {
  const fields = [
    `host = ${luaString(redis.host)}`,
    `port = ${redis.port}`,
    `db = ${redis.db}`,
    `prefix = ${luaString(redis.prefix)}`,
    `timeout_ms = ${redis.timeoutMs}`,
    `ssl = ${redis.ssl}`,
    ...(redis.username !== undefined ? [`username = ${luaString(redis.username)}`] : []),
    ...(redis.password !== undefined ? [`password_file = ${luaString(passwordFile)}`] : []),
  ];
  return `{ ${fields.join(', ')} }`;
}

/** `versionary-http.conf`: what goes in `http {}`. */
export function renderHttpConf(o: NginxConfOptions): string {
  const control = new URL(o.control);
  const settings = [
    `control_host = "${control.hostname}"`,
    `control_port = ${Number(control.port || 80)}`,
    `control_authority = "${control.host}"`,
    `auth_path = "${nginxAuthPath}"`,
    `table_path = "${nginxTablePath}"`,
    `usage_path = "${nginxUsagePath}"`,
    'usage_interval = 1',
    `key_ttl = ${o.authCacheSeconds}`,
    'log_interval = 10',
    `no_table = ${luaString(o.noTable)}`,
    `push_refused = ${luaString(o.pushRefused)}`,
    `secret_file = ${luaString(o.secretFile)}`,
    ...(o.redis ? [`redis = ${redisSettings(o.redis.redis, o.redis.passwordFile)}`] : []),
  ];
  return [
    '# Written by `versionary nginx`: include it in http {} (docs/gateway.md#nginx-as-the-data-plane).',
    // The data plane's modules, then the vendored ones (lua-resty-redis), then nginx's own.
    `lua_package_path "${join(o.out, 'lua')}/?.lua;${join(o.out, 'lua', 'vendor')}/?.lua;;";`,
    // rediss://: the Redis server's certificate is checked against the system's CA bundle.
    ...(o.redis?.redis.ssl ? ['lua_ssl_trusted_certificate /etc/ssl/certs/ca-certificates.crt;'] : []),
    // The table (one per generation), the key cache by digest, and the rate and failed-key counters.
    'lua_shared_dict versionary_state 32m;',
    'lua_shared_dict versionary_keys 16m;',
    'lua_shared_dict versionary_counts 16m;',
    // The calls per client, version, operation and minute, sent to the control plane each second.
    `lua_shared_dict versionary_usage ${o.usageMemory};`,
    `init_by_lua_block {\n  require("versionary").init({\n    ${settings.join(',\n    ')},\n  })\n}`,
    'init_worker_by_lua_block { require("versionary").init_worker() }',
    'exit_worker_by_lua_block { require("versionary").exit_worker() }',
    ...Object.entries(o.upstreams).map(
      ([name, origin]) => `upstream versionary_${name} { server ${hostOf(origin)}; keepalive 64; }`,
    ),
    `upstream versionary_control { server ${hostOf(o.control)}; keepalive 8; }`,
    // What `proxy_pass` and the headers read, set by the Lua in `access`: maps, not `set`, so no
    // directive runs per request; the defaults are read only where the Lua set nothing (the
    // target when `Accept` named no version, the request id before the table reached nginx).
    'map $request_method $versionary_version { default ""; }',
    'map $versionary_version $versionary_client { default ""; }',
    'map $versionary_version $versionary_target { default $request_uri; }',
    'map $versionary_version $versionary_request_id { default $request_id; }',
    `map $versionary_version $versionary_upstream_host {\n  default "";\n${Object.entries(o.upstreams)
      .map(([name, origin]) => `  ${name} "${hostOf(origin)}";`)
      .join('\n')}\n}`,
    '# The control plane pushes each new table and key revocation here, with the shared secret; only nginx and its user reach the folder.',
    `server {\n    listen unix:${pushSocketOf(o.out)};\n    access_log off;\n    client_max_body_size 64m;\n    client_body_buffer_size 64m;\n    location / {\n        content_by_lua_block { require("versionary").push() }\n    }\n}`,
    '',
  ].join('\n');
}

/** `versionary.conf`: the locations to include in an existing `server {}`. */
export function renderServerConf(o: NginxConfOptions): string {
  // The mode's headers, and an empty value for the others: the client's own never pass (nginx drops an empty header).
  const trio = o.forwardedHeaders !== 'forwarded';
  const rfc = o.forwardedHeaders !== 'x-forwarded';
  const forwarded = [
    `proxy_set_header X-Forwarded-For ${trio ? '$proxy_add_x_forwarded_for' : '""'};`,
    `proxy_set_header X-Forwarded-Proto ${trio ? '$scheme' : '""'};`,
    `proxy_set_header X-Forwarded-Host ${trio ? '$http_host' : '""'};`,
    `proxy_set_header Forwarded ${rfc ? '"for=$remote_addr;proto=$scheme;host=\\"$http_host\\""' : '""'};`,
    // The method and path overrides some frameworks honour: never sent on (the gateway's very list).
    ...pathOverrides.map((name) => `proxy_set_header ${name} "";`),
    'proxy_http_version 1.1;',
    'proxy_set_header Connection "";',
  ].join('\n    ');
  return `# Written by \`versionary nginx\`: include it in the server {} that serves the API (docs/gateway.md#nginx-as-the-data-plane).
# nginx's own 400 for a target it cannot decode (\`%zz\`, \`%00\`) is the decision table's problem, as the gateway answers it.
# (An internal location, not a named one: nginx has no URI to carry to a named location then.)
error_page 400 = /_versionary/bad-request;
location = /_versionary/bad-request {
    internal;
    add_header X-Request-Id $versionary_request_id always;
    content_by_lua_block { require("versionary").bad_request() }
}
# nginx's own 405 for TRACE, which it refuses before any location: the table's 405 with the route's Allow.
error_page 405 = /_versionary/not-allowed;
location = /_versionary/not-allowed {
    internal;
    add_header X-Request-Id $versionary_request_id always;
    content_by_lua_block { require("versionary").not_allowed() }
}
# Versionary's own paths are never reachable from outside.
location ^~ /_versionary/ {
    return 404;
}
location ${o.prefix}/ {
    access_by_lua_block { require("versionary").access() }
    header_filter_by_lua_block { require("versionary").header_filter() }
    error_page 502 504 = @versionary_upstream;
    client_max_body_size 0;
    proxy_request_buffering off;
    proxy_pass http://versionary_$versionary_version$versionary_target;
    proxy_set_header Host $versionary_upstream_host;
    proxy_set_header ${o.clientHeader} $versionary_client;
${o.keepsCredential ? '' : '    proxy_set_header Authorization "";\n    proxy_set_header X-API-Key "";\n'}    ${forwarded}
    add_header X-Request-Id $versionary_request_id always;
}
location = ${o.prefix} {
    rewrite ^ /_versionary/control last;
}
# The upstream's failure: the table's 502 or 504 problem, not a client's call (not counted).
location @versionary_upstream {
    add_header X-Request-Id $versionary_request_id always;
    content_by_lua_block { require("versionary").upstream_failed() }
}
location = /_versionary/control {
    internal;
    proxy_pass http://versionary_control$request_uri;
    proxy_set_header Host $http_host;
    ${forwarded}
}
`;
}

/** `nginx.conf`: a whole configuration, `nginx -p DIR -c nginx.conf -g 'daemon off;'`, with everything under DIR. */
export function renderNginxConf(o: NginxConfOptions & { listen: number; modules: readonly string[] }): string {
  const tmp = (name: string) => join(o.out, 'tmp', name);
  return `# Written by \`versionary nginx\`: run it with nginx -p ${o.out} -c nginx.conf -g 'daemon off;'
${o.modules.map((m) => `load_module ${m};`).join('\n')}
worker_processes 1;
pid ${join(o.out, 'nginx.pid')};
error_log ${join(o.out, 'error.log')} notice;
events { worker_connections 1024; }
http {
    access_log ${join(o.out, 'access.log')};
    client_body_temp_path ${tmp('body')};
    proxy_temp_path ${tmp('proxy')};
    fastcgi_temp_path ${tmp('fastcgi')};
    uwsgi_temp_path ${tmp('uwsgi')};
    scgi_temp_path ${tmp('scgi')};
    server_tokens off;
    include ${join(o.out, 'versionary-http.conf')};
    server {
        listen 127.0.0.1:${o.listen};
        include ${join(o.out, 'versionary.conf')};
        # Everything else (the portal, the docs, the management API) is the control plane's.
        location / {
            proxy_pass http://versionary_control;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
${pathOverrides.map((name) => `            proxy_set_header ${name} "";\n`).join('')}            proxy_http_version 1.1;
            proxy_set_header Connection "";
        }
    }
}
`;
}
