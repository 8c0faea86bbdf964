// GET /v1/crawls/:id/pages?include=text,markdown: a page of results with each page's main text and Markdown,
// the same as each page's own ?include= gives; bounded (limit ≤ 100 with include) and carried by the next link.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build, crawlToEnd } from '../helper.js';
import { eventually } from '../support/eventually.js';
import { crawlRequestFor, startTestWeb } from '../support/testweb/index.js';

interface Item {
  id: number;
  type: string;
  text?: string | null;
  markdown?: string | null;
}

test('a page of results with its text and Markdown', { timeout: 240_000 }, async (t) => {
  const web = await startTestWeb({ seed: 41, hosts: 1, pagesPerHost: 12, crawlDelaySeconds: 0 });
  t.after(() => web.close());
  const { app } = await build(t);
  const { id } = await crawlToEnd(app, crawlRequestFor(web, { maxPages: 20 }), { timeoutMs: 180_000 });

  // the crawl-text job runs once the crawl has finished: wait until it has stored every page's text
  const first = await eventually(
    async () => {
      const list = await app.inject({
        method: 'GET',
        url: `/v1/crawls/${id}/pages?include=text,markdown&limit=5`,
      });
      assert.equal(list.statusCode, 200);
      const body = list.json() as { items: Item[]; next: string | null };
      assert.ok(
        body.items.filter((page) => page.type === 'HTML').every((page) => typeof page.text === 'string'),
      );
      return body;
    },
    { timeoutMs: 60_000, message: "the crawl-text job stored every page's text" },
  );
  assert.equal(first.items.length, 5);
  assert.match(first.next!, /include=text%2Cmarkdown|include=text,markdown/);
  const all: Item[] = [...first.items];
  for (let next = first.next; next; ) {
    const body = (await app.inject({ method: 'GET', url: next })).json() as {
      items: Item[];
      next: string | null;
    };
    all.push(...body.items);
    next = body.next;
  }
  const html = all.filter((page) => page.type === 'HTML');
  assert.ok(html.length >= 5, `${html.length} HTML pages`);
  for (const page of all) {
    const detail = (
      await app.inject({ method: 'GET', url: `/v1/crawls/${id}/pages/${page.id}?include=text,markdown` })
    ).json();
    assert.equal(page.text, detail.text, `text of page ${page.id}`);
    assert.equal(page.markdown, detail.markdown, `markdown of page ${page.id}`);
    if (page.type === 'HTML') assert.ok((page.markdown ?? '').length > 0);
    else assert.equal(page.markdown, null);
  }

  // without include, no such fields; with it, at most 100 pages; unknown parts refused
  const plain = (await app.inject({ method: 'GET', url: `/v1/crawls/${id}/pages?limit=2` })).json();
  assert.equal('text' in plain.items[0], false);
  const tooMany = await app.inject({ method: 'GET', url: `/v1/crawls/${id}/pages?include=text&limit=101` });
  assert.equal(tooMany.statusCode, 400);
  assert.equal(tooMany.json().field, 'limit');
  const unknown = await app.inject({ method: 'GET', url: `/v1/crawls/${id}/pages?include=html` });
  assert.equal(unknown.statusCode, 400);
  assert.equal(unknown.json().field, 'include');
});
