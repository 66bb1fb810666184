import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { edgesOf, type Edge } from '../support/constraint-edges.ts';
import type { OpenApiDocument } from '../support/openapi-conformance.ts';
import { adminHeaders, createTestApp, testEpoch, type TestApp } from '../support/test-app.ts';
import { examples, generousLimits, servedDocuments } from './served-documents.ts';

type Schema = Record<string, unknown>;
// The codes of a request refused for its shape; any other 400 (a lifecycle policy, say) is the documented answer to a valid request.
const shapeCodes = ['VALIDATION_FAILED', 'MALFORMED_REQUEST', 'UNKNOWN_FIELD'];
// Values a schema cannot describe, whose inside edge is therefore not checked (just outside still is):
// opaque cursors the server issued, ids that must name something stored, and rules between fields.
const beyondSchema = [
  / query cursor$/,
  /^GET \/admin\/v1\/usage\/\w+ query since$/,
  /^PATCH \/admin\/v1\/clients\/\{id\} body webhooks \[0\]\.id/,
  /^POST \/admin\/v1\/brownouts body (version|startsAt|endsAt)$/,
  // A target names stored clients or recent callers; a schedule's steps must fit the subject's sunset and its other windows.
  /^POST \/admin\/v1\/brownouts body target/,
  /^POST \/admin\/v1\/brownout-schedules body /,
  // An approval's expiry must lie in the future: a rule against the clock, not a shape.
  /^POST \/admin\/v1\/approvals body expiresAt$/,
  // A grant names a stored client and a deprecated subject with a cap, and its date must lie before that cap.
  /^POST \/admin\/v1\/(extended-access-grants|exemptions) body /,
  // A decision's members depend on each other (a grant needs a date, a decline a reason) and on a stored request.
  /^POST \/admin\/v1\/(extended-access|exemption)-requests\/\{id\}\/decisions body /,
  // The cap on extended access must lie after the sunset it extends: a rule between fields.
  /^(PUT \/admin\/v1\/versions\/\{name\}\/deprecation|POST \/admin\/v1\/deprecations) body extendedAccessUntil$/,
  // The closing must not lie in the past nor before the deprecation: a rule against the clock and between fields.
  /^(PUT \/admin\/v1\/versions\/\{name\}\/deprecation|POST \/admin\/v1\/deprecations) body closedToNewClientsAt$/,
];

