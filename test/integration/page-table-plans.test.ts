// A page write probes each link's target page by the crawl's unique key (crawl_id, canonical_url). Where the
// statistics cannot tell pages' crawl_id-leading indexes apart (a fresh table, or a crawl the last ANALYZE did
// not see), PostgreSQL keeps the newest index it considers; once that was pages_by_crawl_score and each probe
// read every page of the crawl (migrations/0028). This fails when a later index takes the unique key's place:
// recreate the key after it, as 0028 does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from '../../src/db/sql.js';
import { build } from '../helper.js';
import { type PlanNode, planNodes } from '../support/query-plans.js';

test('page_complete probes link targets by the unique (crawl_id, canonical_url) key on a table without statistics', async (t) => {
  const { runtime } = await build(t, { worker: false });
  const values: unknown[] = new Array(31).fill(null);
  values[0] = 1; // page id
  values[1] = 'HTML';
  values[15] = false; // budget back
  values[22] = false; // relevant
  values[23] = ['http://a.test/x', 'http://a.test/y']; // link targets
  values[24] = ['x', 'y'];
  values[25] = '00000000-0000-0000-0000-000000000001'; // crawl id
  const explained = await runtime.db.pool.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
    `EXPLAIN (FORMAT JSON) ${sql('page_complete')}`,
    values,
  );
  const plan = explained.rows[0]!['QUERY PLAN'][0]!.Plan;
  const linkInsert = [...planNodes(plan)].find(
    (node) => node['Node Type'] === 'ModifyTable' && node['Relation Name'] === 'page_links',
  );
  assert.ok(linkInsert, 'the plan inserts links');
  const probes = [...planNodes(linkInsert)].filter((node) => node['Relation Name'] === 'pages');
  assert.deepEqual(
    probes.map((node) => [node['Node Type'], node['Index Name']]),
    [['Index Scan', 'pages_crawl_id_canonical_url_key']],
  );
});

test("an idle runner's frontier_state reads the frontier's first and last lease from their index, not the page table", async (t) => {
  const { runtime } = await build(t, { worker: false });
  const explained = await runtime.db.pool.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
    `EXPLAIN (FORMAT JSON) ${sql('frontier_state')}`,
    ['00000000-0000-0000-0000-000000000001'],
  );
  const plan = explained.rows[0]!['QUERY PLAN'][0]!.Plan;
  const pageScans = [...planNodes(plan)].filter((node) => node['Relation Name'] === 'pages');
  assert.deepEqual(
    pageScans.map((node) => node['Index Name']),
    ['pages_frontier_leases', 'pages_frontier_leases'],
  );
});
