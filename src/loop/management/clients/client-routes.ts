import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { queryIntegerSteps } from '../../../http/index.ts';
import { routeSteps } from '../../../http/pipeline/request-pipeline.ts';
import { echo, ErrorCode, VersionaryError } from '../../../core/errors/index.ts';
import type { Client } from '../../../kernel/ports/index.ts';
import type { LifecycleContext } from '../../lifecycle/context.ts';
import { decisionTablesOf } from '../../lifecycle/decision-table/context-tables.ts';
import { parsePage } from '../../../kernel/app/page.ts';
import { newClientId, toClientBody, toContacts, toWebhooks } from './client-input.ts';
import {
  ClientListSchema,
  ClientParams,
  type ClientPatch,
  ClientSchema,
  CreateClientBody,
  PageQuery,
  updateClientBody,
} from './schemas.ts';
import { webhooksSection } from '../../notices/webhook-settings.ts';
import { webhookUrlShape } from '../../notices/webhook-target.ts';
import { pageCursor } from '../admin/api-key-routes.ts';
import { adminRoute } from '../../host/admin-route-schemas.ts';

const noClient = 'No client with this id';

/** `/admin/v1/clients`: the consumers of the API, their contacts and their webhooks. */
export function registerClientRoutes(app: FastifyInstance, context: LifecycleContext): void {
  const { storage, clock, runtime } = context;
  const { clients, apiKeys } = storage;
  const webhookSettings = webhooksSection.of(context.config);
  // Every version the API knows, oldest first: what a client's minimum version may name.
  const versions = () => runtime.versions().map((v) => v.name);
  const notFound = (id: string) =>
    new VersionaryError({ code: ErrorCode.NotFound, detail: `No client ${id.slice(0, 40)}.` });
  const find = async (id: string): Promise<Client> => {
    const client = await clients.find(id);
    if (!client) throw notFound(id);
    return client;
  };

  app.post(
    '/clients',
    {
      config: webhookUrlSteps,
      schema: adminRoute({
        operationId: 'clients.create',
        summary: 'Create a client',
        tags: ['clients'],
        description:
          "Register a consumer of the API with its contacts and webhooks. Each new webhook's signing secret is in this response only.",
        body: CreateClientBody,
        responseHeaders: { 201: ['Location'] },
        response: {
          201: { ...ClientSchema, description: 'Created; `Location` names the client.' },
          400: 'The body is invalid, or a webhook URL is not allowed',
        },
      }),
    },
    async (request, reply) => {
      const body = request.body as Static<typeof CreateClientBody>;
      const contacts = toContacts({ input: body.contacts ?? [], current: [] });
      const { webhooks, created } = await toWebhooks({
        input: body.webhooks ?? [],
        current: [],
        settings: webhookSettings,
      });
      const now = clock.now();
      const client: Client = { id: newClientId(), name: body.name, contacts, webhooks, createdAt: now, updatedAt: now };
      await clients.insert(client);
      return reply.code(201).header('location', `/admin/v1/clients/${client.id}`).send(toClientBody(client, created));
    },
  );

  app.get(
    '/clients',
    {
      schema: adminRoute({
        operationId: 'clients.list',
        summary: 'List clients',
        tags: ['clients'],
        querystring: PageQuery,
        description: 'Every client, oldest first, a page at a time; webhook secrets are never shown.',
        response: { 200: ClientListSchema, 400: 'An invalid query parameter or cursor' },
      }),
      // `limit` is read from canonical decimal digits into a number before validation, as on every list.
      config: queryIntegerSteps(PageQuery as unknown as Record<string, unknown>),
    },
    async (request) => {
      const query = request.query as Static<typeof PageQuery>;
      const { limit } = parsePage({ limit: query.limit });
      const page = await clients.list({
        limit,
        ...(query.cursor !== undefined ? { after: clientCursor.decode(query.cursor) } : {}),
      });
      return {
        data: page.items.map((c) => toClientBody(c)),
        meta: { limit, nextCursor: page.nextAfter === null ? null : clientCursor.encode(page.nextAfter) },
      };
    },
  );

  app.get(
    '/clients/:id',
    {
      schema: adminRoute({
        operationId: 'clients.get',
        summary: 'Show a client',
        tags: ['clients'],
        params: ClientParams,
        description: 'One client with its contacts and webhooks, without secrets.',
        response: { 200: ClientSchema, 404: noClient },
      }),
    },
    async (request) => toClientBody(await find((request.params as { id: string }).id)),
  );

  app.patch(
    '/clients/:id',
    {
      config: webhookUrlSteps,
      schema: adminRoute({
        operationId: 'clients.update',
        summary: 'Change a client',
        tags: ['clients'],
        params: ClientParams,
        body: updateClientBody(versions()),
        description:
          'A JSON Merge Patch: each given member replaces the stored one. A webhook given by `id` keeps its secret; one given by `url` alone is new, and its secret is in this response only. `minimumVersion` retires the versions before it for this client alone (its calls to them answer 410 `VERSION_RETIRED_FOR_CLIENT`); `null` clears it. The answer comes once the rule is in force on this instance.',
        response: {
          200: ClientSchema,
          400: 'The body is invalid, a webhook URL is not allowed, or `minimumVersion` names no version of the API',
          404: noClient,
        },
      }),
    },
    async (request) => {
      const current = await find((request.params as { id: string }).id);
      const body = request.body as ClientPatch;
      const minimumVersion = patchedMinimumVersion(body.minimumVersion, current.minimumVersion, versions());
      const contacts = body.contacts
        ? toContacts({ input: body.contacts, current: current.contacts })
        : current.contacts;
      const changed = body.webhooks
        ? await toWebhooks({ input: body.webhooks, current: current.webhooks, settings: webhookSettings })
        : { webhooks: current.webhooks, created: new Set<string>() };
      const { minimumVersion: _, ...rest } = current;
      const client: Client = {
        ...rest,
        name: body.name ?? current.name,
        contacts,
        webhooks: changed.webhooks,
        updatedAt: clock.now(),
        ...(minimumVersion === undefined ? {} : { minimumVersion }),
      };
      if (!(await clients.update(client))) throw notFound(current.id);
      // The next request this instance decides sees the rule: the table has moved before the answer.
      if (minimumVersion !== current.minimumVersion) await decisionTablesOf(context).current();
      return toClientBody(client, changed.created);
    },
  );

  app.delete(
    '/clients/:id',
    {
      schema: adminRoute({
        operationId: 'clients.delete',
        summary: 'Delete a client',
        tags: ['clients'],
        params: ClientParams,
        description: 'Delete a client once none of its API keys is active.',
        response: {
          204: Type.Null({ description: 'Deleted.' }),
          404: noClient,
          409: 'The client still has active API keys; revoke them first',
        },
      }),
    },
    async (request, reply) => {
      const client = await find((request.params as { id: string }).id);
      // Its keys would go on acting for a client that no longer exists: revoke them first, on purpose.
      const active = (await apiKeys.list()).filter((k) => k.clientId === client.id && k.revokedAt === null);
      if (active.length > 0) {
        throw new VersionaryError({
          code: ErrorCode.Conflict,
          detail: `${client.id} still has ${active.length} active API key(s): ${active
            .slice(0, 5)
            .map((k) => k.id)
            .join(', ')}. Revoke them first (DELETE /admin/v1/api-keys/{id}).`,
        });
      }
      if (!(await clients.delete(client.id))) throw notFound(client.id);
      return reply.code(204).send();
    },
  );
}

