import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { GraphFigures } from '../../src/schemas/rankings.js';
import { build, buildShared, crawlToEnd, eventually } from '../helper.js';
import { ringFile, streamed, waitForRanking } from '../support/rankings.js';
import { BENCHMARK_FEATURES, scopeOf, startTestWeb } from '../support/testweb/index.js';

// a → b, a → c, b → c, c → a with β = 0.85 and no dangling vertices: r = 0.05 + 0.85 · Σ r_u / out(u), so
// r_b = 0.05 + 0.425 r_a, r_c = 0.05 + 0.425 r_a + 0.85 r_b = 0.0925 + 0.78625 r_a,
// r_a = 0.05 + 0.85 r_c = 0.128625 + 0.6683125 r_a → r_a = 0.128625 / 0.3316875.
const rA = 0.128625 / 0.3316875;
const rB = 0.05 + 0.425 * rA;
const rC = 0.0925 + 0.78625 * rA;
const EDGES = [
  ['a', 'b'],
  ['a', 'c'],
  ['b', 'c'],
  ['c', 'a'],
];

interface RankingDoc {
  status: string;
  vertices: number;
  edges: number;
  converged: boolean;
  iterations: number;
  top: Record<
    'pageRank' | 'inDegree' | 'outDegree',
    Array<{ vertex: string; rank?: number; degree?: number }>
  >;
  jaccard: Record<string, number>;
}
interface Vertex {
  vertex: string;
  pageRank: number;
  inDegree: number;
  outDegree: number;
}

function assertHandComputed(ranking: RankingDoc) {
  assert.equal(ranking.status, 'completed');
  assert.equal(ranking.vertices, 3);
  assert.equal(ranking.edges, 4);
  assert.equal(ranking.converged, true);
  assert.ok(ranking.iterations > 10, `iterations ${ranking.iterations}`);
  assert.deepEqual(
    ranking.top.pageRank.map((r: { vertex: string }) => r.vertex),
    ['c', 'a', 'b'],
  );
  const rank = Object.fromEntries(ranking.top.pageRank.map((r) => [r.vertex, r.rank!]));
  for (const [vertex, expected] of Object.entries({ a: rA, b: rB, c: rC })) {
    assert.ok(
      Math.abs((rank[vertex] ?? Number.NaN) - expected) < 1e-9,
      `${vertex}: ${rank[vertex]} vs ${expected}`,
    );
  }
  // ties broken by name
  assert.deepEqual(ranking.top.inDegree, [
    { vertex: 'c', degree: 2 },
    { vertex: 'a', degree: 1 },
    { vertex: 'b', degree: 1 },
  ]);
  assert.deepEqual(ranking.top.outDegree, [
    { vertex: 'a', degree: 2 },
    { vertex: 'b', degree: 1 },
    { vertex: 'c', degree: 1 },
  ]);
  // top-3 sets of a 3-vertex graph are all the same set
  assert.deepEqual(ranking.jaccard, {
    'inDegree~pageRank': 1,
    'inDegree~outDegree': 1,
    'outDegree~pageRank': 1,
  });
}

// the tests that only rank and read back their own rankings, by id, share one app; those that change its
// limits, start a crawl, list rankings or need their own env build their own
const shared = buildShared({ worker: false });

