import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prefersHtml } from './prefers-html.ts';

test('a browser prefers HTML; an API client, a wildcard or no header keeps JSON', () => {
  const browsers = [
    'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7',
    'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'text/html',
    'text/*;q=0.9, application/json;q=0.5',
  ];
  for (const accept of browsers) assert.equal(prefersHtml(accept), true, accept);
  const clients = [
    undefined,
    '',
    '*/*',
    'application/json',
    'application/problem+json',
    'application/json, text/html;q=0.9',
    'text/html;q=0, */*',
    'text/html, application/json',
    'TEXT/HTML;q=0.5, */*',
  ];
  for (const accept of clients) assert.equal(prefersHtml(accept), false, String(accept));
});
