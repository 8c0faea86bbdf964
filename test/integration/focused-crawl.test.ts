// Focused crawls end to end on a small hand-made web: tennis pages link mostly to tennis pages, cooking pages
// to cooking pages, and the seed offers one tennis link among many cooking links. A best-first crawl that
// scores pages for "tennis" must find more tennis pages than BFS with the same budget, stop at maxResults,
// and a topic crawl must keep its graph to maxPages discovered pages.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { build, buildShared, crawlToEnd } from '../helper.js';

function page(title: string, body: string, links: Array<[string, string]>): string {
  const anchors = links.map(([href, text]) => `<p>More: <a href="${href}">${text}</a></p>`).join('\n');
  return `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${body}</p>${anchors}</body></html>`;
}

const PAGES = new Map<string, string>();
PAGES.set(
  '/',
  page('Sports and food', 'A portal about many things.', [
    ['/cooking/1', 'Soup recipes'],
    ['/cooking/2', 'Bread recipes'],
    ['/cooking/3', 'Cake recipes'],
    ['/cooking/4', 'Pasta recipes'],
    ['/tennis/1', 'Tennis at Wimbledon'],
  ]),
);
for (let i = 1; i <= 12; i++) {
  PAGES.set(
    `/tennis/${i}`,
    page(
      `Tennis ${i}`,
      'Tennis players serve and volley at the grand slam; tennis rackets and tennis balls.',
      [
        [`/tennis/${i + 1}`, `Tennis match ${i + 1}`],
        [`/tennis/${i + 2}`, `Tennis final ${i + 2}`],
        [`/cooking/${i + 4}`, 'A recipe'],
      ],
    ),
  );
  PAGES.set(
    `/cooking/${i}`,
    page(`Cooking ${i}`, 'Simmer the onions, knead the dough, bake the bread in the oven.', [
      [`/cooking/${i + 1}`, 'Next recipe'],
      [`/cooking/${i + 5}`, 'Another recipe'],
    ]),
  );
}