test('POST /v1/rankings ranks JSON edges, stores the ranking and answers its location', async () => {
  const { app } = shared;
  const created = await app.inject({
    method: 'POST',
    url: '/v1/rankings',
    payload: { edges: EDGES, epsilon: 1e-12 },
  });
  assert.equal(created.statusCode, 201, created.body);
  const ranking = created.json();
  assertHandComputed(ranking);
  assert.equal(ranking.damping, 0.85);
  assert.equal(ranking.epsilon, 1e-12);
  assert.equal(ranking.crawlId, null);
  assert.equal(created.headers.location, `/v1/rankings/${ranking.id}`);

  const read = await app.inject({ method: 'GET', url: created.headers.location as string });
  assert.equal(read.statusCode, 200);
  assert.deepEqual(read.json(), ranking);

  const vertex = await app.inject({ method: 'GET', url: `/v1/rankings/${ranking.id}/vertices?name=c` });
  assert.equal(vertex.statusCode, 200, vertex.body);
  assert.equal(vertex.json().inDegree, 2);
  assert.equal(vertex.json().outDegree, 1);
  assert.ok(Math.abs(vertex.json().pageRank - rC) < 1e-9);
  // a → b → c → a is one strong component; taken undirected, a triangle
  assert.deepEqual(
    { ...vertex.json<Vertex>(), pageRank: 0 },
    {
      vertex: 'c',
      pageRank: 0,
      inDegree: 2,
      outDegree: 1,
      clustering: 1,
      weakComponent: 0,
      strongComponent: 0,
    },
  );
  const listed = await app.inject({
    method: 'GET',
    url: `/v1/rankings/${ranking.id}/vertices?sort=-inDegree`,
  });
  assert.deepEqual(
    listed.json().items.map((v: Vertex & { strongComponent: number }) => [v.vertex, v.strongComponent]),
    [
      ['c', 0],
      ['a', 0],
      ['b', 0],
    ],
  );
  assert.deepEqual(ranking.graph, {
    vertices: 3,
    edges: 4,
    averageDegree: 4 / 3,
    density: 4 / 6,
    // a → c and c → a
    reciprocity: 0.5,
    isolated: 0,
    components: {
      weak: { count: 1, largest: 3, sizes: [3] },
      strong: { count: 1, largest: 3, sizes: [3] },
    },
    clustering: { average: 1, transitivity: 1 },
    diameter: {
      // b → c → a and c → a → b take two hops; the other four pairs one
      directed: 2,
      undirected: 1,
      averageShortestPath: 8 / 6,
      averageShortestPathSources: 3,
      exact: true,
      bounds: { directed: { lower: 2, upper: 2 }, undirected: { lower: 1, upper: 1 } },
      searches: ranking.graph.diameter.searches,
    },
  });

  const unknown = await app.inject({ method: 'GET', url: `/v1/rankings/${ranking.id}/vertices?name=zz` });
  assert.equal(unknown.statusCode, 404);
  assert.match(unknown.headers['content-type'] as string, /problem\+json/);
  const missing = await app.inject({
    method: 'GET',
    url: '/v1/rankings/00000000-0000-4000-8000-000000000000',
  });
  assert.equal(missing.statusCode, 404);
});

test('POST /v1/rankings reads a text/plain edges file with options in the query string', async () => {
  const { app } = shared;
  const file = '# a comment\n4\na b\na c\nb c\nc a\nb c\n';
  const rejected = await app.inject({
    method: 'POST',
    url: '/v1/rankings?epsilon=1e-12',
    headers: { 'content-type': 'text/plain' },
    payload: file,
  });
  assert.equal(rejected.statusCode, 400, rejected.body);
  assert.equal(rejected.json().line, 7, 'the repeated edge is on line 7');

  const created = await app.inject({
    method: 'POST',
    url: '/v1/rankings?epsilon=1e-12&duplicateEdges=drop&topK=2',
    headers: { 'content-type': 'text/plain; charset=utf-8' },
    payload: file,
  });
  assert.equal(created.statusCode, 201, created.body);
  const ranking = created.json();
  // the first line says 4 vertices, the edges name 3: the fourth is ranked, unnamed
  assert.equal(ranking.declaredVertices, 4);
  assert.equal(ranking.vertices, 4);
  assert.equal(ranking.unnamedVertices, 1);
  assert.equal(ranking.droppedDuplicates, 1);
  assert.equal(ranking.topK, 2);
  assert.deepEqual(
    ranking.top.pageRank.map((r: { vertex: string }) => r.vertex),
    ['c', 'a'],
  );
  const full = await app.inject({
    method: 'POST',
    url: '/v1/rankings?epsilon=1e-12&duplicateEdges=drop',
    headers: { 'content-type': 'text/plain' },
    payload: file.replace('\n4\n', '\n3\n'),
  });
  assert.equal(full.statusCode, 201, full.body);
  assertHandComputed(full.json());
});

