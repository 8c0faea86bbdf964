import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseHtml } from '../../../src/crawler/parse/parse-html.js';
import { topicLinkWeights, topicLinkWeightsFromHtml } from '../../../src/crawler/score/topic-weights.js';

const PAGE = 'https://ex.com/wiki/Page';
const filler = (n: number) => Array.from({ length: n }, () => 'lorem').join(' ');
const weigh = (body: string, topics: string[], opts = {}) =>
  topicLinkWeights(parseHtml(body, PAGE), topics, opts);
const only = (body: string, topics: string[], opts = {}) => {
  const weights = weigh(body, topics, opts);
  assert.equal(weights.length, 1, JSON.stringify(weights));
  return weights[0]!;
};

test('d = 0: the topic word is adjacent, before or after the link', () => {
  assert.deepEqual(only('<p>lorem tennis <a href="/a">link</a> lorem</p>', ['tennis']), {
    url: 'https://ex.com/a',
    weight: 1 / 2,
    distanceWords: 0,
    reason: 'distance',
  });
  assert.deepEqual(only('<p>lorem <a href="/a">link text</a> tennis</p>', ['tennis']).weight, 1 / 2);
});

test('d counts the words strictly between: 1, 20 (last weighted) and 21 (weight 0)', () => {
  assert.deepEqual(only(`<p>tennis ${filler(1)} <a href="/a">link</a></p>`, ['tennis']), {
    url: 'https://ex.com/a',
    weight: 1 / 3,
    distanceWords: 1,
    reason: 'distance',
  });
  const d20 = only(`<p><a href="/a">two words</a> ${filler(20)} tennis</p>`, ['tennis']);
  assert.deepEqual([d20.weight, d20.distanceWords, d20.reason], [1 / 22, 20, 'distance']);
  const d21 = only(`<p>tennis ${filler(21)} <a href="/a">link</a></p>`, ['tennis']);
  assert.deepEqual([d21.weight, d21.distanceWords, d21.reason], [0, 21, 'far']);
  const none = only('<p>lorem <a href="/a">link</a></p>', ['tennis']);
  assert.deepEqual([none.weight, none.distanceWords, none.reason], [0, null, 'far']);
});

test('the nearest occurrence wins, before or after; stop words count as words', () => {
  const w = only(`<p>tennis ${filler(5)} <a href="/a">link</a> the of and tennis ${filler(3)} tennis</p>`, [
    'tennis',
  ]);
  assert.deepEqual([w.weight, w.distanceWords], [1 / 5, 3]);
  const maxed = only(`<p>tennis ${filler(4)} <a href="/a">link</a></p>`, ['tennis'], { maxDistanceWords: 3 });
  assert.deepEqual([maxed.weight, maxed.reason], [0, 'far']);
});

test('anchor text containing a topic (whole words, any case) weighs 1', () => {
  assert.deepEqual(only('<p><a href="/a">Table TENNIS rules</a></p>', ['tennis']), {
    url: 'https://ex.com/a',
    weight: 1,
    distanceWords: null,
    reason: 'anchor',
  });
  assert.equal(only('<p><a href="/a">Tennisball</a></p>', ['tennis']).reason, 'far');
  assert.equal(
    only('<p><a href="/a"><img src="t.png" alt="Tennis logo"></a></p>', ['tennis']).reason,
    'anchor',
  );
});

test('a URL containing a topic weighs 1; _ - + %20 separate words in URLs', () => {
  const urls = [
    '/wiki/Table_tennis',
    '/wiki/Grand_Slam_(tennis)',
    '/grand-slam-winners',
    '/search?q=grand+slam',
    '/Grand%20Slam',
    'https://tennis.example.org/',
  ];
  for (const href of urls) {
    const w = only(`<p><a href="${href}">click here</a></p>`, ['grand slam', 'tennis']);
    assert.deepEqual([w.weight, w.reason], [1, 'url'], href);
  }
  assert.equal(only('<p><a href="/grandslam">click</a></p>', ['grand slam']).reason, 'far');
  assert.equal(only('<p><a href="/slam_grand">click</a></p>', ['grand slam']).reason, 'far');
  // the scheme is not a URL word
  assert.equal(only('<p><a href="https://ex.com/x">click</a></p>', ['https']).reason, 'far');
});

