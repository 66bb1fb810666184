import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressKey } from './address-key.ts';

describe('addressKey', () => {
  it('keeps IPv4 addresses whole, mapped ones included', () => {
    assert.equal(addressKey('203.0.113.7'), 'ip:203.0.113.7');
    assert.equal(addressKey('::ffff:203.0.113.7'), 'ip:203.0.113.7');
    assert.equal(addressKey('::FFFF:203.0.113.7'), 'ip:203.0.113.7');
  });

  it('groups IPv6 addresses by their /64, however they are written', () => {
    const net = 'ip:2001:db8:0:1::/64';
    for (const ip of [
      '2001:db8:0:1::1',
      '2001:db8:0:1:ffff:ffff:ffff:ffff',
      '2001:0db8:0000:0001:0000:0000:0000:0002',
      '2001:DB8:0:1::abcd',
      'fe80::1%eth0'.replace('fe80::1', '2001:db8:0:1::9'),
    ]) {
      assert.equal(addressKey(ip), net, ip);
    }
    assert.equal(addressKey('2001:db8::1'), 'ip:2001:db8:0:0::/64');
    assert.notEqual(addressKey('2001:db8:0:2::1'), net);
    assert.equal(addressKey('::1'), 'ip:0:0:0:0::/64');
    assert.equal(addressKey('64:ff9b::192.0.2.33'), 'ip:64:ff9b:0:0::/64');
  });
});
