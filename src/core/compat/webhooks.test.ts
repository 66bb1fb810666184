// Webhooks and callbacks turn the roles around: the API sends the payload and subscribers read
// it (response rules); subscribers write the answer and the API reads it (request rules).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { diffOpenApi } from './diff-openapi.ts';
import { object } from '../../../test/support/openapi-builder.ts';

const str = { type: 'string' };
const payload = (schema: unknown) => ({ required: true, content: { 'application/json': { schema } } });
const answer = (schema: unknown) => ({
  '200': { description: 'received', content: { 'application/json': { schema } } },
});
const eventType = { type: 'string', enum: ['user.created', 'user.deleted'] };
const event = object({ id: str, type: eventType }, ['id', 'type']);

function hooks(webhooks: Record<string, unknown>, schemas: Record<string, unknown> = {}): Record<string, unknown> {
  return { openapi: '3.1.0', info: { title: 'T', version: '1' }, paths: {}, webhooks, components: { schemas } };
}
const hook = (operation: Record<string, unknown>) => ({
  userCreated: {
    post: { requestBody: payload(event), responses: answer(object({ ok: { type: 'boolean' } })), ...operation },
  },
});
const ids = (base: unknown, revision: unknown) =>
  diffOpenApi({ base, revision }).changes.map((c) => `${c.id}:${c.level}`);

describe('webhooks', () => {
  it('a removed webhook breaks subscribers; an added one is compatible', () => {
    assert.deepEqual(ids(hooks(hook({})), hooks({})), ['webhook-removed:breaking']);
    assert.deepEqual(ids(hooks({}), hooks(hook({}))), ['webhook-added:compatible']);
    const [removed] = diffOpenApi({ base: hooks(hook({})), revision: hooks({}) }).changes;
    assert.equal(removed?.location.pointer, '/webhooks/userCreated/post');
    assert.match(removed?.message ?? '', /POST webhook userCreated was removed/);
  });
  it('the payload follows response rules: a field removed breaks, a field added is compatible', () => {
    const slim = hook({ requestBody: payload(object({ id: str }, ['id'])) });
    assert.deepEqual(ids(hooks(hook({})), hooks(slim)), ['response-property-removed:breaking']);
    assert.deepEqual(ids(hooks(slim), hooks(hook({}))), ['response-property-added:compatible']);
  });
  it('a new payload enum value is a risk for subscribers; a removed one breaks them', () => {
    const more = hook({
      requestBody: payload(
        object({ id: str, type: { type: 'string', enum: ['user.created', 'user.deleted', 'user.merged'] } }, [
          'id',
          'type',
        ]),
      ),
    });
    assert.deepEqual(ids(hooks(hook({})), hooks(more)), ['response-enum-value-added:risk']);
    assert.deepEqual(ids(hooks(more), hooks(hook({}))), ['response-enum-value-removed:breaking']);
  });
  it('a payload field that may now be missing breaks; one now always sent is compatible', () => {
    const loose = hook({ requestBody: payload(object({ id: str, type: eventType }, ['id'])) });
    assert.deepEqual(ids(hooks(hook({})), hooks(loose)), ['response-property-became-optional:breaking']);
    assert.deepEqual(ids(hooks(loose), hooks(hook({}))), ['response-property-became-required:compatible']);
  });
  it('the payload removed breaks; added is compatible', () => {
    const bare = { userCreated: { post: { responses: answer(object({ ok: { type: 'boolean' } })) } } };
    assert.deepEqual(ids(hooks(hook({})), hooks(bare)), ['callback-payload-removed:breaking']);
    assert.deepEqual(ids(hooks(bare), hooks(hook({}))), ['callback-payload-added:compatible']);
  });
  it("the subscriber's answer follows request rules: a new required field breaks, a removed one is compatible", () => {
    const strict = hook({ responses: answer(object({ ok: { type: 'boolean' }, receipt: str }, ['receipt'])) });
    assert.deepEqual(ids(hooks(hook({})), hooks(strict)), ['request-property-added-required:breaking']);
    assert.deepEqual(ids(hooks(strict), hooks(hook({}))), ['request-property-removed:breaking']);
  });
  it('a success answer no longer documented breaks; a new one is compatible', () => {
    const two = hook({
      responses: { ...answer(object({ ok: { type: 'boolean' } })), '202': { description: 'queued' } },
    });
    assert.deepEqual(ids(hooks(two), hooks(hook({}))), ['callback-response-status-removed:breaking']);
    assert.deepEqual(ids(hooks(hook({})), hooks(two)), ['callback-response-status-added:compatible']);
  });
  it('headers the API sends follow response rules', () => {
    const signed = (schema: Record<string, unknown>) =>
      hook({ parameters: [{ name: 'X-Signature', in: 'header', required: true, schema }] });
    assert.deepEqual(ids(hooks(hook({})), hooks(signed(str))), ['callback-parameter-added:compatible']);
    assert.deepEqual(ids(hooks(signed(str)), hooks(hook({}))), ['callback-parameter-removed:breaking']);
    assert.deepEqual(ids(hooks(signed(str)), hooks(signed({ type: ['string', 'null'] }))), [
      'response-became-nullable:breaking',
    ]);
    assert.deepEqual(ids(hooks(signed({ type: ['string', 'null'] })), hooks(signed(str))), [
      'response-became-not-nullable:compatible',
    ]);
  });
  it('a shared component schema in a payload is reported once and names the webhook', () => {
    const byRef = (schema: Record<string, unknown>) =>
      hooks(
        { userCreated: { post: { requestBody: payload({ $ref: '#/components/schemas/Event' }) } } },
        { Event: schema },
      );
    const changes = diffOpenApi({ base: byRef(event), revision: byRef(object({ id: str }, ['id'])) }).changes;
    assert.deepEqual(
      changes.map((c) => c.id),
      ['response-property-removed'],
    );
    assert.deepEqual(changes[0]?.location.operations, ['POST webhook userCreated']);
  });
});

