import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isStopWord } from '../../../src/crawler/text/tokenize.js';
import { VOCABULARY } from '../../support/testweb/random.js';
import {
  buildTopicWeb,
  resolveTopicWebOptions,
  startTopicWeb,
  TOPIC_VOCABULARIES,
  type TopicWebModel,
} from '../../support/topicweb/index.js';

const ORIGINS = ['http://127.0.0.2:1000', 'http://127.0.0.3:1000', 'http://127.0.0.4:1000'];
const SMALL = { hosts: 3, pagesPerTopic: 60 };

function topicOf(model: TopicWebModel, url: string): string | undefined {
  return model.pages.find((page) => page.url === url)?.labels[0];
}

/** Every page rendered, origins replaced by host numbers so webs on two ports compare. */
function portableBodies(model: TopicWebModel, origins: readonly string[]): string {
  const strip = (text: string) =>
    origins.reduce((out, origin, index) => out.split(origin).join(`<host ${index}>`), text);
  return strip(model.pages.map((page) => `${page.url}\n${model.render(page)}`).join('\n'));
}

test('vocabularies: alphabetic, no stop words, no word in two topics or in the shared filler', () => {
  const seen = new Map<string, string>();
  for (const [topic, words] of Object.entries(TOPIC_VOCABULARIES)) {
    assert.equal(words[0], topic, `${topic}: the topic's own name comes first`);
    for (const word of words) {
      assert.match(word, /^[a-z]+$/, `${topic}: ${word}`);
      assert.equal(isStopWord(word), false, `${topic}: ${word} is a stop word`);
      assert.equal(VOCABULARY.includes(word), false, `${topic}: ${word} is also filler`);
      assert.equal(seen.get(word), undefined, `${word} in ${topic} and ${seen.get(word)}`);
      seen.set(word, topic);
    }
  }
});

test('same seed → the same web (up to the port); another seed → another web', () => {
  const options = resolveTopicWebOptions({ ...SMALL, seed: 7 });
  const other = ORIGINS.map((origin) => origin.replace(':1000', ':2000'));
  const a = portableBodies(buildTopicWeb(options, ORIGINS), ORIGINS);
  const b = portableBodies(buildTopicWeb(options, other), other);
  assert.equal(a, b);
  const c = portableBodies(buildTopicWeb(resolveTopicWebOptions({ ...SMALL, seed: 8 }), ORIGINS), ORIGINS);
  assert.notEqual(a, c);
});

test('links prefer the page’s own topic at about sameTopicShare, and every topic page is reachable from its hub', () => {
  const share = (sameTopicShare: number) => {
    const model = buildTopicWeb(resolveTopicWebOptions({ ...SMALL, seed: 3, sameTopicShare }), ORIGINS);
    let same = 0;
    let all = 0;
    for (const page of model.pages) {
      const topic = page.labels[0];
      if (topic === undefined) continue; // home pages
      for (const link of page.links) {
        all++;
        if (topicOf(model, link.url) === topic) same++;
      }
    }
    return { model, share: same / all };
  };
  // 1 chain link + 7 random ones at 0.8 → about 0.825 of all links.
  const { model, share: biased } = share(0.8);
  assert.ok(biased > 0.77 && biased < 0.88, `same-topic share ${biased}`);
  const { share: weak } = share(0.2);
  assert.ok(weak > 0.22 && weak < 0.4, `same-topic share ${weak} at sameTopicShare 0.2`);

  for (const topic of model.topics) {
    const reached = new Set([model.hubOf(topic)]);
    const queue = [model.hubOf(topic)];
    while (queue.length > 0) {
      const current = queue.shift();
      const page = model.pages.find((candidate) => candidate.url === current);
      for (const link of page?.links ?? []) {
        if (topicOf(model, link.url) === topic && !reached.has(link.url)) {
          reached.add(link.url);
          queue.push(link.url);
        }
      }
    }
    assert.equal(reached.size, SMALL.pagesPerTopic, `${topic}: pages reached from the hub`);
  }
});

