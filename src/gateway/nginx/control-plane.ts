import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, isVersionaryError, VersionaryError } from '../../core/errors/index.ts';
import { dataPlaneSecretProblem } from '../../core/rulebook/problems.ts';
import { toProblem } from '../../http/problem.ts';
import type { ServiceConfig } from '../../loop/settings.ts';
import { authorize } from '../../loop/access/auth/authenticate.ts';
import { lowerCased } from '../../loop/lifecycle/decision-table/problem-registry.ts';
import { principalOf, usageIdentityOf } from '../../kernel/ports/principal.ts';
import { nginxAuthPath, nginxSecretHeader, nginxTablePath } from './control-paths.ts';
import { createTablePusher, type TablePusher } from './push.ts';
import { needsResolver, nginxRedisOf, writeRedisPassword } from './redis-settings.ts';
import { renderNginxFiles, secretFileOfTarget, type NginxTarget } from './render.ts';
import { ensureSecret, isSecret, privateDirOf } from './secret.ts';
import type { UsageBatch } from './usage-batch.ts';
import { installUsageIntake } from './usage-intake.ts';
import { workerAccessProblem } from './worker-access.ts';
import type { LifecycleContext } from '../../loop/lifecycle/context.ts';

export { nginxAuthPath } from './control-paths.ts';

/**
 * The control plane's side of nginx as the data plane: API calls refused (nginx serves them), the
 * key check and the table served, the files written once, and every new table and key change
 * pushed into nginx's shared memory (no reload).
 */
export function nginxControlPlane(options: {
  config: ServiceConfig;
  /** Where to render; `undefined` renders nothing (the owner runs `versionary nginx`). */
  target?: NginxTarget;
  /** `false`: the files are `versionary nginx`'s, kept as they are; only the secret is read and the socket pushed to. */
  renders?: boolean;
  /** Told once the files are written (`versionary nginx` renders once and stops). */
  onRendered?: (files: Record<string, string>) => void;
  /** Told of the pusher, for a caller that must know a change reached nginx (tests). */
  onPusher?: (pusher: TablePusher) => void;
  /** Told of each usage batch recorded (tests read the calls nginx counted). */
  onUsage?: (batch: UsageBatch) => void;
}): { refuse: () => VersionaryError; install: (context: LifecycleContext) => void } {
  refuseDerivedVersions(options.config);
  return {
    refuse: () =>
      new VersionaryError({
        code: ErrorCode.NotFound,
        detail:
          'This is the control plane: API calls go through nginx, the data plane (docs/gateway.md#nginx-as-the-data-plane).',
      }),
    install(context) {
      const { app } = context;
      const { target } = options;
      // nginx's calls carry the shared secret; without a target there is none, and every call is refused.
      let secret: string | undefined;
      const nginxOnly = async (request: FastifyRequest) => {
        if (secret === undefined || !isSecret(request.headers[nginxSecretHeader], secret))
          throw dataPlaneSecretProblem();
      };
      app.get(nginxAuthPath, { logLevel: 'warn', onRequest: nginxOnly }, keyCheck);
      installUsageIntake(context, { guard: nginxOnly, ...(options.onUsage ? { onBatch: options.onUsage } : {}) });
      const pusher = createTablePusher(context, { target, secret: () => secret });
      app.get(nginxTablePath, { logLevel: 'warn', onRequest: nginxOnly }, async (_request, reply) => {
        const table = await pusher.table();
        return reply.header('x-versionary-now', String(context.clock.now())).send(table);
      });
      if (!target) {
        app.addHook('onReady', async () =>
          app.log.error(
            "neither gateway.nginx nor --nginx-out: the control plane knows no shared secret, and refuses nginx's key checks and table requests (docs/gateway.md#the-shared-secret)",
          ),
        );
        return;
      }
      options.onPusher?.(pusher);
      app.addHook('onReady', async () => {
        secret = secretOf(target);
        if (options.renders !== false) {
          const files = renderNginxFiles({ config: options.config, target });
          writeFiles(target.out, files);
          const redis = nginxRedisOf(options.config);
          writeRedisPassword(target.out, redis);
          if (redis && needsResolver(redis))
            app.log.warn(
              { host: redis.host },
              "nginx resolves the Redis host's name only with a `resolver` in http {}: add one, or name Redis by its address (docs/gateway.md#several-nginx-hosts-share-rate-limits)",
            );
          app.log.info({ out: target.out }, 'nginx files written');
          const unreachable = workerAccessProblem(target.out);
          if (unreachable) app.log.error({ out: target.out }, unreachable);
          options.onRendered?.(files);
        }
        pusher.start();
      });
      // A revocation reaches nginx before the call that made it answers.
      app.addHook('onSend', async () => pusher.settled());
      app.addHook('onClose', async () => pusher.stop());
    },
  };
}

/** A config that derives a version is refused: nginx forwards calls, it does not translate them. */
function refuseDerivedVersions(config: ServiceConfig): void {
  const derived = (config.settings.gateway?.versions ?? []).filter((v) => 'derivedFrom' in v);
  if (derived.length === 0) return;
  const errors = derived.map((v) => ({
    pointer: `/gateway/versions/${v.name}/derivedFrom`,
    detail: `gateway.versions.${v.name} is derived from ${(v as { derivedFrom: string }).derivedFrom}, and nginx as the data plane cannot translate a derived version: serve this config with \`versionary gateway\` as the data plane (nginx may proxy to it), or leave ${v.name} out of the config nginx serves (docs/gateway.md#derived-versions-behind-nginx)`,
  }));
  throw new VersionaryError({ code: ErrorCode.InvalidConfig, detail: errors[0]!.detail, errors });
}

/** The shared secret (written when there is none), and the push socket's private folder made 0700 (nginx makes the socket 0666). */
function secretOf(target: NginxTarget): string {
  const dir = privateDirOf(target.out);
  // `out` itself keeps the usual mode: nginx's workers read the files in it.
  mkdirSync(target.out, { recursive: true });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Made by an older render, or under a laxer umask.
  chmodSync(dir, 0o700);
  return ensureSecret(secretFileOfTarget(target));
}

function writeFiles(out: string, files: Record<string, string>): void {
  mkdirSync(join(out, 'tmp'), { recursive: true });
  for (const [name, content] of Object.entries(files)) {
    const path = join(out, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    chmodSync(path, 0o644);
  }
}

/** The rendering target of the `gateway.nginx` settings, paths relative to the config file. */
export function nginxTargetOf(config: ServiceConfig): { target: NginxTarget } | undefined {
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
      ...(nginx.secretFile ? { secretFile: abs(nginx.secretFile) } : {}),
    },
  };
}

/**
 * `GET /_versionary/nginx/auth`: the credential checked for the role in `X-Versionary-Role`.
 * Answers `{ client, roles }`, `{ problem }` (a 401), or both for a client without the role (a
 * 403), so nginx counts the call against the client.
 */
function keyCheck(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const role = request.headers['x-versionary-role'] === 'write' ? 'write' : 'read';
  const principal = principalOf(request);
  const identity = principal ? { client: usageIdentityOf(request).clientId, roles: [...principal.roles] } : {};
  try {
    authorize(request, role);
  } catch (error) {
    if (!isVersionaryError(error)) throw error;
    const { status, body } = toProblem(error);
    return reply.send({ ...identity, problem: { status, headers: lowerCased(error.headers), body } });
  }
  return reply.send(identity);
}