// Every served document against the server, at each edge of each constraint it states on a
// request: a value just inside must not be refused for its shape, one just outside must be a 400 problem.
describe('the served documents and the server agree at the edge of every request constraint', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp(generousLimits());
  });
  after(() => t.close());

  const fill = async (path: string): Promise<string> => {
    const at = new Date(testEpoch).toISOString();
    const user = await t.storage.users.create({
      values: { name: 'Grace', email: null, nickname: null, status: 'active' },
      at,
    });
    const post = await t.storage.posts.create({ userId: user.id, title: 'A post', body: 'Text', at });
    const created = async (url: string, payload: unknown) =>
      (
        (await t.app.inject({ method: 'POST', url, headers: adminHeaders, payload: payload as object })).json() as {
          id: string;
        }
      ).id;
    if (path.startsWith('/admin/v1/clients/{id}'))
      path = path.replace('{id}', await created('/admin/v1/clients', examples['clients.create']));
    if (path.startsWith('/admin/v1/approvals/{id}'))
      path = path.replace('{id}', await created('/admin/v1/approvals', examples['approvals.create']));
    if (path.startsWith('/admin/v1/brownouts/{id}'))
      path = path.replace('{id}', await created('/admin/v1/brownouts', examples['brownouts.create']));
    if (path.startsWith('/admin/v1/api-keys/{id}'))
      path = path.replace('{id}', await created('/admin/v1/api-keys', { name: 'fixture', roles: ['read'] }));
    return path.replace('{postId}', String(post!.id)).replace('{id}', String(user.id)).replace('{name}', 'v1');
  };

  for (const [file, docUrl] of Object.entries(servedDocuments)) {
    it(
      `${file}: inside each edge is not refused for its shape, just outside is a 400 problem`,
      { timeout: 300_000 },
      async () => {
        const doc = (await t.app.inject({ url: docUrl, headers: adminHeaders })).json() as OpenApiDocument & {
          components: { schemas: Record<string, Schema>; parameters?: Record<string, Schema> };
        };
        const resolve = (s: Schema): Schema =>
          typeof s.$ref === 'string'
            ? resolve(
                (doc.components.schemas[s.$ref.split('/').pop()!] ??
                  doc.components.parameters?.[s.$ref.split('/').pop()!]) as Schema,
              )
            : s;
        const problems: string[] = [];
        let sent = 0;
        for (const [path, item] of Object.entries(doc.paths)) {
          for (const [method, op] of Object.entries(item)) {
            if ((op as { security?: unknown[] }).security?.length === 0) continue;
            const media = op.requestBody ? Object.keys(op.requestBody.content)[0]! : undefined;
            const body = op.requestBody ? (examples[op.operationId] as Schema) : undefined;
            const cases: Array<{ where: string; edge: Edge; change: (r: InjectOptions) => InjectOptions }> = [];
            for (const parameter of (op.parameters ?? []).map((p) => resolve(p as Schema))) {
              if (parameter.in === 'path') continue;
              const name = String(parameter.name);
              for (const edge of edgesOf(parameter.schema as Schema, resolve)) {
                cases.push({
                  where: `${parameter.in} ${name}`,
                  edge,
                  change: (r) =>
                    parameter.in === 'query'
                      ? { ...r, url: `${String(r.url)}?${name}=${encodeURIComponent(String(edge.value))}` }
                      : {
                          ...r,
                          headers: {
                            ...(r.headers as Record<string, string>),
                            [name.toLowerCase()]: String(edge.value),
                          },
                        },
                });
              }
            }
            const bodySchema = media ? resolve(op.requestBody!.content[media]!.schema as Schema) : undefined;
            for (const [name, property] of Object.entries((bodySchema?.properties ?? {}) as Record<string, Schema>)) {
              const edges = edgesOf(property, resolve);
              const items = resolve((resolve(property).items ?? {}) as Schema);
              // One level down: the members of an array's objects (a client's webhooks).
              for (const [member, schema] of Object.entries((items.properties ?? {}) as Record<string, Schema>)) {
                if ((items.required as string[] | undefined)?.some((r) => r !== member)) continue;
                edges.push(
                  ...edgesOf(schema, resolve).map((e) => ({
                    ...e,
                    label: `[0].${member}: ${e.label}`,
                    value: [{ [member]: e.value }],
                  })),
                );
              }
              for (const edge of edges)
                cases.push({
                  where: `body ${name}`,
                  edge,
                  change: (r) => ({ ...r, payload: JSON.stringify({ ...body, [name]: edge.value }) }),
                });
            }
            for (const { where, edge, change } of cases) {
              const base: InjectOptions = {
                method: method.toUpperCase() as InjectOptions['method'],
                url: await fill(path),
                headers: { ...adminHeaders, ...(media ? { 'content-type': media } : {}) },
                ...(body ? { payload: JSON.stringify(body) } : {}),
              };
              const res = await t.app.inject(change(base));
              sent++;
              const verdict =
                edge.inside &&
                beyondSchema.some((r) =>
                  r.test(
                    `${method.toUpperCase()} ${path} ${where}${edge.label.startsWith('[0].') ? ` ${edge.label.split(':')[0]}` : ''}`,
                  ),
                )
                  ? undefined
                  : judge(res, edge.inside);
              if (verdict)
                problems.push(
                  `${method.toUpperCase()} ${path} ${where} ${edge.inside ? 'inside' : 'outside'} (${edge.label}): ${verdict}`,
                );
            }
          }
        }
        assert.deepEqual(problems, []);
        assert.ok(sent > 20, `${sent} requests`);
      },
    );
  }
});

function judge(res: LightMyRequestResponse, inside: boolean): string | undefined {
  const problem = String(res.headers['content-type'] ?? '').startsWith('application/problem+json')
    ? (res.json() as { code?: string; detail?: string })
    : undefined;
  if (inside)
    return res.statusCode === 400 && shapeCodes.includes(problem?.code ?? '')
      ? `refused: ${problem?.detail?.slice(0, 160)}`
      : undefined;
  if (res.statusCode !== 400 || !problem) return `answered ${res.statusCode} ${res.body.slice(0, 120)}`;
  return undefined;
}
