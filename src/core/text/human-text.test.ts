import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeControls, isSingleLineText, singleLineTextPattern, singleLineTextProblem } from './human-text.ts';

describe('single-line human text', () => {
  it('takes any printable text, astral characters included, and the schema pattern agrees', () => {
    const pattern = new RegExp(singleLineTextPattern, 'u');
    for (const text of ['Acme moved to v3', 'Zürich — 東京 😀', '', 'a\u00a0b']) {
      assert.equal(isSingleLineText(text), true, text);
      assert.equal(pattern.test(text), true, text);
    }
  });

  it('refuses C0 and C1 controls, DEL, tab, line breaks and lone surrogates', () => {
    const pattern = new RegExp(singleLineTextPattern, 'u');
    for (const text of [
      'a\rb',
      'a\nb',
      'a\tb',
      '\u001b[2K',
      'a\u0000',
      'a\u007f',
      'a\u0085',
      'a\u009b',
      'a\ud800b',
      'a\udc00',
    ]) {
      assert.equal(isSingleLineText(text), false, JSON.stringify(text));
      assert.equal(pattern.test(text), false, JSON.stringify(text));
    }
    assert.match(singleLineTextProblem('ok\r', '--reason') ?? '', /^--reason must be one line of text.*"ok\\\\r"/);
  });

  it('escapes what it refuses, so a terminal shows it instead of obeying it', () => {
    assert.equal(escapeControls('ok\r\u001b[2Kx\ty\n'), String.raw`ok\r\u001b[2Kx\ty\n`);
    assert.equal(escapeControls('a\ud800b 😀'), String.raw`a\ud800b 😀`);
    assert.equal(escapeControls('plain'), 'plain');
  });
});
