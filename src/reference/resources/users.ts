import type { Clock } from '../../core/clock/index.ts';
import { ErrorCode, VersionaryError } from '../../core/errors/index.ts';
import type { ComponentType, HandlerMap, OperationContext } from '../../http/index.ts';
import type { ApiHead } from '../api/index.ts';
import type { UserListColumn, UserListRecord, UserRecord, UserStore, UserValues } from '../../kernel/ports/index.ts';
import { toListResult } from './paging.ts';
import { notFound, parseId, parsePage } from './params.ts';
import { creatorOf, isVisible, ownerScopeOf } from '../../loop/management/clients/tenancy.ts';

type UserInput = ComponentType<ApiHead, 'UserInput'>;
type UserPatch = ComponentType<ApiHead, 'UserPatch'>;
type UserBody = ComponentType<ApiHead, 'User'>;
type UserDetailBody = ComponentType<ApiHead, 'UserDetail'>;

const maxAttempts = 5;

type UserHandlers = Pick<HandlerMap<ApiHead>, `users.${'list' | 'get' | 'create' | 'replace' | 'patch' | 'delete'}`>;

export function createUserHandlers({ users, clock }: { users: UserStore; clock: Clock }): UserHandlers {
  const at = () => new Date(clock.now()).toISOString();

  // Read, check If-Match, write conditionally; a concurrent writer makes us read again.
  const write = async (
    ctx: WriteContext,
    build: (current: UserRecord) => UserValues,
  ): Promise<{ status: 200; body: UserDetailBody; revision: number }> => {
    const id = parseId({ raw: ctx.params.id, what: 'user' });
    const owner = ownerScopeOf(ctx.request);
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      const current = await users.get(id);
      // Another client's user is answered exactly as a missing one: its existence is not told.
      if (!current || !isVisible({ owner: current.clientId, scope: owner })) throw notFound('user', id);
      assertIfMatch(ctx, current.revision);
      const outcome = await users.update({
        id,
        values: build(current),
        expectedRevision: current.revision,
        at: at(),
        ...(owner !== undefined ? { owner } : {}),
      });
      if (outcome.kind === 'missing') throw notFound('user', id);
      if (outcome.kind === 'ok')
        return { status: 200, body: toUserDetail(outcome.value), revision: outcome.value.revision };
    }
    throw new VersionaryError({
      code: ErrorCode.Conflict,
      detail: 'The user kept changing while this write ran; retry.',
    });
  };

  return {
    'users.list': async (ctx) => {
      const request = parsePage(ctx.query);
      const owner = ownerScopeOf(ctx.request);
      const columns = ctx.fields && columnsOf(ctx.fields);
      const page = await users.list({
        ...request,
        ...(owner !== undefined ? { owner } : {}),
        ...(columns ? { columns } : {}),
      });
      return toListResult({ ctx, path: '/users', page, request, toItem: toUser });
    },
    'users.get': async (ctx) => {
      const id = parseId({ raw: ctx.params.id, what: 'user' });
      const user = await users.get(id);
      if (!user || !isVisible({ owner: user.clientId, scope: ownerScopeOf(ctx.request) })) throw notFound('user', id);
      return { status: 200, body: toUserDetail(user), revision: user.revision };
    },
    'users.create': async (ctx) => {
      const user = await users.create({ values: fromInput(ctx.body), at: at(), clientId: creatorOf(ctx.request) });
      return { status: 201, body: toUserDetail(user), revision: user.revision, location: `/users/${user.id}` };
    },
    'users.replace': async (ctx) =>
      write(ctx, (current) => {
        const values = fromInput(ctx.body);
        // Fields the client's version cannot express are kept, not cleared.
        if (ctx.hiddenFields.has('email')) values.email = current.email;
        if (ctx.hiddenFields.has('nickname')) values.nickname = current.nickname;
        return values;
      }),
    'users.patch': async (ctx) => write(ctx, (current) => applyMergePatch(current, ctx.body)),
    'users.delete': async (ctx) => {
      const id = parseId({ raw: ctx.params.id, what: 'user' });
      const owner = ownerScopeOf(ctx.request);
      let expectedRevision: number | undefined;
      if (ctx.ifMatch !== undefined) {
        const current = await users.get(id);
        if (!current || !isVisible({ owner: current.clientId, scope: owner })) throw notFound('user', id);
        assertIfMatch(ctx, current.revision);
        expectedRevision = current.revision;
      }
      const outcome = await users.delete({ id, expectedRevision, ...(owner !== undefined ? { owner } : {}) });
      if (outcome.kind === 'missing') throw notFound('user', id);
      if (outcome.kind === 'stale') throw stale();
      return { status: 204 };
    },
  } satisfies Partial<HandlerMap<ApiHead>>;
}

type WriteContext = Pick<OperationContext, 'ifMatch' | 'request'> & { params: { id: string } };

function assertIfMatch(ctx: Pick<OperationContext, 'ifMatch'>, revision: number): void {
  if (ctx.ifMatch === undefined || ctx.ifMatch === '*') return;
  if (!ctx.ifMatch.includes(revision)) throw stale();
}

function stale(): VersionaryError {
  return new VersionaryError({
    code: ErrorCode.PreconditionFailed,
    detail: 'If-Match does not name the current revision: read the user again.',
  });
}

function fromInput(input: UserInput): UserValues {
  return {
    name: input.name,
    email: input.email ?? null,
    nickname: input.displayName ?? input.nickname ?? null,
    status: input.status ?? 'active',
  };
}

function applyMergePatch(current: UserRecord, patch: UserPatch): UserValues {
  // A member left out keeps its value; a null (where the schema allows it) clears it.
  const keep = <T>(value: T | undefined, was: T) => (value === undefined ? was : value);
  return {
    name: keep(patch.name, current.name),
    email: keep(patch.email, current.email),
    // The new name wins when a request sends both.
    nickname: keep(patch.displayName, keep(patch.nickname, current.nickname)),
    status: keep(patch.status, current.status),
  };
}

/** The columns a list item's members come from: `displayName` is the `nickname` column's new name. */
const columnOf = new Map<string, UserListColumn | 'id'>([
  ['id', 'id'],
  ['name', 'name'],
  ['status', 'status'],
  ['email', 'email'],
  ['nickname', 'nickname'],
  ['displayName', 'nickname'],
]);

/** The columns a sparse fieldset's page reads; `undefined` (every column) for a name this code does not map. */
function columnsOf(fields: ReadonlySet<string>): UserListColumn[] | undefined {
  const columns: UserListColumn[] = [];
  for (const name of fields) {
    const column = columnOf.get(name);
    if (column === undefined) return undefined;
    if (column !== 'id') columns.push(column);
  }
  return columns;
}

/** The newest list-item representation of a user: optional fields only when set (or read). */
function toUser(user: UserListRecord): UserBody {
  const body = { id: user.id, name: user.name, status: user.status } as UserBody;
  if (user.email !== null) body.email = user.email;
  if (user.nickname !== null) body.nickname = body.displayName = user.nickname;
  return body;
}

function toUserDetail(user: UserRecord): UserDetailBody {
  // Built in place rather than spread from toUser(): this runs on every read of a user.
  return Object.assign(toUser(user), { _version: user.revision });
}
