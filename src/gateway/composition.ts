import { dirname, isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ErrorCode, VersionaryError } from '../core/errors/index.ts';
import { bundleFromOpenApi } from '../core/versions/index.ts';
import { createJwtVerifier } from '../loop/access/auth/jwt.ts';
import type { ServiceConfig } from '../loop/settings.ts';
import { addDerivedVersions } from './derived/derived-versions.ts';
import type { LoopProduct } from '../loop/product.ts';
import { policyProblems } from '../loop/lifecycle/start-problems.ts';
import { createGatewayIdentify } from './identify.ts';
import type { LifecycleContext } from '../loop/lifecycle/context.ts';

// Nothing is deprecated unless the config says so: the upstream's versions are the team's to
// schedule. No release dates but the config's: the reference service's are not the upstream's.
const gatewayReleases = { defaultDeprecated: [], releases: {} };

/**
 * The gateway as the loop's parts with forwarding in place of handlers: its versions read from
 * their OpenAPI documents into a bundle, and the `identify` rule. Every problem is reported at once.
 */
export async function composeGateway(options: {
  config: ServiceConfig;
  readFile: (path: string) => string;
  /** Load a change file written as a JavaScript module (its default export, or `changes`); files of data need none. */
  importModule?: (path: string) => Promise<unknown>;
  /** Run as nginx's control plane: no API call forwarded, the key check served, the files rendered. */
  controlPlane?: { refuse: () => VersionaryError; install: (context: LifecycleContext) => void };
}): Promise<LoopProduct> {
  const { config } = options;
  const settings = config.settings.gateway;
  if (!settings) {
    throw new VersionaryError({
      code: ErrorCode.InvalidConfig,
      detail: 'versionary gateway needs a "gateway" section in the file VERSIONARY_CONFIG names (docs/gateway.md).',
    });
  }
  const errors: string[] = [];
  const base = config.configPath ? dirname(resolve(config.configPath)) : process.cwd();
  const documents: Record<string, Record<string, unknown>> = {};
  const changeFiles: Record<string, { path: string; data: unknown } | undefined> = {};
  for (const version of settings.versions) {
    const derived = 'derivedFrom' in version;
    const file = derived ? version.changes : version.openapi;
    const path = isAbsolute(file) ? file : resolve(base, file);
    const at = `gateway.versions.${version.name}.${derived ? 'changes' : 'openapi'}`;
    try {
      if (derived) {
        changeFiles[version.name] = { path, data: await readChangeFile(path, options) };
        continue;
      }
      const parsed = readData(path, options.readFile(path));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        errors.push(`${at}: ${path} does not hold an object`);
      else documents[version.name] = parsed as Record<string, unknown>;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const module = /\.[cm]?js$/i.test(path);
      const unread = module
        ? 'cannot be loaded as a module'
        : `is not valid ${/\.ya?ml$/i.test(path) ? 'YAML' : 'JSON'}`;
      // A module that fails to load has a code too (ERR_…): only a file that cannot be opened is told by its code alone.
      const opened = !code || !/^E[A-Z]+$/.test(code) || module;
      errors.push(`${at}: ${path} ${opened ? `${unread}: ${(error as Error).message}` : `cannot be read (${code})`}`);
    }
  }
  if (settings.identify.kind === 'jwt' && !config.jwt)
    errors.push(
      'gateway.identify.jwt needs a key: set VERSIONARY_JWT_SECRET, VERSIONARY_JWT_PUBLIC_KEY or VERSIONARY_JWT_JWKS',
    );
  // Told with the documents' problems: the section names the versions even when a document could not be read.
  if (errors.length > 0) {
    const versions = settings.versions.map((v) => v.name);
    errors.push(...policyProblems({ config, versions, prefix: settings.prefix, ...gatewayReleases }));
    throw configErrors(errors);
  }
  const upstreams = settings.versions.filter((v) => 'upstream' in v);
  const derived = addDerivedVersions({
    versions: settings.versions,
    bundle: bundleFromOpenApi({
      prefix: settings.prefix,
      versions: upstreams.map((v) => ({ name: v.name, document: documents[v.name]! })),
    }),
    prefix: settings.prefix,
    documents,
    changeFiles,
    errors,
  });
  if (errors.length > 0) throw configErrors(errors);
  const { bundle } = derived;
  const upstreamOf = (name: string) => upstreams.find((v) => v.name === name)!.upstream;
  const newest = documents[bundle.latest.name]?.info as { title?: unknown } | undefined;
  const title = settings.title ?? (typeof newest?.title === 'string' ? newest.title : 'API');
  const jwt =
    settings.identify.kind === 'jwt' && config.jwt ? await createJwtVerifier(config.jwt, Date.now) : undefined;
  const identify = createGatewayIdentify({ settings, ...(jwt ? { jwt } : {}) });
  return {
    bundle,
    api: { prefix: settings.prefix, vendor: settings.vendor, title },
    // The loop's parts, forwarding each version in place of handlers, and no `/` (the upstream's API is not ours to describe there).
    source: {
      forward: {
        // A derived version's calls go to its root's upstream.
        upstreams: Object.fromEntries([
          ...upstreams.map((v) => [v.name, v.upstream]),
          ...Object.entries(derived.routes).map(([name, route]) => [name, upstreamOf(route.root.name)]),
        ]),
        ...(Object.keys(derived.routes).length > 0 ? { derived: derived.routes } : {}),
        documents,
        clientHeader: settings.clientHeader,
        // A Versionary key stays here; another credential (a token, the upstream's own) is the upstream's.
        keepsCredential: settings.identify.kind !== 'apiKeys',
        timeoutMs: settings.timeoutMs,
        underscoresInHeaders: settings.underscoresInHeaders,
        forwardedHeaders: settings.forwardedHeaders,
        forwardUndocumented: upstreams.filter((v) => v.forwardUndocumented).map((v) => v.name),
        ...(options.controlPlane ?? {}),
      },
    },
    defaults: {
      ...(identify ? { identify } : {}),
      idempotency: false,
      // A token is the upstream's identity: it calls the API, and never opens the management API.
      jwtRoles: ['read', 'write'],
      ...gatewayReleases,
    },
    features: [],
  };
}

function configErrors(all: string[]): VersionaryError {
  // Each told once, however many checks found it.
  const errors = [...new Set(all)];
  return new VersionaryError({
    code: ErrorCode.InvalidConfig,
    detail: `The gateway configuration has ${errors.length} error(s):\n- ${errors.join('\n- ')}`,
    errors: errors.map((detail) => ({ pointer: '/config/gateway', detail })),
  });
}

function readData(path: string, text: string): unknown {
  return /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
}

/** A change file: JSON or YAML data, or a JavaScript module exporting the changes (default export, or `changes`). */
async function readChangeFile(
  path: string,
  options: { readFile: (path: string) => string; importModule?: (path: string) => Promise<unknown> },
): Promise<unknown> {
  if (!/\.[cm]?js$/i.test(path)) return readData(path, options.readFile(path));
  if (!options.importModule) throw new Error('modules are loaded by versionary gateway only');
  const loaded = (await options.importModule(path)) as { default?: unknown; changes?: unknown };
  return loaded.changes ?? loaded.default;
}
