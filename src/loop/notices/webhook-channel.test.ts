import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { signWebhook } from './webhook-channel.ts';

describe('signWebhook', () => {
  it('matches the Standard Webhooks reference implementation', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const timestamp = Math.floor(Date.now() / 1000);
    const body = '{"type":"version.deprecated"}';
    const signature = signWebhook({ secret, id: 'ntc_1', timestamp, body });
    assert.equal(signature, new Webhook(secret).sign('ntc_1', new Date(timestamp * 1000), body));
    const headers = { 'webhook-id': 'ntc_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': signature };
    assert.deepEqual(new Webhook(secret).verify(body, headers), { type: 'version.deprecated' });
    assert.throws(() => new Webhook(secret).verify(body.replace('deprecated', 'removed'), headers));
  });
});