test('a page’s text is mostly its own topic’s words, and neither the URL nor the markup names the label', () => {
  const model = buildTopicWeb(resolveTopicWebOptions({ ...SMALL, seed: 5 }), ORIGINS);
  const owner = new Map<string, string>();
  for (const topic of model.topics) for (const word of TOPIC_VOCABULARIES[topic]!) owner.set(word, topic);
  let dominant = 0;
  let labelled = 0;
  for (const page of model.pages) {
    const topic = page.labels[0];
    if (topic === undefined) continue;
    labelled++;
    const html = model.render(page);
    const text = html.replace(/<[^>]*>/g, ' ');
    const counts = new Map<string, number>();
    for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
      const of = owner.get(word);
      if (of !== undefined) counts.set(of, (counts.get(of) ?? 0) + 1);
    }
    const top = [...counts].sort((x, y) => y[1] - x[1])[0]?.[0];
    if (top === topic) dominant++;
    // Tags and attributes (hrefs included) never carry a topic word; the path is filler only.
    for (const tag of html.match(/<[^>]*>/g) ?? []) {
      for (const name of model.topics) assert.equal(tag.includes(name), false, `${tag} names ${name}`);
    }
    for (const word of new URL(page.url).pathname.match(/[a-z]+/g) ?? []) {
      assert.equal(owner.has(word), false, `${page.url} holds the topic word ${word}`);
    }
  }
  assert.ok(dominant / labelled > 0.95, `own topic dominant on ${dominant}/${labelled} pages`);
});

test('served pages match the model, and the oracle answers by topic whatever the URL spelling', async (t) => {
  const web = await startTopicWeb({ ...SMALL, seed: 9, pagesPerTopic: 12, hosts: 2 });
  t.after(() => web.close());
  const model = buildTopicWeb(
    resolveTopicWebOptions({ ...SMALL, seed: 9, pagesPerTopic: 12, hosts: 2 }),
    web.hosts,
  );
  const hub = web.hubOf('chess');
  const response = await fetch(hub);
  assert.equal(response.status, 200);
  const html = await response.text();
  const page = model.pages.find((candidate) => candidate.url === hub)!;
  assert.equal(html, model.render(page));
  const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((match) => match[1]!);
  assert.ok(hrefs.length > 8);
  for (const href of hrefs) assert.notEqual(web.page(href), undefined, `${href} is a page`);

  assert.equal(web.isRelevant(hub, 'chess'), true);
  assert.equal(web.isRelevant(hub, 'tennis'), false);
  assert.equal(web.isRelevant(`${hub}#moves`, 'chess'), true);
  assert.equal(web.isRelevant(hub.replace(/\.html$/, '.%68tml'), 'chess'), true);
  assert.equal(web.isRelevant(`${web.hosts[0]}/nowhere.html`, 'chess'), false);
  for (const home of web.homes) {
    for (const topic of web.topics) assert.equal(web.isRelevant(home, topic), false);
  }
  const chessPages = web.pages.filter((candidate) => web.isRelevant(candidate.url, 'chess'));
  assert.equal(chessPages.length, 12);
  assert.equal((await fetch(`${web.hosts[1]}/robots.txt`)).status, 200);
  assert.equal((await fetch(`${web.hosts[1]}/nowhere.html`)).status, 404);
  assert.equal(web.pageRequests(), 1);
});

test('options are checked', () => {
  assert.throws(
    () => resolveTopicWebOptions({ topics: ['tennis', 'knitting'] }),
    /no vocabulary for "knitting"/,
  );
  assert.throws(() => resolveTopicWebOptions({ topics: ['tennis'] }), /two topics/);
  assert.throws(() => resolveTopicWebOptions({ sameTopicShare: 1.5 }), /shares/);
});