test('vertices an edges file declares but no edge names are ranked, counted and never listed', async () => {
  const { app } = shared;
  const fixture = readFileSync(new URL('../fixtures/rank/isolated.edges', import.meta.url));
  const expected = JSON.parse(
    readFileSync(new URL('../fixtures/rank/isolated.networkx.json', import.meta.url), 'utf8'),
  );
  const networkx = expected.cases[0] as { ranks: Record<string, number>; unnamedRank: number };
  const created = await app.inject({
    method: 'POST',
    url: '/v1/rankings?epsilon=1e-13&topK=1000&jaccardK=1000',
    headers: { 'content-type': 'text/plain' },
    payload: fixture,
  });
  assert.equal(created.statusCode, 201, created.body);
  const ranking = created.json();
  assert.equal(ranking.vertices, expected.declaredVertices);
  assert.equal(ranking.declaredVertices, expected.declaredVertices);
  assert.equal(ranking.unnamedVertices, expected.declaredVertices - expected.namedVertices);
  for (const list of Object.values(ranking.top) as Array<Array<{ vertex: string }>>) {
    assert.equal(list.length, expected.namedVertices, 'top lists hold the named vertices only');
  }
  const listed: Vertex[] = [];
  for (let next: string | null = `/v1/rankings/${ranking.id}/vertices?limit=25`; next; ) {
    const page: { items: Vertex[]; next: string | null } = (
      await app.inject({ method: 'GET', url: next })
    ).json();
    listed.push(...page.items);
    next = page.next;
  }
  assert.deepEqual(
    listed.map((v) => v.vertex).sort(),
    Object.keys(networkx.ranks).sort(),
    'the listing holds the named vertices only',
  );
  let listedSum = 0;
  for (const vertex of listed) {
    listedSum += vertex.pageRank;
    assert.ok(Math.abs(vertex.pageRank - networkx.ranks[vertex.vertex]!) < 1e-9, vertex.vertex);
  }
  const unnamedSum = ranking.unnamedVertices * networkx.unnamedRank;
  assert.ok(Math.abs(listedSum + unnamedSum - 1) < 1e-9, 'the unnamed vertices hold the rest');
});

test('personalization teleports only to the given vertices (topic-sensitive PageRank)', async () => {
  const { app } = shared;
  // teleport only to a: r_a = 0.15 + 0.85 r_c, r_b = 0.425 r_a, r_c = 0.425 r_a + 0.85 r_b = 0.78625 r_a,
  // so r_a = 0.15 / (1 − 0.85 · 0.78625) = 0.15 / 0.3316875.
  const a = 0.15 / 0.3316875;
  const created = await app.inject({
    method: 'POST',
    url: '/v1/rankings',
    payload: { edges: EDGES, epsilon: 1e-12, personalization: ['a'] },
  });
  assert.equal(created.statusCode, 201, created.body);
  const ranking = created.json();
  assert.deepEqual(ranking.personalization, ['a']);
  const rank = Object.fromEntries(
    ranking.top.pageRank.map((r: { vertex: string; rank: number }) => [r.vertex, r.rank]),
  );
  for (const [vertex, expected] of Object.entries({ a, b: 0.425 * a, c: 0.78625 * a })) {
    assert.ok(Math.abs(rank[vertex] - expected) < 1e-9, `${vertex}: ${rank[vertex]} vs ${expected}`);
  }
  const unknown = await app.inject({
    method: 'POST',
    url: '/v1/rankings?personalization=a&personalization=zz',
    headers: { 'content-type': 'text/plain' },
    payload: '3\na b\nb c\n',
  });
  assert.equal(unknown.statusCode, 400, unknown.body);
  assert.equal(unknown.json().field, 'personalization[1]');
});

