import { join } from 'node:path';
import { usageAccessLog, usageLogFormat } from './usage-log-format.ts';
import { njsExports } from './render-module.ts';

/** What the nginx configuration needs beside the lifecycle. */
export interface NginxConfOptions {
  /** Where the files go (absolute): `versionary.js`, the includes, and for `nginx.conf` its pid, logs and temp files. */
  out: string;
  prefix: string;
  /** Each version's upstream origin, `http://127.0.0.1:9001`. */
  upstreams: Record<string, string>;
  /** The control plane's origin: the key check, the docs, the portal and the management API. */
  control: string;
  /** The usage log's path (absolute). */
  usageLog: string;
  rate: { max: number; windowSeconds: number };
  /** How long nginx keeps a key check's answer (seconds). */
  authCacheSeconds: number;
  /** `API-Supported-Versions` and `API-Deprecated-Versions`, as the lifecycle writes them now. */
  listHeaders: Record<string, string>;
  /** The header that tells the upstream the client id. */
  clientHeader: string;
  /** Whether the credential goes upstream (it is the upstream's, not a Versionary key). */
  keepsCredential: boolean;
  /** Which forwarding headers go upstream, as `versionary gateway` sends them (`gateway.forwardedHeaders`). */
  forwardedHeaders: 'both' | 'forwarded' | 'x-forwarded';
}

const hostOf = (origin: string) => new URL(origin).host;

/**
 * `versionary-http.conf`: what goes in `http {}` (the njs module and its variables, the rate
 * limit's zone, the key check's cache, the upstreams and the usage log's format).
 */
export function renderHttpConf(o: NginxConfOptions): string {
  const sets = Object.keys(njsExports)
    .filter((name) => !['gate', 'late', 'auth_problem', 'limited', 'upstream_error'].includes(name))
    .map((name) => `js_set $versionary_${name} versionary.${name};`);
  // limit_req counts per minute: the configured window's rate, rounded up to a whole request.
  const perMinute = Math.max(1, Math.ceil((o.rate.max * 60) / o.rate.windowSeconds));
  return [
    '# Written by `versionary nginx`: include it in http {} (docs/gateway.md#nginx-as-the-data-plane).',
    `js_import versionary from ${join(o.out, 'versionary.js')};`,
    ...sets,
    // limit_req runs before auth_request: the zone is keyed on the credential itself (its hash), or the address without one.
    `limit_req_zone $versionary_credential zone=versionary_clients:10m rate=${perMinute}r/m;`,
    `proxy_cache_path ${join(o.out, 'auth-cache')} levels=1 keys_zone=versionary_auth:1m max_size=16m inactive=${Math.max(60, o.authCacheSeconds * 6)}s;`,
    `upstream versionary_control { server ${hostOf(o.control)}; keepalive 8; }`,
    ...Object.entries(o.upstreams).map(
      ([name, origin]) => `upstream versionary_${name} { server ${hostOf(origin)}; keepalive 32; }`,
    ),
    `map $versionary_version $versionary_upstream_host {\n  default "";\n${Object.entries(o.upstreams)
      .map(([name, origin]) => `  ${name} "${hostOf(origin)}";`)
      .join('\n')}\n}`,
    usageLogFormat,
    '',
  ].join('\n');
}

