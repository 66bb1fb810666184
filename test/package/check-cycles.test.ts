import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeCycle, findCycles } from '../../scripts/check-cycles.ts';

const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

describe('the import-cycle finder', () => {
  it('finds nothing in a tree or a diamond', () => {
    assert.deepEqual(findCycles(graph({ a: ['b', 'c'], b: ['d'], c: ['d'], d: [] })), []);
  });

  it('finds each strongly connected component once, with all its members', () => {
    const g = graph({ a: ['b'], b: ['c'], c: ['a', 'd'], d: ['e'], e: ['d'], f: ['a'], g: ['g'] });
    assert.deepEqual(findCycles(g), [['a', 'b', 'c'], ['d', 'e'], ['g']]);
  });

  it('shows one closed import path through a component', () => {
    const g = graph({ a: ['x', 'b'], b: ['c'], c: ['a'], x: [] });
    assert.equal(describeCycle(g, ['a', 'b', 'c']), 'a -> b -> c -> a');
    assert.equal(describeCycle(graph({ g: ['g'] }), ['g']), 'g -> g');
  });
});
