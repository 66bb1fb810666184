import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  gatewayAdminKey,
  startPythonUpstream,
  startTestGateway,
  type PythonUpstream,
  type TestGateway,
} from '../support/gateway.ts';
import { parityConfig, parityDocumentEdit, parityEpoch, parityFinalMoments } from '../support/parity-cases.ts';
import { prepareParity, runParity, runRateLimitParity, type ParityTarget } from '../support/parity-runner.ts';
import { eventually } from '../support/service-process.ts';
import { rawRequest, startDataPlane, type DataPlane, type RawResponse } from '../support/nginx.ts';
import { scenario, withKey } from './scenario.ts';

/** One scripted request: a name, the raw target and its headers. */
type Call = [name: string, target: string, headers?: Record<string, string>];

const calls: Call[] = [
  ['current version', '/api/v2/users/1', withKey],
  ['deprecated version', '/api/v1/users/1', withKey],
  ['deprecated version, by Accept', '/api/users/2', { ...withKey, accept: 'application/vnd.acme.v1+json' }],
  ['upstream Link joined with the lifecycle', '/api/v1/users?page=1', withKey],
  ['deprecated endpoint', '/api/v2/echo', withKey],
  ['deprecated query parameter', '/api/v2/users?page=2', withKey],
  ['query parameter past its sunset', '/api/v2/users?offset=2', withKey],
  ['brownout', '/api/v1/slow', withKey],
  ['undocumented path', '/api/v2/nothing/here', withKey],
  ['no version', '/api/users/1', withKey],
  ['unknown version', '/api/v9/users', withKey],
  [
    'two versions in Accept',
    '/api/users/1',
    { ...withKey, accept: 'application/vnd.acme.v1+json, application/json; version=2' },
  ],
  ['path and Accept disagree', '/api/v2/users/1', { ...withKey, accept: 'application/vnd.acme.v1+json' }],
  ['no key', '/api/v2/users/1'],
  ['bad key', '/api/v2/users/1', { authorization: 'Bearer vk_not_a_key' }],
  ['malformed Authorization', '/api/v2/users/1', { authorization: 'Basic abc' }],
  ['dot segment', '/api/v2/../v1/users', withKey],
  ['encoded dot segment', '/api/v2/%2e%2e/v1/users', withKey],
  ['encoded slash', '/api/v2/users%2F1', withKey],
  ['matrix parameter', '/api/v2/users;x=1', withKey],
  ['backslash', '/api/v2/users\\1', withKey],
  ['empty segment', '/api/v2//users', withKey],
];

const removedCalls: Call[] = [
  ['removed version', '/api/v1/users/1', withKey],
  ['removed version, no key', '/api/v1/users/1'],
  ['removed version, by Accept', '/api/users/1', { ...withKey, accept: 'application/vnd.acme.v1+json' }],
  ['current version beside it', '/api/v2/users/1', withKey],
];

/**
 * Where nginx's answer differs from the gateway's on purpose, by call name; docs/gateway.md
 * ("nginx as the data plane", "What differs") says why.
 */
const differences: Record<string, string> = {};

const lifecycleHeaders = [
  'deprecation',
  'sunset',
  'link',
  'warning',
  'api-supported-versions',
  'api-deprecated-versions',
];

function comparable(response: RawResponse): Record<string, unknown> {
  const headers = Object.fromEntries(lifecycleHeaders.map((name) => [name, response.headers[name] ?? null]));
  let body: unknown = response.body;
  if (String(response.headers['content-type']).startsWith('application/problem+json')) {
    const problem = JSON.parse(response.body) as Record<string, unknown>;
    // The request id is each server's own, and present in both.
    assert.equal(typeof problem.requestId, 'string');
    delete problem.requestId;
    body = problem;
  } else if (String(response.headers['content-type']).startsWith('application/json')) {
    const json = JSON.parse(response.body) as Record<string, unknown>;
    // The Python upstream echoes the headers it received: the hop's own (Host, X-Forwarded-*) differ by port.
    if (json.headers) delete json.headers;
    body = json;
  }
  return { status: response.status, headers, body };
}

async function compare(gateway: string, nginx: string, script: Call[]): Promise<void> {
  for (const [name, target, headers] of script) {
    const viaGateway = comparable(await rawRequest(gateway, target, headers));
    const viaNginx = comparable(await rawRequest(nginx, target, headers));
    if (differences[name]) {
      assert.notDeepEqual(viaNginx, viaGateway, `${name}: the documented difference (${differences[name]}) is gone`);
      continue;
    }
    assert.deepEqual(viaNginx, viaGateway, `${name}: ${target}`);
  }
}

describe('nginx as the data plane answers as versionary gateway does', () => {
  let python: PythonUpstream;
  before(async () => {
    python = await startPythonUpstream();
  });
  after(async () => {
    await python.stop();
  });

  describe('with v1 deprecated', () => {
    let gateway: TestGateway;
    let nginx: DataPlane;
    before(async () => {
      const options = { upstream: python.url, ...scenario() };
      gateway = await startTestGateway(options);
      nginx = await startDataPlane(options);
    });
    after(async () => {
      await nginx?.stop();
      await gateway?.stop();
    });

    it('gives the same status, lifecycle headers and problem to each scripted request', async () => {
      await compare(gateway.base, nginx.base, calls);
    });
  });

  describe('with v1 past its sunset', () => {
    let gateway: TestGateway;
    let nginx: DataPlane;
    before(async () => {
      const options = { upstream: python.url, ...scenario({ removedV1: true }) };
      gateway = await startTestGateway(options);
      nginx = await startDataPlane(options);
    });
    after(async () => {
      await nginx?.stop();
      await gateway?.stop();
    });

    it('refuses the removed version with the same 410 problem and headers', async () => {
      await compare(gateway.base, nginx.base, removedCalls);
    });
  });
});

// The rulebook's case list (test/support/parity-cases.ts), run against nginx as against core, the
// service and the gateway (test/rulebook/parity.test.ts): every rule, HEAD, the per-client rows and
// the probe's spellings, with nginx judging on the control plane's clock, pushed with each table.
const iso = (at: number) => new Date(at).toISOString();

describe('parity: nginx answers every case of the rulebook as core decides it', () => {
  let now = parityEpoch;
  let python: PythonUpstream;
  let nginx: DataPlane;
  before(async () => {
    python = await startPythonUpstream();
    nginx = await startDataPlane({
      upstream: python.url,
      file: parityConfig,
      clock: { now: () => now },
      editDocument: parityDocumentEdit,
    });
  });
  after(async () => {
    await nginx?.stop();
    await python?.stop();
  });

  it('every case', async () => {
    const target: ParityTarget = {
      name: 'nginx',
      base: nginx.base,
      adminBase: nginx.control,
      adminKey: gatewayAdminKey,
      setNow: async (at) => {
        now = at;
        await nginx.sync();
      },
    };
    const clients = await prepareParity(target);
    // `early`'s call reaches the control plane as nginx's usage batches: the closing's allowed set is made of it.
    await eventually(async () => {
      const res = await fetch(
        `${nginx.control}/admin/v1/usage/operations?version=v1&until=${iso(parityEpoch + 3_600_000)}`,
        {
          headers: { authorization: `Bearer ${gatewayAdminKey}` },
        },
      );
      return res.ok && (await res.text()).includes(clients.ids.early);
    }, 10_000);
    assert.deepEqual(await runParity(target, clients), []);
    assert.deepEqual(await runRateLimitParity(target, clients), []);
    assert.deepEqual(await runParity(target, clients, parityFinalMoments), []);
  });
});
