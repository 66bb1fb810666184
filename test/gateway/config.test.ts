import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { composeGateway } from '../../src/gateway/composition.ts';
import { startService } from '../../src/compose/start-service.ts';
import { loadConfig } from '../../src/loop/settings.ts';

const files: Record<string, string> = {
  '/srv/gw.json': JSON.stringify({
    gateway: {
      versions: {
        v1: { upstream: 'http://127.0.0.1:9001', openapi: 'v1.json' },
        v2: { upstream: 'http://127.0.0.1:9002', openapi: '/elsewhere/v2.yaml' },
        v3: { upstream: 'http://127.0.0.1:9003', openapi: 'missing.json' },
      },
      identify: { jwt: true },
    },
  }),
  '/srv/v1.json': '{"openapi": "3.1.0", "paths": {',
  '/elsewhere/v2.yaml':
    'openapi: 3.1.0\npaths:\n  /a:\n    get:\n      responses:\n        "200": { description: ok }\n',
};
const readFile = (path: string) => {
  if (!(path in files)) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
  return files[path]!;
};

describe('gateway configuration', () => {
  it('reads documents relative to the config file, JSON or YAML, and reports every problem before listening', async () => {
    const config = loadConfig({
      env: { VERSIONARY_CONFIG: '/srv/gw.json', DATABASE_URL: 'sqlite::memory:' },
      readFile,
    });
    await assert.rejects(composeGateway({ config, readFile }), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'INVALID_CONFIG');
      assert.match(error.message, /v1\.openapi: \/srv\/v1\.json is not valid JSON/);
      assert.match(error.message, /v3\.openapi: \/srv\/missing\.json cannot be read \(ENOENT\)/);
      assert.match(error.message, /identify\.jwt needs a key/);
      assert.doesNotMatch(error.message, /v2/, 'the YAML document was read');
      return true;
    });
  });

  it('refuses a gateway section in the reference service, which would ignore it', async () => {
    await assert.rejects(
      startService({
        env: { VERSIONARY_CONFIG: '/srv/gw.json', DATABASE_URL: 'sqlite::memory:', PORT: '0' },
        readFile,
        exit: () => {},
      }),
      /start it with `versionary gateway`/,
    );
  });

  it('needs a gateway section to run as a gateway', async () => {
    const config = loadConfig({ env: { DATABASE_URL: 'sqlite::memory:' }, readFile });
    await assert.rejects(composeGateway({ config, readFile }), /needs a "gateway" section/);
  });
});
