import type { InjectOptions } from 'fastify';
import { examples } from '../openapi/served-documents.ts';
import type { OpenApiOperation } from './openapi-conformance.ts';
import { adminHeaders } from './test-app.ts';

/** One request of the conformance traffic: the operation it calls, and the status it should get. */
export type Call = { method: string; path: string; request: InjectOptions; expect?: number; label: string };

/**
 * Revoke every grant of extended access in force. One grant is in force per client and subject (a
 * second is a 409), and the traffic grants the same example again and again: each call that grants
 * starts from none.
 */
export async function revokeGrants(send: (method: 'GET' | 'DELETE', url: string) => Promise<unknown>): Promise<void> {
  const list = (await send('GET', '/admin/v1/extended-access-grants')) as { data: Array<{ id: string }> };
  for (const { id } of list.data) await send('DELETE', `/admin/v1/extended-access-grants/${id}`);
}

/** Every (documented operation, request) pair of one document: valid requests and invalid ones. */
export function callsOf(options: {
  path: string;
  method: string;
  op: OpenApiOperation;
  fill: (path: string) => Promise<string>;
  keys: { read: string };
}): Array<() => Promise<Call>> {
  const { path, method, op } = options;
  const upper = method.toUpperCase();
  const admin = path.startsWith('/admin/');
  const media = op.requestBody ? Object.keys(op.requestBody.content)[0]! : undefined;
  const body = op.requestBody ? examples[op.operationId] : undefined;
  if (op.requestBody && body === undefined)
    throw new Error(`no example body for ${op.operationId}: add one to the conformance test`);
  const ids = /\{(id|postId)\}/.test(path) && !admin;
  const base = async (): Promise<InjectOptions> => ({
    method: upper as InjectOptions['method'],
    url: await options.fill(path),
    headers: { ...adminHeaders, ...(media ? { 'content-type': media } : {}) },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  const call =
    (label: string, expect: number | undefined, change: (r: InjectOptions) => InjectOptions | Promise<InjectOptions>) =>
    async (): Promise<Call> => ({ method: upper, path, label, expect, request: await change(await base()) });
  const headers = (r: InjectOptions, extra: Record<string, string>) => ({
    ...r,
    headers: { ...(r.headers as Record<string, string>), ...extra },
  });
  const success = Number(Object.keys(op.responses).find((s) => /^2/.test(s)));
  const isPublic = (op as { security?: unknown[] }).security?.length === 0;
  const calls = [
    call('valid', success, (r) => r),
    call('without credentials', isPublic ? success : 401, (r) => headers(r, { authorization: '' })),
    call('with a key that lacks the role', (upper === 'GET' && !admin) || isPublic ? success : 403, (r) =>
      headers(r, { authorization: `Bearer ${options.keys.read}` }),
    ),
    call('with an unknown query parameter', isPublic ? success : 400, (r) => ({
      ...r,
      url: `${String(r.url)}?unknown=1`,
    })),
  ];
  const query = new Set((op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name));
  if (query.has('fields')) {
    calls.push(call('with fields (a partial response)', success, (r) => ({ ...r, url: `${String(r.url)}?fields=id` })));
    calls.push(call('with an unknown field', 400, (r) => ({ ...r, url: `${String(r.url)}?fields=nope` })));
  }
  if (query.has('limit')) {
    // The documented maximum where the parameter states one (100, the usual page, otherwise).
    const limitSchema = (op.parameters ?? []).find((p) => p.in === 'query' && p.name === 'limit') as
      { schema?: { maximum?: number } } | undefined;
    const max = limitSchema?.schema?.maximum ?? 100;
    calls.push(call('with the largest limit', success, (r) => ({ ...r, url: `${String(r.url)}?limit=${max}` })));
    for (const limit of ['0', String(max + 1), '0x10', '1e1', '05', '-1', '2.5'])
      calls.push(call(`with limit=${limit}`, 400, (r) => ({ ...r, url: `${String(r.url)}?limit=${limit}` })));
  }
  if (ids) {
    calls.push(
      call('with an id that is not an integer', 404, (r) => ({
        ...r,
        url: String(r.url).replace(/\/users\/[0-9]+/, '/users/abc'),
      })),
    );
    calls.push(
      call('with an unknown id', 404, (r) => ({
        ...r,
        url: String(r.url).replace(/\/users\/[0-9]+/, '/users/999999999'),
      })),
    );
  }
  if (path.startsWith('/api/'))
    calls.push(call('with an Accept the API cannot produce', 406, (r) => headers(r, { accept: 'text/html' })));
  if (op.parameters?.some((p) => p.$ref === '#/components/parameters/IfMatch'))
    calls.push(call('with a stale If-Match', 412, (r) => headers(r, { 'if-match': '"r999.v1"' })));
  if (op.requestBody) {
    calls.push(call('with an invalid body', 400, (r) => ({ ...r, payload: JSON.stringify({ unknown: 1 }) })));
    calls.push(call('with a body of another media type', 415, (r) => headers(r, { 'content-type': 'text/plain' })));
    calls.push(
      call('with a body over the limit', 413, (r) => ({
        ...r,
        payload: JSON.stringify({ name: 'x'.repeat(1_100_000) }),
      })),
    );
  }
  if (path.startsWith('/api/') && upper === 'POST') {
    // One request, sent three times with one key: created, replayed, then reused with another body.
    let first: Promise<InjectOptions> | undefined;
    const keyed = (label: string, expect: number, other: boolean) => async (): Promise<Call> => {
      first ??= base().then((r) => headers(r, { 'idempotency-key': `replay-${op.operationId}-${path}` }));
      const request = await first;
      const changed = {
        ...(body as Record<string, unknown>),
        ...('name' in (body as object) ? { name: 'Other' } : { title: 'Other' }),
      };
      return {
        method: upper,
        path,
        label,
        expect,
        request: other ? { ...request, payload: JSON.stringify(changed) } : request,
      };
    };
    calls.push(keyed('sent with an Idempotency-Key', success, false));
    calls.push(keyed('replayed with its Idempotency-Key', success, false));
    calls.push(keyed('with a reused Idempotency-Key and another body', 422, true));
  }
  return calls;
}
