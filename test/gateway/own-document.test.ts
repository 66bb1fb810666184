import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gatewayAdminKey, gatewayInFrontOfPython } from '../support/gateway.ts';

const auth = { authorization: `Bearer ${gatewayAdminKey}` };

// An upstream that serves (and documents) its own `/openapi.json` under a version: the gateway
// serves that path itself (the document with the lifecycle's marks), so the upstream's operation
// must not become a second route for it.
describe('gateway: an upstream that documents its own /openapi.json', () => {
  const gateway = gatewayInFrontOfPython({
    editDocument: (version, document) => {
      const paths = document.paths as Record<string, unknown>;
      paths[`/api/${version}/openapi.json`] = {
        get: { operationId: `document${version}`, responses: { '200': { description: 'The document' } } },
      };
    },
  });

  it('starts, and answers the version document at <prefix>/<version>/openapi.json itself', async () => {
    const response = await fetch(`${gateway.base}/api/v2/openapi.json`, { headers: auth });
    assert.equal(response.status, 200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    assert.match(document.openapi, /^3\./);
    assert.ok(document.paths['/users'], 'the gateway document lists the upstream operations');
  });

  it('still forwards the documented operations', async () => {
    const response = await fetch(`${gateway.base}/api/v2/users/1`, { headers: auth });
    assert.equal(response.status, 200);
  });
});
