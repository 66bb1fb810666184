import type { FastifyInstance, FastifyRequest } from 'fastify';
import { echo, ErrorCode, VersionaryError } from '../core/errors/index.ts';
import { provideSteps } from './pipeline/listed-steps.ts';
import { defineStep, stepKey } from './pipeline/step-definition.ts';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Parse JSON bodies strictly: a `Content-Encoding` other than `identity` or a charset other than
 * UTF-8 is 415; invalid UTF-8 is 400, not U+FFFD; a NUL (U+0000) is 400, since SQLite would cut
 * the string there and PostgreSQL cannot store it.
 */
export function installJsonBody(app: FastifyInstance, options: { types: string[] }): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  provideSteps(app, [[jsonBodyKey, {}]]);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(options.types, { parseAs: 'buffer' }, (request, body, done) => {
    try {
      assertUtf8Charset(request);
      const text = decodeUtf8(body as Buffer);
      parse(request, text, (error, value) => {
        if (error) return done(poisonedMember(text) ?? error, undefined);
        const pointer = findNul(value, '/body');
        if (pointer !== undefined)
          return done(
            new VersionaryError({
              code: ErrorCode.ValidationFailed,
              detail: `The body holds a NUL character (U+0000) at ${echo(pointer)}; strings may not contain it.`,
              errors: [{ pointer: echo(pointer), detail: 'contains U+0000' }],
            }),
            undefined,
          );
        done(null, value);
      });
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

const jsonBodyKey = stepKey<object>('json-body');

export const identityEncodingStep = defineStep({
  needs: jsonBodyKey,
  name: 'identity-encoding',
  phase: 'body',
  // It reads only headers: a write the thin data plane streams upstream unread is checked too.
  thin: true,
  // Fastify reads no body on GET and HEAD: the step is not compiled into their routes.
  appliesTo: (route) => route.hasBody,
  create: () => (request) => assertIdentityEncoding(request),
});

function assertIdentityEncoding(request: FastifyRequest): void {
  const raw = request.headers['content-encoding'];
  const hasBody =
    request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
  if (raw === undefined || !hasBody) return;
  const codings = (Array.isArray(raw) ? raw.join(',') : raw)
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter(Boolean);
  if (codings.every((c) => c === 'identity')) return;
  throw new VersionaryError({
    code: ErrorCode.UnsupportedMediaType,
    detail: `Content-Encoding ${echo(codings.join(', '))} is not supported: send the body unencoded.`,
    headers: { 'accept-encoding': 'identity' },
  });
}

function assertUtf8Charset(request: FastifyRequest): void {
  const type = request.headers['content-type'] ?? '';
  const charset = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(type)?.[1];
  if (charset === undefined || /^utf-8$/i.test(charset)) return;
  throw new VersionaryError({
    code: ErrorCode.UnsupportedMediaType,
    detail: `The body must be UTF-8, not charset=${echo(charset)}.`,
  });
}

function decodeUtf8(body: Buffer): string {
  try {
    return utf8.decode(body);
  } catch {
    throw new VersionaryError({ code: ErrorCode.MalformedRequest, detail: 'The body is not valid UTF-8.' });
  }
}

/** Valid JSON with a member the parser refuses (`__proto__`) is refused naming it, not as invalid JSON. */
function poisonedMember(text: string): VersionaryError | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const found = findPoisoned(value, '/body');
  if (found === undefined) return undefined;
  return new VersionaryError({
    code: ErrorCode.ValidationFailed,
    detail: `The body holds a "${found.name}" member at ${echo(found.pointer)}; it is refused, as it could reach the prototype of the objects built from the body. Rename it.`,
    errors: [{ pointer: echo(found.pointer), detail: `"${found.name}" is refused` }],
  });
}

// Walked with a list, not recursion: the parser refused the text, which may be nested past the stack.
function findPoisoned(root: unknown, at: string): { pointer: string; name: string } | undefined {
  const pending: Array<{ value: unknown; at: string }> = [{ value: root, at }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value } = next;
    if (typeof value !== 'object' || value === null) continue;
    for (const key of Object.keys(value)) {
      const pointer = `${next.at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      // An own `__proto__` (JSON.parse makes one) is read through its descriptor: indexing gives the prototype.
      const member = Object.getOwnPropertyDescriptor(value, key)?.value as unknown;
      if (key === '__proto__') return { pointer, name: key };
      if (key === 'constructor' && typeof member === 'object' && member !== null && 'prototype' in member)
        return { pointer, name: key };
      pending.push({ value: member, at: pointer });
    }
  }
  return undefined;
}

function findNul(value: unknown, at: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? at : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, member] of Object.entries(value)) {
    const pointer = `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (key.includes('\u0000')) return pointer;
    const found = findNul(member, pointer);
    if (found !== undefined) return found;
  }
  return undefined;
}