test('a malformed edges file is a 400 problem naming the line; bad JSON edges name the edge', async () => {
  const { app } = shared;
  const cases: Array<[string, number]> = [
    ['3\na b\nb c d\n', 3],
    ['x\na b\n', 1],
    ['2\na b\nb c\n', 3],
    ['3\na b\nb b\n', 3],
  ];
  for (const [payload, line] of cases) {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/rankings',
      headers: { 'content-type': 'text/plain' },
      payload,
    });
    assert.equal(response.statusCode, 400, `${JSON.stringify(payload)} → ${response.body}`);
    assert.match(response.headers['content-type'] as string, /^application\/problem\+json/);
    const problem = response.json();
    assert.equal(problem.line, line, JSON.stringify(problem));
    assert.equal(problem.field, 'body');
    assert.match(problem.detail, new RegExp(`^line ${line}`));
  }
  const jsonCases: Array<[unknown, string]> = [
    [
      {
        edges: [
          ['a', 'b'],
          ['b', 'b'],
        ],
      },
      'edges[1]',
    ],
    [
      {
        edges: [
          ['a', 'b'],
          ['b', 'c'],
          ['a', 'b'],
        ],
      },
      'edges[2]',
    ],
    [{ edges: [['a', 'b', 'c']] }, 'edges[0]'],
    [{ edges: [['a', 'b']], damping: 2 }, 'damping'],
    [{ edges: [['a', 'b']], bogus: 1 }, 'bogus'],
  ];
  for (const [payload, field] of jsonCases) {
    const response = await app.inject({ method: 'POST', url: '/v1/rankings', payload: payload as object });
    assert.equal(response.statusCode, 400, `${JSON.stringify(payload)} → ${response.body}`);
    assert.equal(response.json().field, field, response.body);
  }
  const dropped = await app.inject({
    method: 'POST',
    url: '/v1/rankings',
    payload: {
      edges: [
        ['a', 'b'],
        ['b', 'b'],
      ],
      selfLoops: 'drop',
    },
  });
  assert.equal(dropped.statusCode, 201, dropped.body);
  assert.equal(dropped.json().droppedSelfLoops, 1);
});

test('GET /v1/rankings/:id/vertices pages through every vertex by each sort, largest first', async () => {
  const { app } = shared;
  // a hub every spoke links to, the hub linking back to some, and a chain among the spokes
  const spokes = Array.from({ length: 11 }, (_, i) => `s${String(i).padStart(2, '0')}`);
  const edges = [
    ...spokes.map((s) => [s, 'hub']),
    ...spokes.slice(0, 4).map((s) => ['hub', s]),
    ...spokes.slice(1).map((s, i) => [spokes[i]!, s]),
  ];
  const created = await app.inject({ method: 'POST', url: '/v1/rankings', payload: { edges } });
  assert.equal(created.statusCode, 201, created.body);
  const { id, vertices } = created.json();
  assert.equal(vertices, 12);

  for (const [sort, key] of [
    ['-pageRank', 'pageRank'],
    ['-inDegree', 'inDegree'],
    ['-outDegree', 'outDegree'],
  ] as const) {
    const seen: Vertex[] = [];
    let next: string | null = `/v1/rankings/${id}/vertices?sort=${sort}&limit=5`;
    let pages = 0;
    while (next) {
      const response: { statusCode: number; body: string; json(): { items: Vertex[]; next: string | null } } =
        await app.inject({
          method: 'GET',
          url: next,
        });
      assert.equal(response.statusCode, 200, response.body);
      const page = response.json();
      assert.ok(page.items.length <= 5);
      seen.push(...page.items);
      next = page.next;
      pages++;
    }
    assert.equal(pages, 3);
    assert.equal(seen.length, 12);
    assert.equal(new Set(seen.map((v) => v.vertex)).size, 12, 'no vertex twice');
    for (let i = 1; i < seen.length; i++) {
      const a = seen[i - 1]!;
      const b = seen[i]!;
      assert.ok(a[key] > b[key] || (a[key] === b[key] && a.vertex < b.vertex), `${sort} order at ${i}`);
    }
    assert.equal(seen[0]!.vertex, 'hub');
  }
  const hub = (await app.inject({ method: 'GET', url: `/v1/rankings/${id}/vertices?name=hub` })).json();
  assert.deepEqual([hub.inDegree, hub.outDegree], [11, 4]);

  const badCursor = await app.inject({ method: 'GET', url: `/v1/rankings/${id}/vertices?cursor=nope` });
  assert.equal(badCursor.statusCode, 400);
  assert.equal(badCursor.json().field, 'cursor');
  const mixed = await app.inject({ method: 'GET', url: `/v1/rankings/${id}/vertices?name=hub&limit=2` });
  assert.equal(mixed.statusCode, 400);
  assert.equal(mixed.json().field, 'name');
});

