import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { addressKey } from '../../src/loop/access/rate-limit/address-key.ts';
import { debianLuaModules } from '../../src/gateway/nginx/render.ts';
import { requireNginx } from '../support/nginx.ts';
import { eventually, freePort } from '../support/service-process.ts';

const lua = new URL('../../dist/gateway/nginx/lua', import.meta.url).pathname;
const addresses = [
  '127.0.0.1',
  '::1',
  '::',
  '2001:db8:0:1::5',
  '2001:0db8:00a0:0001:0:0:0:1',
  '2001:db8::',
  '1:2:3:4:5:6:7:8',
  '::ffff:10.1.2.3',
  '::ffff:0a01:0203',
  'fe80::1%eth0',
  '2001:db8:1:2:3:4:1.2.3.4',
];

it("nginx's Lua keys an address's rate counter as the Node gateway does (in Redis they are one budget)", async () => {
  requireNginx();
  const dir = mkdtempSync(join(tmpdir(), 'versionary-address-key-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((n) => `${n}_temp_path ${join(dir, n)};`);
  writeFileSync(
    join(dir, 'nginx.conf'),
    `${debianLuaModules.map((m) => `load_module ${m};`).join('\n')}
worker_processes 1; pid ${join(dir, 'nginx.pid')}; error_log ${join(dir, 'error.log')};
events {}
http {
  access_log off; ${temp.join(' ')}
  lua_package_path "${lua}/?.lua;${lua}/vendor/?.lua;;";
  lua_shared_dict versionary_state 1m;
  server { listen 127.0.0.1:${port}; location / { content_by_lua_block {
    local key = require("versionary.redis_rate").address_key
    ngx.say(require("cjson").encode({ ${addresses.map((a) => `key("${a}")`).join(', ')} }))
  } } }
}
`,
  );
  const nginx = spawn('/usr/sbin/nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: 'ignore',
  });
  try {
    let keys: string[] = [];
    await eventually(async () => {
      keys = (await (await fetch(`http://127.0.0.1:${port}/`)).json()) as string[];
      return true;
    }, 10_000);
    assert.deepEqual(keys, addresses.map(addressKey));
  } finally {
    const exited = once(nginx, 'exit');
    nginx.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
});
