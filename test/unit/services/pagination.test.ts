// paginate(), the one way a list endpoint pages: one row read past the page tells whether there is a next
// page, the next link keeps the list's query with the cursor last, and a cursor it did not write is a 400.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InputError } from '../../../src/errors.js';
import { isRowIdCursor, paginate } from '../../../src/services/presentation/pagination.js';

const ROWS = [1, 2, 3, 4, 5].map((id) => ({ id, name: `row ${id}` }));

function list(cursor: string | undefined, limit: number, reads: Array<{ after: number; rows: number }>) {
  return paginate({
    limit,
    cursor,
    accept: isRowIdCursor,
    read: async (after, rows) => {
      reads.push({ after: after?.after ?? 0, rows });
      return ROWS.filter((row) => row.id > (after?.after ?? 0)).slice(0, rows);
    },
    view: (row) => row.name,
    positionOf: (row) => ({ after: row.id }),
    link: { path: '/v1/things', query: { limit, kind: undefined, sort: 'id' } },
  });
}

test('paginate: pages follow one another by their next links until the last, which has none', async () => {
  const reads: Array<{ after: number; rows: number }> = [];
  const seen: string[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await list(cursor, 2, reads);
    seen.push(...page.items);
    if (page.next === null) break;
    const url = new URL(page.next, 'http://x');
    assert.equal(url.pathname, '/v1/things');
    assert.deepEqual([...url.searchParams.keys()], ['limit', 'sort', 'cursor']);
    cursor = url.searchParams.get('cursor') ?? undefined;
  }
  assert.deepEqual(
    seen,
    ROWS.map((row) => row.name),
  );
  // each read asks for one row more than the page
  assert.deepEqual(reads, [
    { after: 0, rows: 3 },
    { after: 2, rows: 3 },
    { after: 4, rows: 3 },
  ]);
});

test('paginate: a page that ends exactly at the last row has no next link; an empty cursor is the start', async () => {
  const page = await list('', 5, []);
  assert.equal(page.items.length, 5);
  assert.equal(page.next, null);
});

test('paginate: a cursor it did not write is an InputError on `cursor`', async () => {
  for (const cursor of ['not base64 json', Buffer.from('{"after":-1}').toString('base64url')]) {
    await assert.rejects(list(cursor, 2, []), (error: unknown) => {
      assert.ok(error instanceof InputError);
      assert.equal(error.field, 'cursor');
      return true;
    });
  }
});
