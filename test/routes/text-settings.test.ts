// TF-IDF's text settings through the API (docs/reference.md#document-model): stemming joins "cats" and "cat",
// stop-word settings are refused with a keyword query (they would do nothing there), and a stored corpus is
// used only with the settings it was built with — /v1/score and a crawl's relevance.corpus alike.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { build, eventually } from '../helper.js';

async function corpus(app: FastifyInstance, body: Record<string, unknown>): Promise<string> {
  const created = await app.inject({ method: 'POST', url: '/v1/corpora', payload: body });
  assert.equal(created.statusCode, 202, created.body);
  const id = created.json().id as string;
  await eventually(
    async () => {
      const status = (await app.inject({ method: 'GET', url: `/v1/corpora/${id}` })).json();
      if (status.status !== 'completed') throw new Error(`corpus ${status.status}`);
      return true;
    },
    { message: `corpus ${id} to complete`, timeoutMs: 60_000, intervalMs: 50 },
  );
  return id;
}

test('stem, stopWords and stored corpora through /v1/score, /v1/corpora and /v1/crawls', async (t) => {
  const { app } = await build(t);
  const score = (body: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/v1/score', payload: body });
  const cats = {
    similarTo: { documents: [{ text: 'cats purr' }] },
    documents: [{ text: 'a cat' }, { text: 'dogs bark' }],
  };

  // docs/guide.md's example (Corpora): without stemming "cats purr" and "a cat" share no term; with it they share "cat"
  const plain = await score(cats);
  assert.equal(plain.statusCode, 200, plain.body);
  assert.equal(plain.json().results[0].score, 0);
  const stemmed = await score({ ...cats, stem: true });
  assert.equal(stemmed.statusCode, 200, stemmed.body);
  assert.equal(stemmed.json().results[0].index, 0);
  assert.ok(stemmed.json().results[0].score > 0.3, stemmed.body);
  // stop words none: "the" is a term like any other
  const none = await score({
    similarTo: { documents: [{ text: 'the the the' }] },
    documents: [{ text: 'the end' }, { text: 'an end' }],
    stopWords: 'none',
  });
  assert.equal(none.json().results[0].index, 0);
  assert.ok(none.json().results[0].score > 0);

  const refused = await score({ query: 'cat', documents: [{ text: 'a cat' }], stem: true });
  assert.equal(refused.statusCode, 400);
  assert.equal(refused.json().field, 'stem');

  // a corpus built with stemming scores only requests that stem too
  const id = await corpus(app, {
    name: 'pets',
    documents: [{ text: 'cats purr' }, { text: 'a cat sleeps' }, { text: 'dogs bark' }],
    stem: true,
  });
  const status = (await app.inject({ method: 'GET', url: `/v1/corpora/${id}` })).json();
  assert.deepEqual(status.textSettings, { tokenizer: 'reference-v1', stopWords: 'default', stem: true });
  assert.deepEqual(
    status.topTerms.map((term: { term: string }) => term.term),
    ['cat', 'bark', 'dog', 'purr', 'sleep'],
  );
  const matching = await score({ ...cats, corpus: id, stem: true });
  assert.equal(matching.statusCode, 200, matching.body);
  const mismatch = await score({ ...cats, corpus: id });
  assert.equal(mismatch.statusCode, 409);
  assert.equal(mismatch.json().field, 'corpus');
  assert.match(mismatch.json().detail, /stem true ≠ false/);

  const crawl = (relevance: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: '/v1/crawls',
      payload: { seeds: ['http://crawl.invalid/'], strategy: 'best-first', relevance },
    });
  const queryWithStem = await crawl({ query: 'cat', stopWords: 'none' });
  assert.equal(queryWithStem.statusCode, 400);
  assert.equal(queryWithStem.json().field, 'relevance.stopWords');
  const crawlMismatch = await crawl({ similarTo: { documents: [{ text: 'cats purr' }] }, corpus: id });
  assert.equal(crawlMismatch.statusCode, 409);
  assert.equal(crawlMismatch.json().field, 'relevance.corpus');
  const crawlMatching = await crawl({
    similarTo: { documents: [{ text: 'cats purr' }] },
    corpus: id,
    stem: true,
  });
  assert.equal(crawlMatching.statusCode, 202, crawlMatching.body);
  await app.inject({ method: 'DELETE', url: `/v1/crawls/${crawlMatching.json().id}` });
});
