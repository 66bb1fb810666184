import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, isVersionaryError, VersionaryError } from '../../core/errors/index.ts';
import { toProblem } from '../../http/problem.ts';
import type { ServiceContext } from '../../loop/host/feature.ts';
import type { ServiceConfig } from '../../loop/host/config.ts';
import { authorize } from '../../loop/access/auth/authenticate.ts';
import { principalOf, usageIdentityOf } from '../../kernel/ports/principal.ts';
import { brownoutsOf } from '../../loop/notices/brownouts-provided.ts';
import { renderNginxFiles, type NginxTarget } from './render.ts';

/** The key check nginx's `auth_request` calls (`versionary.conf`'s `/_versionary/auth`). */
export const nginxAuthPath = '/_versionary/nginx/auth';

/**
 * The control plane's side of nginx as the data plane: API calls are refused (nginx serves them),
 * the key check nginx calls is served, and the rendered files are written again, and nginx
 * reloaded, whenever what they hold changes (a deprecation, a rescheduled sunset, a brownout).
 */
export function nginxControlPlane(options: {
  config: ServiceConfig;
  /** Where to render; `undefined` renders nothing (the owner runs `versionary nginx`). */
  target?: NginxTarget;
  reload?: string[];
  /** Told once the files are written the first time (`versionary nginx` renders once and stops). */
  onRendered?: (files: Record<string, string>) => void;
}): {
  refuse: () => VersionaryError;
  install: (context: ServiceContext) => void;
} {
  return {
    refuse: () =>
      new VersionaryError({
        code: ErrorCode.NotFound,
        detail:
          'This is the control plane: API calls go through nginx, the data plane (docs/gateway.md#nginx-as-the-data-plane).',
      }),
    install(context) {
      context.app.get(nginxAuthPath, { logLevel: 'warn' }, keyCheck);
      const { target } = options;
      if (!target) return;
      const render = () =>
        renderNginxFiles({
          config: options.config,
          runtime: context.runtime,
          bundle: context.bundle,
          brownouts: brownoutsOf(context.app)?.() ?? [],
          target,
        });
      let written = '';
      let timer: NodeJS.Timeout | undefined;
      const app = context.app;
      const write = (first: boolean) => {
        const files = render();
        const text = JSON.stringify(files);
        if (text === written) return;
        written = text;
        mkdirSync(join(target.out, 'tmp'), { recursive: true });
        for (const [name, content] of Object.entries(files)) writeFileSync(join(target.out, name), content);
        if (first) {
          app.log.info({ out: target.out }, 'nginx files written');
          options.onRendered?.(files);
        } else reloadNginx(app, target.out, options.reload);
      };
      app.addHook('onReady', async () => {
        write(true);
        // Checked every second: changes within that second are one render and one reload.
        timer = setInterval(() => {
          try {
            write(false);
          } catch (error) {
            app.log.error({ err: error }, 'nginx files could not be written');
          }
        }, 1000);
        timer.unref();
      });
      app.addHook('onClose', async () => clearInterval(timer));
    },
  };
}

/** The rendering target of the `gateway.nginx` settings, paths relative to the config file. */
export function nginxTargetOf(config: ServiceConfig): { target: NginxTarget; reload?: string[] } | undefined {
  const nginx = config.settings.gateway?.nginx;
  if (!nginx) return undefined;
  const base = config.configPath ? resolve(config.configPath, '..') : process.cwd();
  const abs = (path: string) => (isAbsolute(path) ? path : resolve(base, path));
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return {
    target: {
      out: abs(nginx.out),
      listen: nginx.listen ?? 8080,
      control: nginx.control ?? `http://${host}:${config.port}`,
      ...(nginx.usageLog ? { usageLog: abs(nginx.usageLog) } : {}),
    },
    ...(nginx.reload ? { reload: nginx.reload } : {}),
  };
}

function reloadNginx(app: FastifyInstance, out: string, command: string[] | undefined): void {
  if (!command) {
    app.log.warn({ out }, 'nginx files written again: reload nginx to apply them (gateway.nginx.reload runs it)');
    return;
  }
  const child = spawn(command[0]!, command.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  child.on('error', (error) => app.log.error({ err: error, command }, 'nginx reload could not start'));
  child.on('exit', (code) => {
    if (code === 0) app.log.info({ out, command }, 'nginx files written again and nginx reloaded');
    else app.log.error({ out, command, code, stderr: stderr.slice(0, 2000) }, 'nginx reload failed');
  });
}

/**
 * `GET /_versionary/nginx/auth`: the credential of the original request (nginx passes its
 * headers) checked for the role nginx names in `X-Versionary-Role`: 204 with the client id and
 * roles, or the 401 or 403 the gateway would send, its problem URI-encoded in
 * `X-Versionary-Problem` (auth_request keeps headers, not bodies).
 */
function keyCheck(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const role = request.headers['x-versionary-role'] === 'write' ? 'write' : 'read';
  try {
    authorize(request, role);
  } catch (error) {
    if (!isVersionaryError(error)) throw error;
    const { status, body } = toProblem(error);
    const headers = { ...error.headers };
    const extensions: Record<string, unknown> = { ...error.extensions };
    if (error.errors) extensions.errors = error.errors;
    for (const [name, value] of Object.entries(headers)) reply.header(name, value);
    reply.header(
      'x-versionary-problem',
      encodeURIComponent(
        JSON.stringify({ status, code: body.code, title: body.title, detail: body.detail, extensions, headers }),
      ),
    );
    return reply.code(status).send();
  }
  const principal = principalOf(request)!;
  return reply
    .header('x-versionary-client', usageIdentityOf(request).clientId)
    .header('x-versionary-roles', [...principal.roles].join(','))
    .code(204)
    .send();
}