let server: Server;
let origin: string;
before(async () => {
  server = createServer((req, res) => {
    const body = req.url === '/robots.txt' ? 'User-agent: *\nAllow: /\n' : PAGES.get(req.url ?? '');
    if (body === undefined) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': req.url === '/robots.txt' ? 'text/plain' : 'text/html' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function crawl(app: FastifyInstance, extra: Record<string, unknown>) {
  const status = await crawlToEnd(app, {
    seeds: [`${origin}/`],
    politeness: { delayMs: 0 },
    concurrency: 1,
    workers: 1,
    ...extra,
  });
  return status as unknown as Record<string, unknown> & { id: string; pagesFetched: number };
}

const relevance = { query: 'tennis', threshold: 0.5 };

// each test reads only its own crawls, by id: one app (and worker) serves them all
const shared = buildShared();

test('best-first finds more relevant pages than BFS with the same budget', async () => {
  const { app } = shared;
  const bfs = await crawl(app, { maxPages: 8, relevance });
  const focused = await crawl(app, { maxPages: 8, relevance, strategy: 'best-first' });
  assert.equal(bfs.pagesFetched, 8);
  assert.equal(focused.pagesFetched, 8);
  assert.equal(bfs.strategy, 'bfs');
  assert.equal(focused.strategy, 'best-first');
  assert.ok(
    (focused.harvestRate as number) > (bfs.harvestRate as number),
    `best-first ${focused.harvestRate} vs bfs ${bfs.harvestRate}`,
  );
  // BFS takes the seed (it names tennis in an anchor) and its five links: one tennis page among them;
  // best-first follows the tennis pages' links
  assert.equal(bfs.relevantPages, 2);
  // seed, its five links at the seed's weight, then the tennis page's links at weight 1: 4 relevant
  assert.ok((focused.relevantPages as number) >= 4, `relevant ${focused.relevantPages}`);
  assert.deepEqual(focused.scoring, { scorer: 'keyword', threshold: 0.5, corpus: null });

  // each page shows the weight it was queued with: best-first, the score of the page that found it first
  const all = (await app.inject({ method: 'GET', url: `/v1/crawls/${focused.id}/pages?limit=1000` })).json()
    .items as Array<{ id: number; score: number | null; priority: number; discoveredFrom: number | null }>;
  const scoreOf = new Map(all.map((page) => [page.id, page.score]));
  const found = all.filter((page) => page.discoveredFrom !== null);
  assert.ok(found.length > 5);
  for (const page of found) assert.equal(page.priority, scoreOf.get(page.discoveredFrom!), `page ${page.id}`);
  // and the Document the scorers read: title and visible text as words, links absolute and canonical
  const seedPage = all.find((page) => page.discoveredFrom === null)!;
  const detail = (
    await app.inject({ method: 'GET', url: `/v1/crawls/${focused.id}/pages/${seedPage.id}?include=model` })
  ).json();
  assert.equal(detail.html, undefined, 'the body only when asked');
  assert.equal(detail.model.url, `${origin}/`);
  assert.equal(detail.model.title, detail.title);
  assert.ok(detail.model.words.length > 0 && detail.model.words.every((w: string) => /^\p{L}+$/u.test(w)));
  assert.ok(detail.model.outwardLinks.length >= 5);
  assert.ok(detail.model.outwardLinks.every((url: string) => url.startsWith(`${origin}/`)));
  assert.equal(new Set(detail.model.outwardLinks).size, detail.model.outwardLinks.length);
  // the main content as Markdown, links absolute
  const markdown = (
    await app.inject({
      method: 'GET',
      url: `/v1/crawls/${focused.id}/pages/${seedPage.id}?include=markdown,model`,
    })
  ).json();
  assert.equal(typeof markdown.markdown, 'string');
  assert.ok(markdown.markdown.length > 0);
  for (const [, url] of markdown.markdown.matchAll(/\]\(([^)]*)\)/g)) assert.match(url, /^<?https?:\/\//);
  assert.deepEqual(markdown.model, detail.model);
  const plain = (await app.inject({ method: 'GET', url: `/v1/crawls/${bfs.id}/pages?limit=1000` })).json();
  assert.ok(
    plain.items.every((page: { priority: number }) => page.priority === 0),
    'bfs queues all at 0',
  );

  // pages carry their score and can be listed best first
  const sorted = (
    await app.inject({ method: 'GET', url: `/v1/crawls/${focused.id}/pages?type=HTML&sort=-score&limit=3` })
  ).json();
  assert.equal(sorted.items.length, 3);
  assert.ok(sorted.items.every((p: { score: number }) => p.score === 1));
  const rest: Array<{ score: number; id: number }> = [];
  let next: string | null = sorted.next;
  while (next) {
    const body = (await app.inject({ method: 'GET', url: next })).json();
    rest.push(...body.items);
    next = body.next;
  }
  const scores = [...sorted.items, ...rest].map((p: { score: number }) => p.score);
  assert.deepEqual(
    scores,
    [...scores].sort((a, b) => b - a),
    'sorted by score, best first, across pages of results',
  );
  // every HTML page once: the cursor neither skips nor repeats a page among equal scores
  const listed = [...sorted.items, ...rest].map((p: { id: number }) => p.id);
  const html = (
    await app.inject({ method: 'GET', url: `/v1/crawls/${focused.id}/pages?type=HTML&limit=1000` })
  ).json();
  assert.deepEqual(
    [...listed].sort((a, b) => a - b),
    html.items.map((p: { id: number }) => p.id),
  );
  const ties = [...sorted.items, ...rest].filter((p: { score: number }) => p.score === 1);
  assert.deepEqual(
    ties.map((p: { id: number }) => p.id),
    ties.map((p: { id: number }) => p.id).sort((a: number, b: number) => a - b),
    'equal scores in id order',
  );
  const relevant = (
    await app.inject({ method: 'GET', url: `/v1/crawls/${focused.id}/pages?minScore=0.5&limit=100` })
  ).json();
  assert.equal(relevant.items.length, focused.relevantPages);
});

test('a page scores the same in a crawl and through POST /v1/score', async () => {
  const { app } = shared;
  const status = await crawl(app, { maxPages: 6, relevance: { query: 'tennis (wimbledon racket)' } });
  const pages = (await app.inject({ method: 'GET', url: `/v1/crawls/${status.id}/pages?type=HTML` })).json();
  const scored = await app.inject({
    method: 'POST',
    url: '/v1/score',
    payload: {
      query: 'tennis (wimbledon racket)',
      documents: pages.items.map((p: { url: string }) => ({ url: p.url })),
    },
  });
  assert.equal(scored.statusCode, 200, scored.body);
  const byIndex = new Map(
    scored.json().results.map((r: { index: number; score: number }) => [r.index, r.score]),
  );
  pages.items.forEach((page: { url: string; score: number }, index: number) => {
    assert.equal(byIndex.get(index), page.score, page.url);
  });
  assert.ok(
    pages.items.some((p: { score: number }) => p.score > 0) &&
      pages.items.some((p: { score: number }) => p.score < 1),
  );
});

test('a focused crawl stops at maxResults relevant pages', async () => {
  const { app } = shared;
  const status = await crawl(app, { maxPages: 50, maxResults: 3, relevance, strategy: 'best-first' });
  assert.equal(status.relevantPages, 3);
  assert.ok(status.pagesFetched < 50);
});

test('TF-IDF best-first with a similarity set given as documents', async () => {
  const { app } = shared;
  const status = await crawl(app, {
    maxPages: 8,
    strategy: 'best-first',
    relevance: {
      similarTo: { documents: [{ text: 'tennis players serve at the grand slam with rackets and balls' }] },
      threshold: 0.2,
    },
  });
  assert.equal((status.scoring as { scorer: string }).scorer, 'tfidf');
  assert.match(String((status.scoring as { corpus: string }).corpus), /similarity set/);
  assert.ok((status.relevantPages as number) >= 3, `relevant ${status.relevantPages}`);
  const pages = (
    await app.inject({ method: 'GET', url: `/v1/crawls/${status.id}/pages?type=HTML&limit=100` })
  ).json();
  const mean = (part: string) => {
    const scores = pages.items
      .filter((p: { url: string }) => p.url.includes(part))
      .map((p: { score: number }) => p.score);
    return scores.reduce((a: number, b: number) => a + b, 0) / scores.length;
  };
  assert.ok(
    mean('/tennis/') > mean('/cooking/'),
    `tennis ${mean('/tennis/')} vs cooking ${mean('/cooking/')}`,
  );
});

test("the reference's topic crawl (cap discovered) keeps its graph to the first maxPages discovered pages", async () => {
  const { app } = shared;
  const status = await crawl(app, {
    maxPages: 10,
    strategy: 'topic',
    topics: ['tennis'],
    topic: { mainTextStartsAtFirstParagraph: false, cap: 'discovered' },
  });
  const counts = status.counts as Record<string, number>;
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  assert.equal(total, 10, 'exactly maxPages pages discovered');
  assert.equal(counts.FRONTIER, 0, 'all of them fetched');
  const graph = (
    await app.inject({ method: 'GET', url: `/v1/crawls/${status.id}/graph?format=json` })
  ).json();
  assert.ok(graph.vertices.length <= 10);
  const pairs = new Set(graph.edges.map((e: number[]) => `${e[0]}>${e[1]}`));
  assert.equal(pairs.size, graph.edges.length, 'no duplicate edges');
  assert.ok(
    graph.edges.every((e: number[]) => e[0] !== e[1]),
    'no self-loops',
  );
  // links near "tennis" weigh more, so the tennis pages come in before the seed's cooking links are used up
  const pages = (await app.inject({ method: 'GET', url: `/v1/crawls/${status.id}/pages?limit=100` })).json();
  const tennis = pages.items.filter((p: { url: string }) => p.url.includes('/tennis/')).length;
  assert.ok(tennis >= 4, `${tennis} tennis pages among the first 10`);
});

test('a topic crawl capped by pages fetched (the default) fetches maxPages, discovers on, graphs the fetched', async () => {
  const { app } = shared;
  const status = await crawl(app, {
    maxPages: 10,
    strategy: 'topic',
    topics: ['tennis'],
    topic: { mainTextStartsAtFirstParagraph: false },
  });
  assert.equal(status.request && (status.request as { topic: { cap: string } }).topic.cap, 'fetched');
  assert.equal(status.pagesFetched, 10, 'maxPages caps what is fetched');
  const counts = status.counts as Record<string, number>;
  assert.ok(counts.FRONTIER! > 0, 'discovery went on past maxPages');
  const graph = (
    await app.inject({ method: 'GET', url: `/v1/crawls/${status.id}/graph?format=json` })
  ).json();
  const pages = (await app.inject({ method: 'GET', url: `/v1/crawls/${status.id}/pages?limit=1000` })).json();
  const fetched = new Set(
    pages.items.filter((p: { type: string }) => p.type !== 'FRONTIER').map((p: { id: number }) => p.id),
  );
  assert.ok(graph.vertices.length > 0);
  assert.ok(
    graph.vertices.every((v: { id: number }) => fetched.has(v.id)),
    'only fetched pages are vertices',
  );
  assert.ok(graph.edges.every((e: number[]) => fetched.has(e[0]) && fetched.has(e[1])));
  // the link weights chose what was fetched: the tennis pages
  const tennis = pages.items.filter(
    (p: { url: string; type: string }) => p.type !== 'FRONTIER' && p.url.includes('/tennis/'),
  ).length;
  assert.ok(tennis >= 4, `${tennis} tennis pages among the 10 fetched`);
});

test('focused-crawl requests are validated with the field named', async (t) => {
  const { app } = await build(t, { worker: false });
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ strategy: 'best-first' }, 'relevance'],
    [{ relevance: { query: 'tennis (wimbledon' } }, 'relevance.query'],
    [{ relevance: { query: 'a', similarTo: { documents: [{ text: 'x' }] } } }, 'relevance.similarTo'],
    [{ maxResults: 3 }, 'maxResults'],
    [{ strategy: 'sideways' }, 'strategy'],
    [{ relevance: { similarTo: { documents: [{}] } } }, 'relevance.similarTo.documents[0]'],
    [
      {
        strategy: 'topic',
        topic: { cap: 'discovered' },
        maxPages: 1,
        seeds: ['https://example.org/a', 'https://example.org/b'],
      },
      'seeds',
    ],
    [{ strategy: 'topic', topic: { cap: 'visited' } }, 'topic.cap'],
  ];
  for (const [extra, field] of cases) {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/crawls',
      payload: { seeds: ['https://example.org/'], ...extra },
    });
    assert.equal(response.statusCode, 400, `${JSON.stringify(extra)} → ${response.body}`);
    assert.equal(response.json().field, field, response.body);
  }
  const malformed = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: { seeds: ['https://example.org/'], relevance: { query: 'tennis (wimbledon' } },
  });
  assert.equal(typeof malformed.json().position, 'number');
});