test("POST /v1/crawls/:id/rank ranks the crawl's link graph by page URL", async (t) => {
  const web = await startTestWeb({ seed: 5, hosts: 1, pagesPerHost: 15, features: BENCHMARK_FEATURES });
  t.after(() => web.close());
  const { app, runtime } = await build(t);
  const status = await crawlToEnd(app, {
    seeds: web.seeds,
    scope: scopeOf(web),
    politeness: { delayMs: 0 },
    maxPages: 15,
  });

  const ranked = await app.inject({
    method: 'POST',
    url: `/v1/crawls/${status.id}/rank`,
    payload: { epsilon: 1e-10, topK: 5 },
  });
  assert.equal(ranked.statusCode, 201, ranked.body);
  const ranking = ranked.json();
  assert.equal(ranking.crawlId, status.id);
  // the graph's edges: every link of the crawl but those to pages robots.txt forbids (and to redirect targets,
  // which become edges to the page that redirected)
  const graph = (
    await app.inject({ method: 'GET', url: `/v1/crawls/${status.id}/graph?format=json` })
  ).json();
  assert.equal(ranking.edges, graph.edges.length);
  assert.ok(ranking.edges <= (status.links as number));
  assert.equal(ranking.top.pageRank.length, 5);
  assert.match(ranking.top.pageRank[0].vertex, /^http:/);
  assert.equal(ranked.headers.location, `/v1/rankings/${ranking.id}`);

  // the same graph uploaded as the crawl's edges file ranks the same (isolated pages aside: none here)
  const file = await app.inject({ method: 'GET', url: `/v1/crawls/${status.id}/graph?format=edges` });
  const uploaded = await app.inject({
    method: 'POST',
    url: '/v1/rankings?epsilon=1e-10&topK=5',
    headers: { 'content-type': 'text/plain' },
    payload: file.body,
  });
  assert.equal(uploaded.statusCode, 201, uploaded.body);
  assert.equal(uploaded.json().declaredVertices, ranking.vertices);
  assert.equal(uploaded.json().vertices, ranking.vertices, 'every page of this crawl is an end of a link');
  // Same ranks up to rounding: the two graphs number their vertices differently, so each rank's sum is
  // added in another order and may differ in the last bits (which can also reorder exact ties).
  assert.deepEqual(roundedTop(uploaded.json().top), roundedTop(ranking.top));

  const gexf = await app.inject({ method: 'GET', url: `/v1/crawls/${status.id}/graph?format=gexf` });
  assert.equal(gexf.statusCode, 200);
  assert.match(gexf.headers['content-type'] as string, /^application\/gexf\+xml/);
  assert.match(gexf.body, /^<\?xml[\s\S]*<gexf xmlns="http:\/\/gexf.net\/1.3"[\s\S]*<\/gexf>\n$/);
  assert.equal(gexf.body.match(/<node /g)?.length, ranking.vertices);
  assert.equal(gexf.body.match(/<edge /g)?.length, ranking.edges);
  assert.equal(gexf.body.match(/<attvalue for="pageRank"/g)?.length, ranking.vertices);

  // past the job threshold the same request is queued for the rank job and ends with the same results
  runtime.rankings.jobThresholds.crawlLinks = ranking.edges - 1;
  const queued = await app.inject({
    method: 'POST',
    url: `/v1/crawls/${status.id}/rank`,
    payload: { epsilon: 1e-10, topK: 5 },
  });
  assert.equal(queued.statusCode, 202, queued.body);
  assert.equal(queued.json().crawlId, status.id);
  const byJob = await waitForRanking(app, queued.headers.location as string);
  assert.equal(byJob.status, 'completed', JSON.stringify(byJob));
  assert.deepEqual({ ...byJob, id: ranking.id, createdAt: ranking.createdAt, links: ranking.links }, ranking);
  runtime.rankings.jobThresholds.crawlLinks = ranking.edges;

  const noBody = await app.inject({ method: 'POST', url: `/v1/crawls/${status.id}/rank` });
  assert.equal(noBody.statusCode, 201, noBody.body);
  assert.equal(noBody.json().damping, 0.85);
  const unknown = await app.inject({
    method: 'POST',
    url: '/v1/crawls/00000000-0000-4000-8000-000000000000/rank',
    payload: {},
  });
  assert.equal(unknown.statusCode, 404);
});

