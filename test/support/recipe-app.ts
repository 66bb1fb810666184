import type { LifecycleConfig } from '../../src/core/lifecycle/index.ts';
import Fastify, { type FastifyInstance } from 'fastify';
import { ErrorCode, VersionaryError } from '../../src/core/errors/index.ts';
import {
  defineVersions,
  type OperationSpec,
  type SchemaMap,
  type VersionBundle,
  type VersionChange,
} from '../../src/core/versions/index.ts';
import type { OperationHandler } from '../../src/http/index.ts';
import { versionary } from '../../src/http/plugin/index.ts';

/** One recipe of docs/api.md: the head's schemas, the v1 → v2 changes, and any operation v2 adds. */
export interface RecipeAppOptions {
  schemas: SchemaMap;
  changes: VersionChange[];
  operations?: OperationSpec[];
  handlers?: Record<string, OperationHandler>;
  /** Every version, for a recipe of more than two; `changes` is then unused. */
  versions?: Array<{ name: string; changes?: VersionChange[] }>;
  /** The plugin's `lifecycle` option (its field and parameter deprecations, say). */
  lifecycle?: LifecycleConfig;
}

/** The operations every recipe has: create an order, read it back. */
const orderOperations: OperationSpec[] = [
  {
    id: 'orders.create',
    method: 'POST',
    path: '/orders',
    summary: 'Place an order',
    body: 'OrderInput',
    responses: { 201: { description: 'Placed', schema: 'Order' } },
  },
  {
    id: 'orders.get',
    method: 'GET',
    path: '/orders/{id}',
    summary: 'An order',
    responses: { 200: { description: 'The order', schema: 'Order' }, 404: { description: 'No such order' } },
  },
];

/**
 * A small orders API with the plugin: v1 and v2, one handler per operation written against v2.
 * The handlers keep exactly the body they are given, so a read in v2 shows what a v1 request
 * became, and a read in v1 what a v2 order looks like there.
 */
export async function buildRecipeApp(
  options: RecipeAppOptions,
): Promise<{ app: FastifyInstance; bundle: VersionBundle; orders: Map<number, object> }> {
  const operations = [...orderOperations, ...(options.operations ?? [])];
  const bundle = defineVersions({
    head: { schemas: options.schemas, operations },
    versions: options.versions ?? [{ name: 'v1' }, { name: 'v2', changes: options.changes }],
  });
  const orders = new Map<number, object>();
  const find = (id: string | undefined) => {
    const order = orders.get(Number(id));
    if (!order) throw new VersionaryError({ code: ErrorCode.NotFound, detail: `No order ${id}.` });
    return order;
  };
  const handlers: Record<string, OperationHandler> = {
    'orders.create': async ({ body }) => {
      const order = { id: orders.size + 1, ...(body as object) };
      orders.set(order.id, order);
      return { status: 201, body: order, location: `/orders/${order.id}` };
    },
    'orders.get': async ({ params }) => ({ status: 200, body: find(params.id) }),
    ...options.handlers,
  };
  const app = Fastify();
  await app.register(versionary, {
    bundle,
    handlers,
    vendor: 'shop',
    openapi: false,
    ...(options.lifecycle ? { lifecycle: options.lifecycle } : {}),
  });
  await app.ready();
  return { app, bundle, orders };
}
