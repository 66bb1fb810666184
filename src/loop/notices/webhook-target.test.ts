import assert from 'node:assert/strict';
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { VersionaryError } from '../../core/errors/index.ts';
import { assertPublicWebhookUrl, classifyAddress, createWebhookLookup } from './webhook-target.ts';
import type { WebhookSettings } from './webhook-settings.ts';

const closed: WebhookSettings = { allowPrivateTargets: new Set() };
const loopbackOpen: WebhookSettings = { allowPrivateTargets: new Set(['loopback']) };
const resolveTo =
  (...addresses: string[]) =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

async function refused(url: string, settings = closed, resolve = resolveTo('93.184.216.34')): Promise<string> {
  try {
    await assertPublicWebhookUrl({ url, settings, resolve, pointer: '/body/webhooks/0/url' });
  } catch (error) {
    assert.ok(error instanceof VersionaryError);
    assert.equal(error.code, 'VALIDATION_FAILED');
    assert.equal(error.errors?.[0]?.pointer, '/body/webhooks/0/url');
    return error.detail;
  }
  assert.fail(`${url} was accepted`);
}

describe('webhook targets', () => {
  it('classifies every non-public range, IPv4-mapped IPv6 as its IPv4 address', () => {
    const cases: Record<string, string> = {
      '8.8.8.8': 'public',
      '2606:4700::1111': 'public',
      '127.0.0.1': 'loopback',
      '127.9.9.9': 'loopback',
      '::1': 'loopback',
      '10.0.0.1': 'private',
      '172.16.5.4': 'private',
      '192.168.1.1': 'private',
      'fc00::1': 'private',
      'fd12::1': 'private',
      '169.254.169.254': 'linkLocal',
      'fe80::1': 'linkLocal',
      '100.64.0.1': 'carrierGradeNat',
      '::ffff:127.0.0.1': 'loopback',
      '::ffff:10.0.0.1': 'private',
      '0.0.0.0': 'forbidden',
      '::': 'forbidden',
      '255.255.255.255': 'forbidden',
      '224.0.0.1': 'forbidden',
      'ff02::1': 'forbidden',
      '192.0.2.1': 'forbidden',
      '64:ff9b::a00:1': 'forbidden',
      '2002:a00:1::': 'forbidden',
      'not-an-ip': 'forbidden',
      // IPv4-compatible IPv6 (deprecated), as a URL prints `::127.0.0.1`: never public.
      '::7f00:1': 'forbidden',
      '::127.0.0.1': 'loopback',
      '::a00:1': 'forbidden',
      '::808:808': 'forbidden',
    };
    for (const [address, kind] of Object.entries(cases)) assert.equal(classifyAddress(address), kind, address);
  });

  it('refuses other schemes, credentials and hosts that resolve inside', async () => {
    assert.match(await refused('ftp://hooks.example.com/x'), /scheme must be http or https/);
    assert.match(await refused('javascript:alert(1)'), /scheme/);
    assert.match(await refused('file:///etc/passwd'), /scheme/);
    assert.match(await refused('not a url'), /not an absolute URL/);
    assert.match(await refused('https://user:pw@hooks.example.com/x'), /credentials/);
    assert.match(await refused('http://127.0.0.1:8080/x'), /loopback address.*allowPrivateTargets/);
    assert.match(
      await refused('http://2130706433/x'),
      /127\.0\.0\.1 is a loopback/,
      'decimal IPv4 is normalised first',
    );
    assert.match(await refused('http://[::1]/x'), /loopback/);
    assert.match(await refused('http://[::ffff:7f00:1]/x'), /loopback/);
    assert.match(await refused('http://[::127.0.0.1]/x'), /special-purpose/, 'the IPv4-compatible form of 127.0.0.1');
    assert.match(await refused('http://169.254.169.254/latest/meta-data'), /linkLocal/);
    assert.match(await refused('http://0.0.0.0/'), /special-purpose/);
    assert.match(
      await refused('https://hooks.example.com/x', closed, resolveTo('93.184.216.34', '10.0.0.7')),
      /10\.0\.0\.7 is a private address/,
      'one bad address of several is enough',
    );
    await assert.rejects(
      assertPublicWebhookUrl({ url: 'http://localhost:9/x', settings: closed }),
      /loopback address/,
      'the real resolver answers localhost',
    );
  });

  it('accepts public targets, allowed ranges and names that do not resolve yet', async () => {
    const target = await assertPublicWebhookUrl({
      url: 'https://hooks.example.com/v?x=1',
      settings: closed,
      resolve: resolveTo('93.184.216.34'),
    });
    assert.deepEqual(target.addresses, ['93.184.216.34']);
    assert.equal(
      (await assertPublicWebhookUrl({ url: 'http://127.0.0.1:9/x', settings: loopbackOpen })).addresses[0],
      '127.0.0.1',
    );
    assert.match(await refused('http://10.0.0.1/x', loopbackOpen), /private/, 'allowing loopback opens nothing else');
    const unresolved = await assertPublicWebhookUrl({
      url: 'https://hooks.acme.test/versionary',
      settings: closed,
      resolve: async () => {
        throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
      },
    });
    assert.deepEqual(unresolved.addresses, []);
  });

  it('checks the address a delivery actually connects to', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const fetchWith = (settings: WebhookSettings) =>
      new Promise<string>((resolve) => {
        get({ host: 'localhost', port, path: '/', lookup: createWebhookLookup(settings) }, (res) => {
          res.resume();
          resolve(`status ${res.statusCode}`);
        }).on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code}`));
      });
    try {
      assert.equal(await fetchWith(closed), 'error EWEBHOOKTARGET');
      assert.equal(await fetchWith(loopbackOpen), 'status 200');
    } finally {
      server.close();
    }
  });
});
