import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isVersionaryError } from '../../core/errors/index.ts';
import { loadConfig } from '../settings.ts';

const noFile = (path: string): string => {
  throw Object.assign(new Error(`no ${path}`), { code: 'ENOENT' });
};
const files = (map: Record<string, string>) => (path: string) => map[path] ?? noFile(path);

describe('loadConfig', () => {
  it('has defaults', () => {
    const { settings, ...config } = loadConfig({ env: {}, readFile: noFile });
    assert.deepEqual(settings.timeouts, {
      headersSeconds: 10,
      requestSeconds: 30,
      keepAliveSeconds: 5,
      idleSeconds: 60,
    });
    assert.deepEqual(Object.keys(settings), [
      'lifecycle',
      'rateLimit',
      'timeouts',
      'usage',
      'webhooks',
      'notices',
      'gateway',
      'portal',
    ]);
    assert.equal(settings.gateway, undefined, 'the reference service has no gateway section');
    assert.deepEqual(config, {
      port: 3000,
      host: '127.0.0.1',
      database: { kind: 'sqlite', path: './data/versionary.db' },
      logLevel: 'info',
      bodyLimit: 1024 * 1024,
      file: {},
      ops: {
        shutdownTimeoutMs: 25_000,
        shutdownDelayMs: 5000,
        deliveryTimeoutMs: 10_000,
        deliveryConcurrency: 8,
        dbSchema: 'public',
        dbPoolMax: 10,
        dbConnectTimeoutMs: 2000,
        dbStatementTimeoutMs: 5000,
        redisPrefix: 'versionary:',
        redisTimeoutMs: 100,
        reconcileMs: 5000,
      },
    });
  });

  it("parses every feature's settings in one pass, reporting all their errors and unknown keys at once", () => {
    const file = JSON.stringify({
      bogus: 1,
      rateLimit: { max: -1 },
      timeouts: { headersSeconds: 0 },
      notices: { intervalSeconds: 'x' },
      usage: { rawRetentionDays: -2 },
      webhooks: { allowPrivateTargets: ['moon'] },
      audience: 'galactic',
    });
    assert.throws(
      () => loadConfig({ env: { VERSIONARY_CONFIG: '/c.json' }, readFile: files({ '/c.json': file }) }),
      (error: unknown) => {
        assert.ok(isVersionaryError(error));
        for (const part of [
          'unknown key "bogus"',
          'rateLimit',
          'timeouts.headersSeconds',
          'notices',
          'usage',
          'webhooks',
          'audience',
        ])
          assert.ok(error.detail.includes(part), `${part} in ${error.detail}`);
        return true;
      },
    );
  });

  it('offers "did you mean" for a mistyped key at every level of the file', () => {
    const file = JSON.stringify({
      versoins: {},
      notices: { reminderDayz: [30] },
      usage: { rawRetentionDay: 3 },
      webhooks: { allowPrivateTarget: [] },
      timeouts: { headerSeconds: 3 },
      rateLimit: { maxx: 3 },
      versions: { v1: { sunset: '2030-01-01T00:00:00Z' } },
      gateway: { vendr: 'a', versions: { v1: { upstrem: 'http://x', upstream: 'http://x', openapi: 'a.json' } } },
    });
    assert.throws(
      () => loadConfig({ env: { VERSIONARY_CONFIG: '/c.json' }, readFile: files({ '/c.json': file }) }),
      (error: unknown) => {
        assert.ok(isVersionaryError(error));
        for (const [where, typo, near] of [
          ['/c.json', 'versoins', 'versions'],
          ['notices', 'reminderDayz', 'reminderDays'],
          ['usage', 'rawRetentionDay', 'rawRetentionDays'],
          ['webhooks', 'allowPrivateTarget', 'allowPrivateTargets'],
          ['timeouts', 'headerSeconds', 'headersSeconds'],
          ['rateLimit', 'maxx', 'max'],
          ['gateway', 'vendr', 'vendor'],
          ['gateway.versions.v1', 'upstrem', 'upstream'],
        ])
          assert.ok(
            error.detail.includes(`${where}: unknown key "${typo}"; did you mean "${near}"?`),
            `${where}.${typo} in ${error.detail}`,
          );
        assert.match(
          error.detail,
          /versions\.v1\.sunset is not a lifecycle key \(rule valid-config\); did you mean sunsetAt\?/,
        );
        return true;
      },
    );
  });

  it('refuses a shutdown delay that leaves the drain no time', () => {
    assert.throws(
      () =>
        loadConfig({
          env: { VERSIONARY_SHUTDOWN_TIMEOUT_MS: '1500', VERSIONARY_SHUTDOWN_DELAY_MS: '5000' },
          readFile: noFile,
        }),
      /VERSIONARY_SHUTDOWN_DELAY_MS \(5000\) must be at most 90% of VERSIONARY_SHUTDOWN_TIMEOUT_MS/,
    );
    assert.equal(
      loadConfig({
        env: { VERSIONARY_SHUTDOWN_TIMEOUT_MS: '1500', VERSIONARY_SHUTDOWN_DELAY_MS: '0' },
        readFile: noFile,
      }).ops.shutdownDelayMs,
      0,
    );
  });

  it('reads the operations variables and lists every bad one', () => {
    const ops = loadConfig({
      env: {
        VERSIONARY_SHUTDOWN_TIMEOUT_MS: '10000',
        VERSIONARY_METRICS_PORT: '9464',
        VERSIONARY_DB_SCHEMA: 'tenant_a',
        VERSIONARY_REDIS_PREFIX: 'prod:',
      },
      readFile: noFile,
    }).ops;
    assert.equal(ops.shutdownTimeoutMs, 10_000);
    assert.equal(ops.shutdownDelayMs, 5000);
    assert.equal(ops.metricsPort, 9464);
    assert.equal(ops.dbSchema, 'tenant_a');
    assert.equal(ops.redisPrefix, 'prod:');
    assert.throws(
      () =>
        loadConfig({
          env: {
            VERSIONARY_SHUTDOWN_TIMEOUT_MS: '5s',
            VERSIONARY_DB_SCHEMA: 'Robert"; DROP',
            VERSIONARY_DB_POOL_MAX: '0',
            VERSIONARY_METRICS_PORT: '70000',
            VERSIONARY_REDIS_PREFIX: 'has space',
          },
          readFile: noFile,
        }),
      (error: unknown) => {
        assert.ok(isVersionaryError(error));
        for (const name of [
          'VERSIONARY_SHUTDOWN_TIMEOUT_MS',
          'VERSIONARY_DB_SCHEMA',
          'VERSIONARY_DB_POOL_MAX',
          'VERSIONARY_METRICS_PORT',
          'VERSIONARY_REDIS_PREFIX',
        ])
          assert.match(error.detail, new RegExp(name));
        assert.match(error.detail, /5 error\(s\)/);
        return true;
      },
    );
  });

  it('reads the environment and the config file', () => {
    const config = loadConfig({
      env: {
        PORT: '0',
        HOST: '0.0.0.0',
        LOG_LEVEL: 'silent',
        DATABASE_URL: 'sqlite::memory:',
        VERSIONARY_CONFIG: '/c.json',
      },
      readFile: files({ '/c.json': '{"bodyLimit": 2048, "audience": "enterprise"}' }),
    });
    assert.equal(config.port, 0);
    assert.equal(config.host, '0.0.0.0');
    assert.deepEqual(config.database, { kind: 'sqlite', path: ':memory:' });
    assert.equal(config.bodyLimit, 2048);
    assert.equal(config.configPath, '/c.json');
    assert.deepEqual(config.file, { bodyLimit: 2048, audience: 'enterprise' });
  });

  it('parses database URLs', () => {
    const db = (url: string) => loadConfig({ env: { DATABASE_URL: url }, readFile: noFile }).database;
    assert.deepEqual(db('sqlite:./x.db'), { kind: 'sqlite', path: './x.db' });
    assert.deepEqual(db('sqlite:///tmp/x.db'), { kind: 'sqlite', path: '/tmp/x.db' });
    assert.deepEqual(db('postgres://u@h/db'), { kind: 'postgres', url: 'postgres://u@h/db' });
    assert.deepEqual(db('postgresql://u@h/db'), { kind: 'postgres', url: 'postgresql://u@h/db' });
  });

  const errorsOf = (run: () => unknown): string[] => {
    try {
      run();
    } catch (error) {
      assert.ok(isVersionaryError(error));
      assert.equal(error.code, 'INVALID_CONFIG');
      const details = (error.errors ?? []).map((e) => e.detail);
      for (const d of details) assert.ok(error.detail.includes(d), `detail lists ${d}`);
      return details;
    }
    assert.fail('expected INVALID_CONFIG');
  };

  it('reports every environment error at once', () => {
    const errors = errorsOf(() =>
      loadConfig({ env: { PORT: '70000', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x' }, readFile: noFile }),
    );
    assert.equal(errors.length, 3, errors.join('\n'));
    assert.match(errors[0]!, /PORT/);
    assert.match(errors[1]!, /LOG_LEVEL/);
    assert.match(errors[2]!, /DATABASE_URL/);
  });

  it('refuses ports that are not integers in range', () => {
    for (const port of ['-1', '65536', '3.5', 'http', '99999999']) {
      assert.ok(
        errorsOf(() => loadConfig({ env: { PORT: port }, readFile: noFile })).some((e) => /PORT/.test(e)),
        port,
      );
    }
  });

  it('refuses an empty PORT instead of reading it as port 0', () => {
    assert.ok(errorsOf(() => loadConfig({ env: { PORT: '' }, readFile: noFile })).some((e) => /PORT/.test(e)));
  });

  it('refuses an empty sqlite path', () => {
    assert.equal(errorsOf(() => loadConfig({ env: { DATABASE_URL: 'sqlite:' }, readFile: noFile })).length, 1);
  });

  it('takes VERSIONARY_SQLITE_DRIVER for a SQLite database, and refuses an unknown driver', () => {
    const load = (env: Record<string, string>) => loadConfig({ env, readFile: noFile }).database;
    assert.deepEqual(load({ DATABASE_URL: 'sqlite:./x.db', VERSIONARY_SQLITE_DRIVER: 'node:sqlite' }), {
      kind: 'sqlite',
      path: './x.db',
      driver: 'node:sqlite',
    });
    assert.deepEqual(load({ DATABASE_URL: 'sqlite:./x.db', VERSIONARY_SQLITE_DRIVER: 'libsql' }), {
      kind: 'sqlite',
      path: './x.db',
      driver: 'libsql',
    });
    assert.deepEqual(load({ DATABASE_URL: 'postgres://h/db', VERSIONARY_SQLITE_DRIVER: 'libsql' }), {
      kind: 'postgres',
      url: 'postgres://h/db',
    });
    for (const driver of ['better-sqlite3', 'LIBSQL', '', '../x']) {
      assert.ok(
        errorsOf(() => loadConfig({ env: { VERSIONARY_SQLITE_DRIVER: driver }, readFile: noFile })).some((e) =>
          /VERSIONARY_SQLITE_DRIVER must be libsql or node:sqlite/.test(e),
        ),
        driver,
      );
    }
  });

  it('reports environment and config file errors together', () => {
    const errors = errorsOf(() =>
      loadConfig({
        env: { PORT: 'x', LOG_LEVEL: 'chatty', DATABASE_URL: 'nope', VERSIONARY_CONFIG: '/c.json' },
        readFile: files({ '/c.json': '{"bodyLimit": 10, "colour": "blue", "size": 1}' }),
      }),
    );
    assert.equal(errors.length, 6, errors.join('\n'));
    for (const pattern of [
      /PORT/,
      /LOG_LEVEL/,
      /DATABASE_URL/,
      /unknown key "colour"/,
      /unknown key "size"/,
      /bodyLimit/,
    ]) {
      assert.ok(
        errors.some((e) => pattern.test(e)),
        `${pattern} in ${errors.join('\n')}`,
      );
    }
  });

  it('reports an unreadable, invalid or non-object config file', () => {
    assert.match(
      errorsOf(() => loadConfig({ env: { VERSIONARY_CONFIG: '/missing.json' }, readFile: noFile }))[0]!,
      /cannot be read \(ENOENT\)/,
    );
    assert.match(
      errorsOf(() =>
        loadConfig({ env: { VERSIONARY_CONFIG: '/c.json' }, readFile: files({ '/c.json': '{nope' }) }),
      )[0]!,
      /not valid JSON/,
    );
    for (const text of ['[]', '3', 'null', '"x"']) {
      assert.match(
        errorsOf(() => loadConfig({ env: { VERSIONARY_CONFIG: '/c.json' }, readFile: files({ '/c.json': text }) }))[0]!,
        /JSON object/,
        text,
      );
    }
  });

  it('refuses body limits outside 1 KiB to 100 MiB or not integers', () => {
    for (const bodyLimit of [1023, 104857601, 2048.5, '2048', true]) {
      const errors = errorsOf(() =>
        loadConfig({
          env: { VERSIONARY_CONFIG: '/c.json' },
          readFile: files({ '/c.json': JSON.stringify({ bodyLimit }) }),
        }),
      );
      assert.ok(
        errors.some((e) => /bodyLimit/.test(e)),
        String(bodyLimit),
      );
    }
  });

  it('does not read a config file unless named', () => {
    let reads = 0;
    loadConfig({
      env: {},
      readFile: (p) => {
        reads++;
        return noFile(p);
      },
    });
    assert.equal(reads, 0);
  });
});
