// The real-world pair from the corpus: circular refs, deep anyOf trees, x- extensions. Not timed
// here (the bench times it); this checks it completes with a sane, non-repeated set of changes.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { it } from 'node:test';
import { diffOpenApi } from './diff-openapi.ts';

const corpus = process.env.VERSIONARY_CORPUS ?? '/work/shared/corpus';
const files = ['stripe-2021-06.json', 'stripe-2022-04.json'].map((f) => `${corpus}/${f}`);

it(
  'diffs the two Stripe releases with a sane change count',
  { skip: !files.every(existsSync) && 'Stripe corpus not present' },
  () => {
    const [base, revision] = files.map((f) => JSON.parse(readFileSync(f, 'utf8')) as unknown);
    const { changes, summary } = diffOpenApi({ base, revision });
    assert.ok(changes.length > 100 && changes.length < 5000, `change count ${changes.length}`);
    assert.ok(summary.breaking > 0 && summary.compatible > summary.breaking);
    assert.equal(summary.breaking + summary.risk + summary.compatible, changes.length);
    // 43 operations were added between the releases (417 - 374).
    assert.equal(changes.filter((c) => c.id === 'endpoint-added').length, 43);
    const keys = changes.map(
      (c) => `${c.id} ${c.location.pointer} ${JSON.stringify(c.oldValue)} ${JSON.stringify(c.newValue)}`,
    );
    assert.equal(new Set(keys).size, keys.length, 'no change is repeated');
    for (const c of changes) assert.ok(c.message.length > 10 && c.location.pointer.startsWith('/'));
  },
);
