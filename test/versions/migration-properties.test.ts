import { describe, it } from 'node:test';
import { createApiBundle } from '../../src/reference/api/index.ts';
import { loadExampleBundle } from '../support/example-bundle.ts';
import { migrationProperties } from '../support/migration-properties.ts';
import { booksBundle } from '../loop/books.ts';

// Every version change the project declares keeps its promise: whatever the head answers, each
// older version gets a body valid against its own schema, and whatever an older client sends,
// the handler gets a body valid against the head's. The recipes are checked in recipes.test.ts.
describe('migrations: the reference service', () => {
  for (const property of migrationProperties(createApiBundle())) it(property.name, property.run);
});

describe('migrations: the example books app', async () => {
  for (const property of migrationProperties(await loadExampleBundle())) it(property.name, property.run);
});

describe("migrations: the loop test's books API", () => {
  for (const property of migrationProperties(booksBundle)) it(property.name, property.run);
});
