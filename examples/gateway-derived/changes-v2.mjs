// The changes of changes-v2.json as a JavaScript module, with what data cannot say: a migration
// function, told the call by its second argument (`ctx`). Name it in the config instead of the
// JSON file: "v1": { "derivedFrom": "v2", "changes": "./changes-v2.mjs" }.
//
// ctx.operation  { id, method, path }: the operation called, in v1's terms (`/users/{id}`)
// ctx.params     the path parameters, decoded ({ id: '1' })
// ctx.query      the query parameters, decoded (a repeated one as a list)
// ctx.headers    the request's headers (lower-case names); in a response migration, the answer's
// ctx.status     in a response migration, the status v2's upstream answered
export const changes = [
  {
    version: 'v2',
    description: 'Users gain an email, the status gains pending, and lists become objects with the page in data.',
    instructions: [
      { op: 'field-added', schema: 'User', field: 'email' },
      { op: 'field-added', schema: 'UserInput', field: 'email' },
      {
        op: 'enum-values-added',
        schema: 'User',
        field: 'status',
        values: ['pending'],
        mapDownTo: { pending: 'inactive' },
      },
      {
        op: 'schema-replaced',
        schema: 'UserList',
        previous: { type: 'array', items: { $ref: '#/components/schemas/User' } },
        previousFrom: '/data',
      },
    ],
    requests: {
      // v1 clients could give a new user's email in a header; v2 takes it in the body.
      UserInput: (input, ctx) => {
        const email = ctx.headers['x-user-email'];
        return ctx.operation.method === 'POST' && typeof email === 'string' ? { ...input, email } : input;
      },
    },
  },
];