test('an edges file over the upload limit is a 413, counted while it streams', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  runtime.rankings.limits.maxUploadBytes = 64;
  const lines = ['100', ...Array.from({ length: 50 }, (_, i) => `v${i} v${i + 1}`)];
  const response = await app.inject({
    method: 'POST',
    url: '/v1/rankings',
    headers: { 'content-type': 'text/plain' },
    payload: `${lines.join('\n')}\n`,
  });
  assert.equal(response.statusCode, 413, response.body);
  assert.match(response.headers['content-type'] as string, /problem\+json/);
  assert.equal(response.json().maxBytes, 64);
  const small = await app.inject({
    method: 'POST',
    url: '/v1/rankings',
    headers: { 'content-type': 'text/plain' },
    payload: '2\nv0 v1\n',
  });
  assert.equal(small.statusCode, 201, small.body);
});

/** Polls GET `location` until the ranking completes or fails (or `timeoutMs` passes, which fails the test). */
test('a queued ranking shows its state, and its vertices are a 409 until it completes', async (t) => {
  const { app } = await build(t, { worker: false, env: { RANK_JOB_UPLOAD_BYTES: '0' } });
  const created = await app.inject({
    method: 'POST',
    url: '/v1/rankings',
    headers: { 'content-type': 'text/plain' },
    payload: '3\na b\nb c\n',
  });
  assert.equal(created.statusCode, 202, created.body);
  const read = await app.inject({ method: 'GET', url: created.headers.location as string });
  assert.equal(read.statusCode, 200);
  const state = read.json();
  assert.equal(state.status, 'queued');
  assert.equal(state.error, null);
  assert.equal(state.damping, 0.85);
  assert.equal(state.iterations, undefined, 'no results before the job ran');
  const vertices = await app.inject({ method: 'GET', url: `${created.headers.location}/vertices` });
  assert.equal(vertices.statusCode, 409, vertices.body);
  assert.equal(vertices.json().rankingStatus, 'queued');
});

test('an upload over the size limit is a 413 on the job path too, and leaves no ranking behind', async (t) => {
  const { app, runtime } = await build(t, {
    worker: false,
    env: {
      RANK_JOB_UPLOAD_BYTES: '100',
      RANK_MAX_UPLOAD_BYTES: '4096',
      RANK_MAX_VERTICES: '1000',
      RANK_MAX_EDGES: '5000',
    },
  });
  assert.deepEqual(
    [
      runtime.rankings.limits.maxUploadBytes,
      runtime.rankings.limits.maxVertices,
      runtime.rankings.limits.maxEdges,
    ],
    [4096, 1000, 5000],
    'RANK_MAX_* reach the service',
  );
  const response = await app.inject({
    method: 'POST',
    url: '/v1/rankings',
    headers: { 'content-type': 'text/plain' },
    payload: streamed(ringFile()),
  });
  assert.equal(response.statusCode, 413, response.body);
  assert.equal(response.json().maxBytes, 4096);
  const rows = await runtime.db.pool.query('SELECT count(*)::int AS n FROM rankings');
  assert.equal(rows.rows[0].n, 0);
});