describe('callbacks of an operation', () => {
  const subscribe = (callbacks: Record<string, unknown> | undefined) => ({
    openapi: '3.1.0',
    info: { title: 'T', version: '1' },
    paths: {
      '/api/v1/subscriptions': {
        post: {
          requestBody: payload(object({ url: str })),
          responses: { '201': { description: 'ok' } },
          ...(callbacks === undefined ? {} : { callbacks }),
        },
      },
    },
  });
  const onEvent = (schema: unknown) => ({
    onEvent: { '{$request.body#/url}': { post: { requestBody: payload(schema), responses: answer(str) } } },
  });
  it('a removed callback breaks; an added one is compatible', () => {
    assert.deepEqual(ids(subscribe(onEvent(event)), subscribe(undefined)), ['callback-removed:breaking']);
    assert.deepEqual(ids(subscribe(undefined), subscribe(onEvent(event))), ['callback-added:compatible']);
  });
  it('its payload follows response rules and is located at the operation', () => {
    const changes = diffOpenApi({
      base: subscribe(onEvent(event)),
      revision: subscribe(onEvent(object({ id: str }, ['id']))),
    }).changes;
    assert.deepEqual(
      changes.map((c) => `${c.id}:${c.level}`),
      ['response-property-removed:breaking'],
    );
    assert.equal(changes[0]?.location.method, 'POST');
    assert.equal(changes[0]?.location.path, '/api/v1/subscriptions');
    assert.deepEqual(ids(subscribe(onEvent(object({ id: str }, ['id']))), subscribe(onEvent(event))), [
      'response-property-added:compatible',
    ]);
  });
  it('a callback defined in the components by $ref resolves', () => {
    const base = {
      ...subscribe({ onEvent: { $ref: '#/components/callbacks/OnEvent' } }),
      components: { callbacks: { OnEvent: onEvent(event).onEvent } },
    };
    const revision = {
      ...subscribe({ onEvent: { $ref: '#/components/callbacks/OnEvent' } }),
      components: {
        callbacks: { OnEvent: onEvent(object({ id: { type: 'integer' }, type: eventType }, ['id', 'type'])).onEvent },
      },
    };
    assert.deepEqual(ids(base, revision), ['response-type-changed:breaking']);
  });
});
