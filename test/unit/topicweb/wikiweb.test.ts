import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sharedDataPath, skipWithoutSharedData } from '../../support/shared-data.js';
import { buildWikiWeb, inSubject, startWikiWeb, wikiDataMissing } from '../../support/topicweb/index.js';

const DATA_DIR = sharedDataPath('wikispeedia/');
const skip = skipWithoutSharedData(['wikispeedia/'], wikiDataMissing(DATA_DIR));
const ORIGINS = ['http://127.0.0.2:1000', 'http://127.0.0.3:1000'];

/** links.tsv read here on its own: the targets of one article, as URL-encoded names. */
function linkTargets(article: string): string[] {
  return readFileSync(join(DATA_DIR, 'links.tsv'), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith(`${article}\t`))
    .map((line) => line.split('\t')[1]!);
}

test('the web holds every article and exactly the links of links.tsv', { skip }, () => {
  const model = buildWikiWeb(DATA_DIR, ORIGINS);
  assert.equal(model.pages.length, 4604);
  assert.equal(
    model.pages.reduce((sum, page) => sum + page.links.length, 0),
    119_882,
  );
  const physics = model.pages.find((page) => page.url === model.urlOf('Physics'))!;
  assert.deepEqual(
    physics.links.map((link) => link.url),
    linkTargets('Physics').map((target) => model.urlOf(target)),
  );
  // Articles are split over the hosts by first letter: A… on the first, Z… on the last.
  assert.ok(model.urlOf('Albert_Einstein').startsWith(ORIGINS[0]!));
  assert.ok(model.urlOf('Zinc').startsWith(ORIGINS[1]!));
});

test('relevance: a category at or below the subject', { skip }, () => {
  const model = buildWikiWeb(DATA_DIR, ORIGINS);
  const relevant = (article: string, subject: string) => {
    const page = model.pages.find((candidate) => candidate.url === model.urlOf(article))!;
    return model.matches(page.labels, subject);
  };
  assert.equal(relevant('Physics', 'subject.Science.Physics'), true);
  assert.equal(relevant('Black_hole', 'subject.Science.Physics'), true); // …Physics.Space_Astronomy
  assert.equal(relevant('Black_hole', 'subject.Science.Chemistry'), false);
  assert.equal(relevant('%C3%85land', 'subject.Countries'), true);
  assert.equal(relevant('%C3%85land', 'subject.Science'), false);
  assert.equal(inSubject('subject.Science.Physics', 'subject.Science.Phys'), false);
  const physics = model.articlesIn('subject.Science.Physics');
  assert.ok(physics.length > 200 && physics.length < 240, `${physics.length} physics articles`);
});

test('a served article: title, h1, text from the linked titles, anchors = linked titles', {
  skip,
}, async (t) => {
  const web = await startWikiWeb({ dataDir: DATA_DIR, hosts: 2 });
  t.after(() => web.close());
  const url = web.urlOf('Åland');
  assert.equal(url, web.urlOf('%C3%85land'));
  const html = await (await fetch(url)).text();
  assert.match(html, /<title>Åland<\/title>/);
  assert.match(html, /<h1>Åland<\/h1>/);
  const anchors = [...html.matchAll(/<a href="([^"]+)">([^<]*)<\/a>/g)];
  const targets = linkTargets('%C3%85land');
  assert.deepEqual(
    anchors.map((match) => match[2]),
    targets.map((target) => decodeURIComponent(target).replace(/_/g, ' ')),
  );
  const paragraph = /<p>([^<]*)<\/p>/.exec(html)?.[1] ?? '';
  for (const match of anchors) assert.ok(paragraph.includes(match[2]!), `text holds "${match[2]}"`);
  // The oracle knows a page by any spelling of its URL.
  assert.equal(web.isRelevant(url.replace('%C3%85', 'Å'), 'subject.Countries'), true);
  assert.equal(web.isRelevant(anchors[0]![1]!, 'subject.Science.Physics'), false);
});

test('a folder without the data files says what is missing', () => {
  const empty = mkdtempSync(join(tmpdir(), 'wiki-web-'));
  try {
    assert.match(wikiDataMissing(empty) ?? '', /articles\.tsv, links\.tsv, categories\.tsv missing/);
    assert.throws(() => buildWikiWeb(empty, ORIGINS), /not present/);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});
