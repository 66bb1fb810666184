import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { spawnService, type ServiceProcess } from '../support/service-process.ts';

const day = 86_400_000;
const t0 = Date.now();
const iso = (at: number) => new Date(at).toISOString();
const adminKey = `restart-admin-${randomBytes(4).toString('hex')}`;
const headers = { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' };

interface Deprecations {
  data: Array<{ name: string; sunsetAt: string; extendedAccessUntil?: string; closedToNewClientsAt?: string }>;
}

/**
 * The rule between the config file and the management API, across a real restart of the service
 * process on one SQLite file: a change made through the API survives a restart with the same
 * config; the config applies again only when its own entry changes; each conflict is logged at
 * start, naming the version, both dates and which one won.
 */
describe('a restart with the same config keeps the lifecycle changed through the API', { timeout: 180_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'versionary-restart-'));
  const config = join(dir, 'config.json');
  const writeConfig = (sunsetAt: string) =>
    writeFileSync(config, JSON.stringify({ versions: { v1: { deprecatedAt: iso(t0 - 10 * day), sunsetAt } } }));
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'versionary.db')}`,
    VERSIONARY_ADMIN_KEY: adminKey,
    VERSIONARY_CONFIG: config,
  };
  let running: ServiceProcess | undefined;
  after(async () => {
    await running?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  const v1 = async (service: ServiceProcess) => {
    const res = await fetch(`${service.base}/admin/v1/deprecations`, { headers });
    return ((await res.json()) as Deprecations).data.find((d) => d.name === 'v1')!;
  };
  const configSunset = iso(t0 + 200 * day);
  const apiSunset = iso(t0 + 260 * day);
  const cap = iso(t0 + 320 * day);
  const closing = iso(t0 + 30 * day);

  it('keeps the sunset, the cap and the closing set through the API, and logs the conflict', async () => {
    writeConfig(configSunset);
    running = await spawnService({ env });
    const put = await fetch(`${running.base}/admin/v1/versions/v1/deprecation`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ sunsetAt: apiSunset, extendedAccessUntil: cap, closedToNewClientsAt: closing }),
    });
    assert.equal(put.status, 200, await put.text());
    await running.stop();

    running = await spawnService({ env });
    const entry = await v1(running);
    assert.deepEqual(
      [entry.sunsetAt, entry.extendedAccessUntil, entry.closedToNewClientsAt],
      [apiSunset, cap, closing],
      'the dates set through the API',
    );
    const sunset = await fetch(`${running.base}/api/v1/users`, { headers });
    assert.equal(new Date(sunset.headers.get('sunset')!).toISOString(), apiSunset);
    await sunset.arrayBuffer();
    const conflict = running
      .output()
      .split('\n')
      .find((line) => line.includes('"lifecycle-config-conflict"'));
    assert.ok(conflict, `a conflict is logged at start:\n${running.output().slice(-3000)}`);
    const logged = JSON.parse(conflict) as { version: string; winner: string; msg: string };
    assert.equal(logged.version, 'v1');
    assert.equal(logged.winner, 'store');
    assert.ok(logged.msg.includes(configSunset) && logged.msg.includes(apiSunset), logged.msg);
    await running.stop();
  });

  it("applies the config when its own value changes, keeping the API's cap and closing, and says so", async () => {
    const newSunset = iso(t0 + 280 * day);
    writeConfig(newSunset);
    running = await spawnService({ env });
    const entry = await v1(running);
    assert.equal(entry.sunsetAt, newSunset, 'the changed config wins');
    assert.equal(entry.extendedAccessUntil, cap, 'a field the config does not declare keeps its value');
    assert.equal(entry.closedToNewClientsAt, closing);
    const conflict = running
      .output()
      .split('\n')
      .find((line) => line.includes('"lifecycle-config-conflict"'));
    assert.ok(conflict, running.output().slice(-3000));
    const logged = JSON.parse(conflict) as { version: string; winner: string; msg: string };
    assert.equal(logged.winner, 'config');
    assert.ok(logged.msg.includes(newSunset) && logged.msg.includes(apiSunset), logged.msg);
    await running.stop();

    // Started again with that config: it applied already, so nothing is in conflict any more.
    running = await spawnService({ env });
    assert.equal((await v1(running)).sunsetAt, newSunset);
    assert.equal(running.output().includes('"lifecycle-config-conflict"'), false, running.output().slice(-2000));
  });
});