test('a multi-word topic is a phrase, in the text and in anchors', () => {
  assert.equal(only('<p><a href="/a">the Grand Slam titles</a></p>', ['grand slam']).reason, 'anchor');
  assert.equal(only('<p><a href="/a">grand titles slam</a></p>', ['grand slam']).reason, 'far');
  const near = only('<p>grand slam lorem <a href="/a">link</a></p>', ['Grand  Slam']);
  assert.deepEqual([near.weight, near.distanceWords], [1 / 3, 1]);
  // the phrase's end is what counts before the link, its start after it
  const after = only('<p><a href="/a">link</a> lorem lorem grand slam</p>', ['grand slam']);
  assert.deepEqual([after.weight, after.distanceWords], [1 / 4, 2]);
  const split = only('<p>grand lorem slam <a href="/a">link</a></p>', ['grand slam']);
  assert.deepEqual([split.weight, split.distanceWords], [0, null]);
  // a phrase running across the anchor boundary touches the link: d = 0
  const across = only('<p>grand <a href="/a">slam dunk</a></p>', ['grand slam']);
  assert.deepEqual([across.weight, across.distanceWords], [1 / 2, 0]);
});

test('no topics (or none with letters): every link weighs 0', () => {
  const body = '<p>tennis <a href="/a">tennis</a> <a href="/b">b</a></p>';
  for (const topics of [[], ['', '42']]) {
    assert.deepEqual(
      weigh(body, topics),
      ['https://ex.com/a', 'https://ex.com/b'].map((url) => ({
        url,
        weight: 0,
        distanceWords: null,
        reason: 'no-topics',
      })),
    );
  }
});

test('one entry per URL, weighted at its first occurrence, in document order', () => {
  const body = `<p><a href="/x">x</a> ${filler(30)} <a href="/y">y</a> <a href="/x#again">x again</a> tennis</p>`;
  assert.deepEqual(
    weigh(body, ['tennis']).map((w) => [w.url, w.weight]),
    [
      ['https://ex.com/x', 0],
      ['https://ex.com/y', 1 / 4],
    ],
  );
});

test('skipLinksWithHashOrColon drops links with "#" in the href or ":" in the path', () => {
  const body = `<p>tennis <a href="/wiki/File:Ball.jpg">f</a> <a href="#cite_note-1">c</a> <a href="/wiki/Other#History">h</a>
    <a href="/wiki/Special%3ARandom">s</a> <a href="/wiki/Ball?x=a:b">q</a></p>`;
  assert.deepEqual(
    weigh(body, ['tennis'], { skipLinksWithHashOrColon: true }).map((w) => w.url),
    ['https://ex.com/wiki/Ball?x=a:b'],
  );
  assert.equal(weigh(body, ['tennis']).length, 5);
});

test('main text starts at the first <p>: earlier links and topic words do not count', () => {
  const html = `<div>Tennis menu <a href="/nav">nav</a></div><p>lorem <a href="/in">in</a> lorem</p>`;
  const inMain = topicLinkWeightsFromHtml(html, PAGE, ['tennis']);
  assert.deepEqual(inMain, [{ url: 'https://ex.com/in', weight: 0, distanceWords: null, reason: 'far' }]);
  // the same from a page parsed with the option, or with the option given at weighting time
  const parsed = parseHtml(html, PAGE, { mainTextStartsAtFirstParagraph: true });
  assert.deepEqual(topicLinkWeights(parsed, ['tennis']), inMain);
  assert.deepEqual(
    topicLinkWeights(parseHtml(html, PAGE), ['tennis'], { mainTextStartsAtFirstParagraph: true }),
    inMain,
  );
  // without it the whole page is main text and "Tennis" counts: 1 word from /nav, 3 from /in
  assert.deepEqual(
    topicLinkWeights(parseHtml(html, PAGE), ['tennis']).map((w) => [w.url, w.weight]),
    [
      ['https://ex.com/nav', 1 / 3],
      ['https://ex.com/in', 1 / 5],
    ],
  );
  assert.deepEqual(topicLinkWeightsFromHtml('<div>tennis <a href="/a">a</a></div>', PAGE, ['tennis']), []);
});
