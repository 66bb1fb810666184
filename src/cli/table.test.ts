import assert from 'node:assert/strict';
import { it } from 'node:test';
import { formatTable } from './management-client.ts';

it('pads each column to its widest cell, two spaces apart, with no trailing spaces', () => {
  const text = formatTable({
    head: ['id', 'name', 'calls'],
    rows: [
      ['c1', 'A long name', '3'],
      ['client-2', 'B', '12000'],
    ],
  });
  assert.equal(
    text,
    ['id        name         calls', 'c1        A long name  3', 'client-2  B            12000', ''].join('\n'),
  );
});

it('prints the head alone when there are no rows, and trims a short last column', () => {
  assert.equal(formatTable({ head: ['id', 'last error'], rows: [] }), 'id  last error\n');
  assert.equal(formatTable({ head: ['id', 'last error'], rows: [['1', '-']] }), 'id  last error\n1   -\n');
});
