import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../settings.ts';

const load = (env: Record<string, string>) =>
  loadConfig({ env: { DATABASE_URL: 'sqlite::memory:', ...env }, readFile: () => '' });

describe('mail transport configuration', () => {
  it('reads the SMTP URL, the sender and the notice secret', () => {
    const config = load({
      VERSIONARY_SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      VERSIONARY_MAIL_FROM: 'Versionary <notices@example.com>',
      VERSIONARY_NOTICE_SECRET: 'x'.repeat(32),
    });
    assert.deepEqual(config.smtp, {
      url: 'smtps://user:pass@mail.example.com:465',
      from: 'Versionary <notices@example.com>',
    });
    assert.equal(config.noticeSecret, 'x'.repeat(32));
    assert.equal(load({}).smtp, undefined);
  });

  it('refuses to start on a bad transport, listing every error', () => {
    assert.throws(
      () => load({ VERSIONARY_SMTP_URL: 'http://mail.example.com', VERSIONARY_NOTICE_SECRET: 'short' }),
      (error: Error) => {
        assert.match(error.message, /VERSIONARY_SMTP_URL must be smtp/);
        assert.match(error.message, /VERSIONARY_MAIL_FROM must be an address/);
        assert.match(error.message, /VERSIONARY_NOTICE_SECRET must be at least 32/);
        return true;
      },
    );
    assert.throws(
      () => load({ VERSIONARY_MAIL_FROM: 'a@b.c' }),
      /VERSIONARY_MAIL_FROM is set but VERSIONARY_SMTP_URL is not/,
    );
  });
});
