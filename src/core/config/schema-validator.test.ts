import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import { createSchemaValidator } from './schema-validator.ts';

const validator = createSchemaValidator(
  Type.Object(
    {
      port: Type.Integer({ minimum: 1, errorText: 'must be a port number' }),
      at: Type.Optional(
        Type.Union([Type.String({ format: 'instant' }), Type.Number()], { errorText: 'must be an instant' }),
      ),
      hook: Type.Optional(Type.Unsafe<unknown>({ isFunction: true, errorText: 'must be a function' })),
      target: Type.Optional(
        Type.Union([Type.Literal(false), Type.Object({ url: Type.String({ errorText: 'must be a string' }) })], {
          errorText: 'must be { url } or false',
        }),
      ),
      list: Type.Optional(Type.Array(Type.Object({ name: Type.String() }, { additionalProperties: false }))),
    },
    { additionalProperties: false },
  ),
  { unknownKey: ({ where, key, known }) => `${where}.${key} is unknown (known: ${known.join(', ')})` },
);

describe('createSchemaValidator', () => {
  it('tells every problem at once, each with its path, a union once, and an object branch by its own keys', () => {
    assert.deepEqual(
      validator.errors(
        { port: 0, at: 'soon', hook: 'x', target: { url: 7 }, list: [{ name: 'a' }, { nme: 'b' }], extra: 1 },
        'server',
      ),
      [
        'server.extra is unknown (known: port, at, hook, target, list)',
        'server.port must be a port number, not 0',
        'server.at must be an instant, not "soon"',
        'server.hook must be a function, not "x"',
        'server.target.url must be a string, not 7',
        'server.list[1].name is required',
        'server.list[1].nme is unknown (known: name)',
      ],
    );
  });

  it('accepts a valid value, and narrows it', () => {
    const value: unknown = { port: 8080, at: '2026-07-01', hook: () => {}, target: false };
    assert.deepEqual(validator.errors(value, 'server'), []);
    assert.ok(validator.check(value));
    assert.equal(value.port, 8080);
  });
});