/** `versionary.conf`: the locations to include in an existing `server {}`. */
export function renderServerConf(o: NginxConfOptions): string {
  const log = usageAccessLog(o.usageLog);
  const burst = Math.max(0, o.rate.max - 1);
  const limit = `limit_req zone=versionary_clients burst=${burst} nodelay;\n    limit_req_status 429;`;
  const auth = [
    'auth_request /_versionary/auth;',
    'auth_request_set $versionary_client $upstream_http_x_versionary_client;',
    'auth_request_set $versionary_auth_problem $upstream_http_x_versionary_problem;',
    'error_page 401 403 = @versionary_auth;',
    'error_page 429 = @versionary_limited;',
  ].join('\n    ');
  // The mode's headers, and an empty value for the others: the client's own never pass (nginx drops an empty header).
  const trio = o.forwardedHeaders !== 'forwarded';
  const rfc = o.forwardedHeaders !== 'x-forwarded';
  const forwarded = [
    trio ? 'proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;' : 'proxy_set_header X-Forwarded-For "";',
    `proxy_set_header X-Forwarded-Proto ${trio ? '$scheme' : '""'};`,
    `proxy_set_header X-Forwarded-Host ${trio ? '$http_host' : '""'};`,
    rfc
      ? 'proxy_set_header Forwarded "for=$remote_addr;proto=$scheme;host=\\"$http_host\\"";'
      : 'proxy_set_header Forwarded "";',
    'proxy_http_version 1.1;',
    'proxy_set_header Connection "";',
  ].join('\n    ');
  const headers = [
    ...Object.entries(o.listHeaders).map(([name, value]) => `add_header ${name} "${value}" always;`),
    'add_header Deprecation $versionary_deprecation always;',
    'add_header Sunset $versionary_sunset always;',
    'add_header Link $versionary_link always;',
    'add_header Warning $versionary_warning always;',
    'add_header Vary $versionary_vary always;',
    'add_header X-Request-Id $request_id always;',
  ].join('\n    ');
  return `# Written by \`versionary nginx\`: include it in the server {} that serves the API (docs/gateway.md#nginx-as-the-data-plane).
location ${o.prefix}/ {
    if ($versionary_route = gate) { rewrite ^ /_versionary/gate last; }
    if ($versionary_route = late) { rewrite ^ /_versionary/late last; }
    if ($versionary_route = "") { rewrite ^ /_versionary/control last; }
    ${limit}
    ${auth}
    error_page 502 504 = @versionary_upstream;
    client_max_body_size 0;
    proxy_request_buffering off;
    proxy_pass http://versionary_$versionary_version$versionary_target;
    proxy_set_header Host $versionary_upstream_host;
    proxy_set_header ${o.clientHeader} $versionary_client;
${o.keepsCredential ? '' : '    proxy_set_header Authorization "";\n    proxy_set_header X-API-Key "";\n'}    ${forwarded}
    ${headers}
    ${log}
}
location = ${o.prefix} {
    rewrite ^ /_versionary/control last;
}
location = /_versionary/gate {
    internal;
    add_header X-Request-Id $request_id always;
    js_content versionary.gate;
    ${log}
}
location = /_versionary/late {
    internal;
    ${limit}
    ${auth}
    add_header X-Request-Id $request_id always;
    js_content versionary.late;
    ${log}
}
location @versionary_auth {
    add_header X-Request-Id $request_id always;
    js_content versionary.auth_problem;
    ${log}
}
location @versionary_limited {
    add_header X-Request-Id $request_id always;
    js_content versionary.limited;
    ${log}
}
location @versionary_upstream {
    add_header X-Request-Id $request_id always;
    js_content versionary.upstream_error;
    ${log}
}
location = /_versionary/control {
    internal;
    proxy_pass http://versionary_control$request_uri;
    proxy_set_header Host $http_host;
    ${forwarded}
}
# The key check: one call to the control plane per credential and role, kept ${o.authCacheSeconds} s.
location = /_versionary/auth {
    internal;
    proxy_pass http://versionary_control/_versionary/nginx/auth;
    proxy_method GET;
    proxy_pass_request_body off;
    proxy_set_header Content-Length "";
    proxy_set_header X-Versionary-Role $versionary_role;
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_cache versionary_auth;
    proxy_cache_methods GET HEAD POST;
    proxy_cache_key "$versionary_credential $versionary_role";
    proxy_cache_valid 204 401 403 ${o.authCacheSeconds}s;
    proxy_ignore_headers Cache-Control Expires Set-Cookie Vary X-Accel-Expires;
    proxy_cache_lock on;
}
`;
}

/** `nginx.conf`: a whole configuration, `nginx -p DIR -c nginx.conf -g 'daemon off;'`, with everything under DIR. */
export function renderNginxConf(o: NginxConfOptions & { listen: number; module: string }): string {
  const tmp = (name: string) => join(o.out, 'tmp', name);
  return `# Written by \`versionary nginx\`: run it with nginx -p ${o.out} -c nginx.conf -g 'daemon off;'
load_module ${o.module};
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
            proxy_http_version 1.1;
            proxy_set_header Connection "";
        }
    }
}
`;
}