const clientCursor = pageCursor('cl', /[0-9]{1,15}:.{1,100}/);

// Webhook URLs are documented as `format: uri`; check their shape before the schema does, so a
// refused URL gets its reason (scheme, credentials, not absolute) rather than the format's name.
// The webhook URLs are resolved before validation: a step of the pipeline's `input` phase.
const webhookUrlSteps = routeSteps([
  { name: 'webhook-urls', phase: 'input', run: (request) => checkWebhookUrls(request) },
]);

async function checkWebhookUrls(request: FastifyRequest): Promise<void> {
  const webhooks = (request.body as { webhooks?: unknown } | null)?.webhooks;
  if (!Array.isArray(webhooks)) return;
  for (const [i, item] of webhooks.slice(0, 10).entries()) {
    const url = (item as { url?: unknown } | null)?.url;
    if (typeof url === 'string' && url.length <= 2000) webhookUrlShape({ url, pointer: `/body/webhooks/${i}/url` });
  }
}

/**
 * The minimum version a merge patch leaves: absent keeps the current one, `null` clears it, a
 * version sets it. A version the API does not know is a 400 naming the ones it does: retiring
 * every version below a name that is not there would retire nothing anyone could read.
 */
function patchedMinimumVersion(
  input: ClientPatch['minimumVersion'],
  current: string | undefined,
  versions: readonly string[],
): string | undefined {
  if (input === undefined) return current;
  if (input === null) return undefined;
  if (versions.includes(input)) return input;
  throw new VersionaryError({
    code: ErrorCode.ValidationFailed,
    detail: `The request is invalid: "${echo(input)}" is not a version of this API (${versions.join(', ')}).`,
    errors: [{ pointer: '/body/minimumVersion', detail: `not a version of this API: ${versions.join(', ')}` }],
  });
}
