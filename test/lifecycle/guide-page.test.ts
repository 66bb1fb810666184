// The reference service's own v1 → v2 guide, as its page serves it: code spans as <code>, every
// operation a change reaches named (the list too), no schema names standing for operations, and
// the list's changed type shown before and after.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminHeaders, createTestApp } from '../support/test-app.ts';

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let t: TestApp;
const guide = async (accept: string) => {
  const res = await t.app.inject({ url: '/api/versions/v1/migration-guide', headers: { accept, authorization: '' } });
  assert.equal(res.statusCode, 200, res.body.slice(0, 200));
  return res;
};

before(async () => {
  t = await createTestApp();
  const put = await t.app.inject({
    method: 'PUT',
    url: '/admin/v1/versions/v1/deprecation',
    payload: { noticeMonths: 6 },
    headers: adminHeaders,
  });
  assert.equal(put.statusCode, 200, put.body);
});
after(() => t.close());

describe("the service's migration guide page (v1 → v2)", () => {
  it('HTML: code spans are <code> elements, no backtick is printed', async () => {
    const html = (await guide('text/html')).body;
    assert.ok(!html.includes('`'), 'no Markdown backtick left');
    assert.match(html, /<li>v2: Users gain two optional fields, <code>email<\/code> and <code>nickname<\/code>/);
    assert.match(html, /Response value <code>UserList<\/code> changed type from array to object\./);
  });

  it('HTML: a change names every operation it reaches, never a schema standing for them', async () => {
    const html = (await guide('text/html')).body;
    assert.doesNotMatch(html, /schema \w+|used by|and \d+ more/);
    const row = (text: string) => html.split('\n').find((l) => l.startsWith('<tr>') && l.includes(text)) ?? '';
    const detail = row('<code>UserDetail.email</code> was added');
    for (const op of ['POST /api/users', 'GET /api/users/{id}', 'PUT /api/users/{id}', 'PATCH /api/users/{id}'])
      assert.ok(detail.includes(`<code>${op}</code>`), `${op} in ${detail}`);
    // The list returns users too: their new field is named on the list operation.
    assert.match(row('<code>User.email</code> was added'), /<td><code>GET \/api\/users<\/code><\/td>/);
  });

  it('HTML and JSON: the list shape that changed is shown before and after', async () => {
    const html = (await guide('text/html')).body;
    const row = html.slice(html.indexOf('<tr><td><code>GET /api/users</code></td><td>Was array.'));
    assert.match(
      row,
      /^.*<pre aria-label="Before"><code>\{ &quot;type&quot;: &quot;array&quot;, &quot;items&quot;: \{ &quot;\$ref&quot;: &quot;#\/components\/schemas\/User&quot; \} \}<\/code><\/pre>/,
    );
    assert.match(
      row,
      /<pre aria-label="After"><code>\{\n {2}&quot;type&quot;: &quot;object&quot;,\n {2}&quot;required&quot;: \[&quot;data&quot;, &quot;meta&quot;\]/,
    );
    const json = (await guide('application/json')).json() as {
      breaking: { endpoint: string; before?: { type: string }; after?: { type: string; properties: object } }[];
    };
    const list = json.breaking.find((e) => e.endpoint === 'GET /api/users');
    assert.equal(list?.before?.type, 'array');
    assert.equal(list?.after?.type, 'object');
    assert.deepEqual(Object.keys(list?.after?.properties ?? {}), ['data', 'meta']);
  });

  it('Markdown: the shapes follow the table as JSON code blocks', async () => {
    const md = (await guide('text/markdown')).body;
    assert.match(
      md,
      /GET \/api\/users: Response value `UserList` changed type from array to object\.\n\nBefore:\n\n```json\n/,
    );
    assert.match(md, /\| GET \/api\/users \| Response field `User\.email` was added\. \|/);
  });
});