type TopLists = Record<string, Array<{ vertex: string } & Record<string, number | string>>>;

/** Top-k lists with every number to 12 significant digits, re-sorted by (value desc, vertex) per list. */
function roundedTop(top: TopLists): Record<string, Array<Record<string, number | string>>> {
  const rounded: Record<string, Array<Record<string, number | string>>> = {};
  for (const [measure, entries] of Object.entries(top)) {
    const rows = entries.map((entry) =>
      Object.fromEntries(
        Object.entries(entry).map(([key, value]) => [
          key,
          typeof value === 'number' ? Number(value.toPrecision(12)) : value,
        ]),
      ),
    );
    const measured = (row: Record<string, number | string>) =>
      Number(Object.entries(row).find(([key]) => key !== 'vertex')?.[1] ?? 0);
    rows.sort((a, b) => measured(b) - measured(a) || String(a.vertex).localeCompare(String(b.vertex)));
    rounded[measure] = rows;
  }
  return rounded;
}

test("GET /v1/rankings lists the caller's rankings newest first, paginated, and no other key's", async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const a = await runtime.keys.create({ name: 'a' });
  const b = await runtime.keys.create({ name: 'b' });
  const as = (key: string) => ({ authorization: `Bearer ${key}` });
  const made: string[] = [];
  for (let i = 0; i < 3; i++) {
    const created = await app.inject({
      method: 'POST',
      url: '/v1/rankings',
      headers: as(a.key),
      payload: { edges: EDGES.slice(0, 2 + (i % 2)) },
    });
    assert.equal(created.statusCode, 201, created.body);
    made.push(created.json().id);
  }
  await app.inject({ method: 'POST', url: '/v1/rankings', headers: as(b.key), payload: { edges: EDGES } });

  const first = await app.inject({ method: 'GET', url: '/v1/rankings?limit=2', headers: as(a.key) });
  assert.equal(first.statusCode, 200, first.body);
  const page = first.json();
  assert.equal(page.items.length, 2);
  const second = (await app.inject({ method: 'GET', url: page.next, headers: as(a.key) })).json();
  const listed = [...page.items, ...second.items];
  assert.deepEqual(
    listed.map((item: { id: string }) => item.id),
    [...made].reverse(),
    'newest first, every one once',
  );
  assert.equal(second.next, null);
  const newest = listed[0];
  assert.equal(newest.status, 'completed');
  assert.equal(newest.vertices, 3);
  assert.equal(newest.edges, 2 + (2 % 2));
  assert.equal(newest.crawlId, null);
  assert.equal(newest.links.self, `/v1/rankings/${made[2]}`);

  const other = (await app.inject({ method: 'GET', url: '/v1/rankings', headers: as(b.key) })).json();
  assert.equal(other.items.length, 1);
  const badCursor = await app.inject({ method: 'GET', url: '/v1/rankings?cursor=nope', headers: as(a.key) });
  assert.equal(badCursor.statusCode, 400);
  assert.equal(badCursor.json().field, 'cursor');
});

/**
 * Ranks a small graph on the app's CPU thread until one is up: a thread takes a second or more to start, and
 * until then a short deadline can pass waiting for it (503).
 */
async function warmCpuThread(app: FastifyInstance): Promise<void> {
  // 100 vertices and edges times 1,000 iterations: too much work to run inline
  const ring = `100\n${Array.from({ length: 100 }, (_, u) => `r${u} r${(u + 1) % 100}`).join('\n')}\n`;
  await eventually(
    async () => {
      const warm = await app.inject({
        method: 'POST',
        url: '/v1/rankings',
        headers: { 'content-type': 'text/plain' },
        payload: ring,
      });
      assert.equal(warm.statusCode, 201, warm.body);
      return true;
    },
    { message: 'a CPU thread is up', timeoutMs: 60_000 },
  );
}

