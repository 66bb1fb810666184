import { startPythonUpstream, gatewayAdminKey } from '../support/gateway.ts';
import { startDataPlane, rawRequest } from '../support/nginx.ts';
const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const python = await startPythonUpstream();
let dp: any;
try {
dp = await startDataPlane({
  upstream: python.url,
  editDocument: (v, d) => { if (v !== 'v2') return; const q = (name: string) => ({ name, in: 'query', schema: { type: 'string' } }); (d.paths as any)['/api/v2/users'].get.parameters = [q('page'), q('cursor')]; },
  file: {
    rateLimit: { max: 50, windowSeconds: 60 },
    versions: { v1: { deprecatedAt: iso(Date.now() - 200 * day), sunsetAt: iso(Date.now() + 10 * day), replacement: 'v2' } },
    endpointDeprecations: [{ version: 'v2', method: 'GET', path: '/echo', deprecatedAt: iso(Date.now() - day), sunsetAt: iso(Date.now() + 200 * day) }],
    parameterDeprecations: [{ version: 'v2', method: 'GET', path: '/users', parameter: 'page', deprecatedAt: iso(Date.now() - day), sunsetAt: iso(Date.now() + 200 * day), replacement: 'cursor' }],
    notices: { brownouts: [{ version: 'v1', endpoint: 'GET /slow', startsAt: iso(Date.now() - 60_000), endsAt: iso(Date.now() + 3_600_000) }] },
  },
});
const auth = { authorization: `Bearer ${gatewayAdminKey}` };
for (const [path, h] of [
  ['/api/v1/users/1', auth], ['/api/v2/users?page=2', auth], ['/api/v2/echo', auth], ['/api/users/1', auth],
  ['/api/v9/users', auth], ['/api/v1/slow', auth], ['/api/v2/users/1', {}], ['/api/v2/users/1', { authorization: 'Bearer vk_nope' }],
  ['/api/v2/../v1/users', auth], ['/api/v2/users%2F1', auth], ['/api/v2/users;x=1', auth], ['/api/v2/users\\1', auth], ['/api/v2/%2e%2e/x', auth],
  ['/api/users/1', { ...auth, accept: 'application/vnd.acme.v1+json' }], ['/api/v2/nothing/here', auth], ['/api/versions', {}],
] as const) {
  const r = await rawRequest(dp.base, path, h as Record<string,string>);
  const hs = Object.fromEntries(Object.entries(r.headers).filter(([k]) => !['date','connection','keep-alive','content-length', 'server'].includes(k)));
  console.log(r.status, path, JSON.stringify(hs), r.body.slice(0, 400));
}
console.log(dp.usage());
console.log(dp.log().slice(-1500));
} finally { await dp?.stop(); await python.stop(); }
