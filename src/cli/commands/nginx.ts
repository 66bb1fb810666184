import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { secretFileOf } from '../../gateway/nginx/secret.ts';
import { importServiceModule, loadStartService } from '../../compose/load-service.ts';
import { type CliCommand, flags, readString, ExitCode, UsageError } from '../command.ts';

/**
 * `versionary nginx`: render nginx's files (the data plane) from the config `versionary gateway`
 * reads, and the lifecycle in its database.
 */
export const command: CliCommand = {
  name: 'nginx',
  help: `Usage: npx versionary nginx --config <file> --out <dir> [--listen <port>] [--control <url>]
                        [--module <file>]

Render nginx as the data plane of the deprecation loop, from the config file (and database) that
the gateway command reads. nginx (with lua-nginx-module: OpenResty, or Debian's and Ubuntu's
libnginx-mod-http-lua with lua-resty-core and lua-cjson) then serves the API itself, reading the
decision table the control plane pushes into its shared memory: versions by path and Accept, the
lifecycle headers, extended access per client, closings, brownouts, deprecated parameters, the key
check (cached by digest), rate limits per role and usage per client (counted in shared memory,
sent to the control plane each second). versionary gateway
--control-plane serves the rest and pushes every change. See docs/gateway.md#nginx-as-the-data-plane.

Writes into <dir>:
  lua/                   the Lua data plane (versionary.lua and versionary/*.lua)
  versionary-http.conf   to include in http {}
  versionary.conf        to include in the server {} that serves the API
  nginx.conf             a whole configuration: nginx -p <dir> -c nginx.conf -g 'daemon off;'

Options:
  --config <file>        the config file, as VERSIONARY_CONFIG (its "gateway" section)
  --out <dir>            where to write (default: gateway.nginx.out)
  --listen <port>        the port nginx.conf listens on, 127.0.0.1 (default: gateway.nginx.listen, else 8080)
  --control <url>        the control plane's origin (default: gateway.nginx.control, else http://127.0.0.1:3000)
  --module <file>        the Lua module nginx.conf loads, or none when nginx has it built in (OpenResty)
                         (default Debian's ndk_http_module.so and ngx_http_lua_module.so)

Reads DATABASE_URL (and the other variables of versionary gateway) for the lifecycle changed
through the management API. The files hold no lifecycle: a lifecycle change needs no reload.
A config that derives a version from a newer one (derivedFrom) is refused, naming it: nginx does
not translate calls; serve it with versionary gateway (docs/gateway.md#derived-versions-behind-nginx).
With VERSIONARY_REDIS_URL (and VERSIONARY_REDIS_PREFIX), nginx counts rate limits in that Redis,
in the keys versionary gateway uses: every nginx host and gateway share one budget per client (a
password goes to <dir>/private/redis-password, mode 0600).`,
  options: flags('config out listen control module'),
  async run({ io, values }) {
    const given = io.env ?? {};
    const config = readString(values, 'config') ?? given.VERSIONARY_CONFIG;
    if (!config) throw new UsageError('--config <file> is required: the config file with the "gateway" section');
    const listen = readString(values, 'listen');
    if (listen !== undefined && (!/^[1-9][0-9]{0,4}$/.test(listen) || Number(listen) > 65535))
      throw new UsageError(`--listen must be a port from 1 to 65535 (got ${listen})`);
    const env = {
      LOG_LEVEL: 'error',
      ...given,
      VERSIONARY_CONFIG: config,
      PORT: '0',
      HOST: '127.0.0.1',
      VERSIONARY_SHUTDOWN_DELAY_MS: '0',
      // Rendering creates no admin key: a throwaway one stands in for the bootstrap key.
      VERSIONARY_ADMIN_KEY: given.VERSIONARY_ADMIN_KEY ?? randomBytes(24).toString('base64url'),
    };
    const startService = await loadStartService(env, 'gateway');
    const { composeGateway } = await importServiceModule(() => import('../../gateway/composition.ts'));
    const { nginxControlPlane, nginxTargetOf } = await importServiceModule(
      () => import('../../gateway/nginx/control-plane.ts'),
    );
    const readFile = (p: string) => readFileSync(p, 'utf8');
    let rendered!: (result: { files: string[]; out: string }) => void;
    const done = new Promise<{ files: string[]; out: string }>((settle) => (rendered = settle));
    let failed: number | undefined;
    let secretFile: string | undefined;
    const running = await startService({
      env,
      readFile,
      exit: (code) => {
        failed = code;
        rendered({ files: [], out: '' });
      },
      compose: (c) => {
        const configured = nginxTargetOf(c)?.target;
        const out = readString(values, 'out') ?? configured?.out;
        if (!out) throw new UsageError('--out <dir> is required (or gateway.nginx.out in the config)');
        const module = readString(values, 'module');
        const target = {
          out: resolve(out),
          listen: listen !== undefined ? Number(listen) : (configured?.listen ?? 8080),
          control: readString(values, 'control') ?? c.settings.gateway?.nginx?.control ?? 'http://127.0.0.1:3000',
          ...(configured?.secretFile ? { secretFile: configured.secretFile } : {}),
          ...(module ? { module } : {}),
        };
        secretFile = configured?.secretFile ?? secretFileOf(target.out);
        const plane = nginxControlPlane({
          config: c,
          target,
          onRendered: (files) => rendered({ files: Object.keys(files), out: target.out }),
        });
        return composeGateway({ config: c, readFile, controlPlane: plane });
      },
    });
    const { files, out } = await done;
    await running.shutdown('SIGTERM');
    if (failed !== undefined) return failed;
    const { workerAccessProblem } = await importServiceModule(() => import('../../gateway/nginx/worker-access.ts'));
    const unreachable = workerAccessProblem(out);
    if (unreachable) {
      io.stderr(`${unreachable}\n`);
      return ExitCode.Error;
    }
    io.stdout(
      `Wrote ${files.map((f) => `${out}/${f}`).join(', ')}.\n` +
        `The secret nginx and its control plane share is ${secretFile} (kept when rendered again): ` +
        `start the control plane with gateway.nginx in its config, or --control-plane --nginx-out ${out}.\n` +
        `Run: nginx -p ${out} -c nginx.conf -g 'daemon off;'\n`,
    );
    return ExitCode.Ok;
  },
};