/** hub ⇄ `leaves` leaves: with damping 1 the ranks swing between hub and leaves and never converge. */
function starFile(leaves: number): string {
  const lines = [String(leaves + 1)];
  for (let leaf = 0; leaf < leaves; leaf++) lines.push(`hub leaf${leaf}`, `leaf${leaf} hub`);
  return `${lines.join('\n')}\n`;
}

test('a ranking that never converges is stopped at its deadline, in the request and in the job, and the API answers meanwhile', async (t) => {
  const { app } = await build(t, {
    env: { CPU_TASK_TIMEOUT_MS: '3000', RANK_JOB_TIMEOUT_MS: '3000', RANK_JOB_UPLOAD_BYTES: '600000' },
  });
  // 100,000 iterations over 40,000 or 50,000 edges: most of a minute of PageRank
  const url = '/v1/rankings?damping=1&maxIterations=100000';
  const inRequest = starFile(20_000);
  const inJob = starFile(25_000);
  assert.ok(inRequest.length < 600_000 && inJob.length > 600_000);

  await warmCpuThread(app);
  let slowestHealthMs = 0;
  let ranking = true;
  const probes = (async () => {
    while (ranking) {
      const started = performance.now();
      assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
      slowestHealthMs = Math.max(slowestHealthMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const rejected = await app
    .inject({ method: 'POST', url, headers: { 'content-type': 'text/plain' }, payload: inRequest })
    .finally(() => {
      ranking = false;
    });
  await probes;
  assert.equal(rejected.statusCode, 422, rejected.body);
  assert.equal(rejected.json().field, 'maxIterations');
  assert.ok(slowestHealthMs < 1500, `/healthz waited ${slowestHealthMs.toFixed(0)} ms while PageRank ran`);

  // the thread past its deadline was stopped: the job's PageRank waits for its successor
  await warmCpuThread(app);
  const queued = await app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'text/plain' },
    payload: streamed(inJob, 64 * 1024),
  });
  assert.equal(queued.statusCode, 202, queued.body);
  const ended = await waitForRanking(app, queued.headers.location as string, 60_000);
  assert.equal(ended.status, 'failed', JSON.stringify(ended));
  const error = ended.error as Record<string, unknown>;
  assert.equal(error.code, 'unprocessable', JSON.stringify(ended));
  assert.equal(error.field, 'maxIterations');
});

test('a graph whose every figure cannot be searched in time still completes, its average over a sample', async (t) => {
  const { app } = await build(t, {
    env: { CPU_TASK_TIMEOUT_MS: '3000', RANK_JOB_TIMEOUT_MS: '3000', RANK_JOB_UPLOAD_BYTES: '100000' },
  });
  // a chain: a search from every source would visit about N²/2 = 1.25 billion edges, past the work budget
  // (and, on this machine, the deadline); its diameters close from the bounds alone
  const n = 50_000;
  const lines = [String(n)];
  for (let v = 0; v + 1 < n; v++) lines.push(`v${v} v${v + 1}`);
  await warmCpuThread(app);
  const queued = await app.inject({
    method: 'POST',
    url: '/v1/rankings',
    headers: { 'content-type': 'text/plain' },
    payload: streamed(`${lines.join('\n')}\n`, 64 * 1024),
  });
  assert.equal(queued.statusCode, 202, queued.body);
  const ended = await waitForRanking(app, queued.headers.location as string, 60_000);
  assert.equal(ended.status, 'completed', JSON.stringify(ended));
  const { diameter, components } = (ended as unknown as { graph: GraphFigures }).graph;
  assert.equal(components.strong.count, n);
  assert.deepEqual(diameter.bounds, {
    directed: { lower: n - 1, upper: n - 1 },
    undirected: { lower: n - 1, upper: n - 1 },
  });
  assert.equal(diameter.exact, false);
  assert.ok(diameter.averageShortestPathSources < n);
});
