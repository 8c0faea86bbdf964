// Worked examples of each signal of the `auto` extraction method: every page below is built so that the signal
// decides the outcome, and the same page with that one signal turned off comes out differently.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AUTO_SIGNALS, type AutoSignal } from '../../../src/crawler/extract/auto.js';
import { extractMainContent } from '../../../src/crawler/extract/index.js';

function auto(html: string, without?: AutoSignal) {
  const autoSignals = without === undefined ? undefined : AUTO_SIGNALS.filter((s) => s !== without);
  return extractMainContent(html, { method: 'auto', autoSignals });
}

/** A prose paragraph of about 200 characters with two commas and a full stop. */
function prose(topic: string, n: number): string {
  return (
    `<p>Paragraph ${n} about ${topic} tells a long story, with details that matter to the reader, and it ` +
    `goes on for a while so that it reads like the body of an article about ${topic} written by a person.</p>`
  );
}

function proseBlock(topic: string, count: number): string {
  return Array.from({ length: count }, (_, i) => prose(topic, i)).join('\n');
}

const NAV = `<nav><ul>${['Home', 'World', 'Sport', 'Culture'].map((s) => `<li><a href="/${s}">${s}</a></li>`).join('')}</ul></nav>`;

test('the headline is the title, not main text; section headings inside the article stay', () => {
  const page = `<html><head><title>Rivers of the north | Daily Planet</title></head><body>${NAV}
    <div class="story"><h1>Rivers of the north</h1>${proseBlock('rivers', 3)}
    <h2>Salmon runs</h2>${proseBlock('salmon', 2)}</div></body></html>`;
  const result = auto(page);
  assert.equal(result.title, 'Rivers of the north');
  assert.doesNotMatch(result.text, /Rivers of the north/);
  assert.match(result.text, /\n\nSalmon runs\n\n/);
  assert.match(result.text, /^Paragraph 0 about rivers/);
  assert.doesNotMatch(result.text, /Home|World|Sport/);
  // A <title> that is only "Site – Post": the site's part is not the title; the heading above the text is.
  const blog = `<html><head><title>Joy the Cook – Onion frittata</title></head><body><h1>Joy the Cook</h1>
    <div class="post"><h2>Onion frittata</h2>${proseBlock('eggs', 3)}</div></body></html>`;
  assert.equal(auto(blog).title, 'Onion frittata');
});

test('link density: a block of links beside the article is not main text, and does not win', () => {
  const links = Array.from(
    { length: 8 },
    (_, i) => `<p><a href="/s${i}">Another story, number ${i}, with a long linked headline to read</a>.</p>`,
  ).join('');
  const page = `<body><div id="a">${proseBlock('glaciers', 2)}</div><div id="b">${links}</div></body>`;
  const { text } = auto(page);
  assert.match(text, /glaciers/);
  assert.doesNotMatch(text, /Another story/);
  // Without link density, eight comma-rich link paragraphs outscore two prose paragraphs.
  assert.match(auto(page, 'link-density').text, /Another story/);
});

test('semantic containers: aside, footer, nav and ARIA landmarks are out even when they hold prose', () => {
  const page = `<body><main>${proseBlock('volcanoes', 3)}</main>
    <aside>${prose('advertising', 0)}</aside><div role="complementary">${prose('newsletters', 0)}</div>
    <footer>${prose('copyright', 0)}</footer></body>`;
  const { text } = auto(page);
  assert.match(text, /volcanoes/);
  assert.doesNotMatch(text, /advertising|newsletters|copyright/);
  // The three sit beside the article in <body>; without the signal the body with all of them is the best block.
  assert.match(auto(page, 'semantic-containers').text, /advertising/);
});

test('boilerplate names drop related stories and comments; an article whose wrapper has such a name survives', () => {
  const page = `<body><div class="article">${proseBlock('deserts', 3)}
    <div class="related-stories">${proseBlock('elsewhere', 2)}</div>
    <div class="comments-content">${proseBlock('opinions', 2)}</div></div></body>`;
  const { text } = auto(page);
  assert.match(text, /deserts/);
  assert.doesNotMatch(text, /elsewhere|opinions/);
  assert.match(auto(page, 'class-names').text, /elsewhere/);
  // Readability's fallback: the only article on the page sits in a boilerplate-named wrapper ("extra"); the first
  // reading loses it (under 500 characters left), the second reading without the name rules keeps it.
  const fallback = `<body><div class="extra-wide">${proseBlock('tundra', 4)}</div></body>`;
  assert.match(auto(fallback).text, /^Paragraph 0 about tundra/);
});

/**
 * Two blocks far apart in the tree (each two levels down its own <section>), so that neither is merged into the
 * other as a sibling of the same article: which one is kept shows which one the scoring chose.
 */
function apart(first: string, second: string, secondAttributes = ''): string {
  return `<body><section><div><div class="x">${first}</div></div></section>
    <section><div><div class="x" ${secondAttributes}>${second}</div></div></section></body>`;
}

test('schema.org articleBody: microdata marks the article, JSON-LD names its text', () => {
  const forests = proseBlock('forests', 3);
  const oceans = proseBlock('oceans', 2);
  // By paragraphs alone the forests block (3 paragraphs) beats the oceans block (2).
  assert.match(
    auto(apart(forests, oceans)).text,
    /^Paragraph 0 about forests[\s\S]*forests written by a person\.$/,
  );
  const microdata = apart(forests, oceans, 'itemprop="articleBody"');
  assert.match(auto(microdata).text, /^Paragraph 0 about oceans[\s\S]*oceans written by a person\.$/);
  assert.doesNotMatch(auto(microdata, 'article-body').text, /oceans/);
  // JSON-LD: the oceans paragraphs are the articleBody text, so they count three times.
  const body = Array.from({ length: 2 }, (_, i) => prose('oceans', i).replace(/<\/?p>/g, '')).join(' ');
  const script = `<script type="application/ld+json">${JSON.stringify({ '@type': 'NewsArticle', articleBody: body })}</script>`;
  const jsonLd = `<html><head>${script}</head>${apart(forests, oceans)}</html>`;
  assert.match(auto(jsonLd).text, /^Paragraph 0 about oceans[\s\S]*oceans written by a person\.$/);
  assert.doesNotMatch(auto(jsonLd, 'article-body').text, /oceans/);
});

test('proximity to the headline chooses the block under it over an equal block far from it', () => {
  const page = `<html><head><title>Moons of Jupiter</title></head><body>
    <div class="left">${proseBlock('asteroids', 3)}</div>
    <div><h1>Moons of Jupiter</h1><div>${proseBlock('moons', 3)}</div></div></body></html>`;
  const { text } = auto(page);
  assert.match(text, /moons/);
  assert.doesNotMatch(text, /asteroids/);
  // Without it the first of two equal blocks in document order wins.
  assert.match(auto(page, 'title-proximity').text, /asteroids/);
});

test('sentence punctuation: comma-rich prose outweighs more paragraphs of unpunctuated text', () => {
  const flat = Array.from(
    { length: 4 },
    (_, i) =>
      `<p>Item ${i} of the product list shows a name and a price and a colour and a size and nothing else ${'x'.repeat(60)}</p>`,
  ).join('');
  const page = apart(flat, proseBlock('harbours', 3));
  // Readability's paragraph score 1 + commas + ⌊chars / 100⌋: a prose paragraph (194 chars, 2 commas) scores 4,
  // a list item (153 chars) 2, so 3 × 4 = 12 beats 4 × 2 = 8; without commas prose scores 3 × 2 = 6 and loses.
  assert.match(auto(page).text, /harbours/);
  assert.doesNotMatch(auto(page).text, /product list/);
  assert.match(auto(page, 'punctuation').text, /product list/);
  assert.doesNotMatch(auto(page, 'punctuation').text, /harbours/);
});

test('teaser cards: a run of sibling cards (linked title and a blurb) inside the article is a teaser list', () => {
  const cards = Array.from(
    { length: 4 },
    (_, i) =>
      `<li><a href="/more/${i}">Read the story of the other river number ${i}</a><span> A blurb of a few more words about that river, to tempt the reader to go on.</span></li>`,
  ).join('');
  const page = `<body><div class="story">${proseBlock('deltas', 4)}<ul class="more">${cards}</ul></div></body>`;
  assert.doesNotMatch(auto(page).text, /other river/);
  assert.match(auto(page, 'teaser-cards').text, /other river/);
  // A bullet list of prose with a link inside each item is not a teaser list.
  const bullets = Array.from(
    { length: 4 },
    (_, i) => `<li>We fixed <a href="/bug/${i}">bug ${i}</a>, which crashed the editor on save.</li>`,
  ).join('');
  assert.match(auto(`<body><div>${proseBlock('releases', 3)}<ul>${bullets}</ul></div></body>`).text, /bug 3/);
});

test('captions, bylines, author boxes and post metadata are not main text', () => {
  const page = `<body><article><p class="byline">By Ann Writer</p>${proseBlock('canals', 2)}
    <figure><img src="a.jpg" alt=""><figcaption>A canal at dawn. Photo: Bob</figcaption></figure>
    ${proseBlock('locks', 2)}<p>Tags: canals, locks, boats</p>
    <div class="author-bio">Ann Writer has written about waterways for twenty years, for many papers, in many places.</div>
    </article></body>`;
  const { text } = auto(page);
  assert.match(text, /canals/);
  assert.match(text, /locks/);
  assert.doesNotMatch(text, /Ann Writer|canal at dawn|Tags:/);
  assert.match(auto(page, 'captions-bylines').text, /canal at dawn/);
});

test('a block named as having no caption ("no_caption") is not taken for a caption', () => {
  const page = `<title>Pills sold online</title><body><article><h1>Pills sold online</h1>${proseBlock('pills', 1)}
    <div class="list_item image_hit no_caption"><h2>The mother of a student described her last hours.</h2>
    <img src="a.jpg" alt=""></div>${proseBlock('doctors', 2)}</article></body>`;
  assert.match(auto(page).text, /The mother of a student/);
  const captioned = page.replace('no_caption', 'wp-caption');
  assert.doesNotMatch(auto(captioned).text, /The mother of a student/);
  assert.match(auto(captioned, 'captions-bylines').text, /The mother of a student/);
});

test("a list item's heading among headed items is not the headline; a post's heading alone in its item is", () => {
  // A product page: its headline is in a <header>, far above the block kept, and the features list between them
  // has a heading per item; the last of them stood just before the kept block and was taken for the headline.
  const feature = (name: string) =>
    `<li><a href="/v/${name}"><img src="${name}.jpg" alt=""></a><h2>${name}</h2>` +
    `<p>Build and test your kites with ${name}, a tool that comes with the kit.</p>` +
    `<a href="/docs/${name}">Learn more about ${name}</a></li>`;
  const product = `<title>Welcome to Kite Studio</title><body><main><section><header>
    <h1>Welcome to <span>Kite Studio</span></h1><p>Get to know the features of the most complete kite workshop.</p>
    </header><ul class="features">${['Sails', 'Lines', 'Frames', 'Tails'].map(feature).join('')}</ul>
    <div class="notice"><h4>Important: keep your old kites</h4>${prose('archives', 1)}</div></section></main></body>`;
  assert.equal(auto(product).title, 'Welcome to Kite Studio');
  // A blog whose <title> is the blog's name puts the post's heading in a list item of its own (beside the date):
  // that heading, just before the post, is still the post's.
  const post = `<title>Kite Diary</title><body><h1><a href="/">Kite Diary</a></h1>
    <div class="tagline">${'Notes on kites, wind and weather from a field by the sea. '.repeat(6)}</div>
    <ul class="article-head"><li class="date">Dec 28</li><li class="title"><h2><a href="/p/1">Flying at dawn</a></h2></li></ul>
    <div class="article">${proseBlock('dawn', 3)}</div></body>`;
  assert.equal(auto(post).title, 'Flying at dawn');
});

test('a heading marked itemprop="headline" is the headline wherever it stands', () => {
  // The <h1> stands in the breadcrumbs, which read as navigation; the schema.org mark says what it is. Without it,
  // the first half of a split headline above the post (a part of the title) was taken for the headline.
  const page = `<title>Kite festival moved to June -- OFFICIAL | Kite News</title><body>
    <div class="breadcrumbs"><a href="/">Home</a>
    <h1 itemprop="headline" class="post-title">Kite festival moved to June -- OFFICIAL</h1></div>
    <article><div class="headline"><h2>Kite festival</h2><h4>Moved to June ... OFFICIAL</h4></div>
    <div class="article-content">${proseBlock('june', 3)}</div></article></body>`;
  assert.equal(auto(page).title, 'Kite festival moved to June -- OFFICIAL');
  assert.equal(auto(page.replace('itemprop="headline" ', '')).title, 'Kite festival');
});

test('a comment thread opened by a heading ends the kept text', () => {
  const page = `<body><div class="content">${proseBlock('bridges', 4)}<h3>3 Comments</h3>
    ${proseBlock('readers', 3)}</div></body>`;
  const { text } = auto(page);
  assert.match(text, /bridges/);
  assert.doesNotMatch(text, /Comments|readers/);
  assert.match(auto(page, 'comment-headings').text, /3 Comments/);
  // A section heading that merely contains the word is not a thread.
  const section = `<body><div>${proseBlock('bridges', 4)}<h3>Comments from the engineers, in full</h3>${proseBlock('engineers', 1)}</div></body>`;
  assert.match(auto(section).text, /engineers/);
});

test('hidden: aria-hidden and screen-reader-only text is left out', () => {
  const page = `<body><div>${proseBlock('lakes', 3)}<p aria-hidden="true">Decorative duplicate headline text</p>
    <p class="sr-only">Skip to the next section of the page</p></div></body>`;
  const { text } = auto(page);
  assert.match(text, /lakes/);
  assert.doesNotMatch(text, /Decorative|Skip to/);
  assert.match(auto(page, 'hidden').text, /Decorative/);
});

test('a page that is not an article keeps a sensible output', () => {
  const docs = `<html><head><title>API reference</title></head><body>${NAV}
    <div class="docs"><h1>API reference</h1><h2>GET /items</h2><p>Lists the items of the account</p>
    <h2>POST /items</h2><p>Creates an item from the JSON body</p><pre>curl -X POST /items</pre></div>
    <footer><a href="/privacy">Privacy</a></footer></body></html>`;
  const result = auto(docs);
  assert.equal(result.title, 'API reference');
  assert.match(result.text, /GET \/items[\s\S]*Creates an item[\s\S]*curl -X POST/);
  assert.doesNotMatch(result.text, /Home|Privacy/);
  for (const html of ['', '<body></body>', `<body>${NAV}</body>`]) assert.equal(auto(html).text, '');
});

test('a name that means content lifts a block by the text it holds, not on its own', () => {
  // The one-sentence box is named "module-content" (+25 on the name alone would give it 5 + 25 + 3 = 33 against
  // the article's 5 + 3 × 4 = 17); scaled by its 47 characters of 250 the name adds about 5, and the article wins.
  const page = `<body><section><div><div>${proseBlock('harbours', 3)}</div></div></section>
    <section><div><div class="module-content"><p>Our gallery of crafts, updated weekly, for you.</p></div></div></section></body>`;
  const { text } = auto(page);
  assert.match(text, /^Paragraph 0 about harbours/);
  assert.doesNotMatch(text, /gallery/);
});

test('an article written in steps is kept whole, not only its longest step', () => {
  // Each step sits four levels under the column, so the column gets little of the steps' paragraph scores; the
  // longest step (4 paragraphs) outscores it, but the column scores over 0.75 of that step with 3.5× its text.
  const steps = [4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    .map(
      (n, i) =>
        `<div class="step"><div><div><div class="content">${proseBlock(`step${i}`, n)}</div></div></div></div>`,
    )
    .join('');
  const { text } = auto(
    `<body><div class="col-main">${steps}</div><div>${proseBlock('other', 1)}</div></body>`,
  );
  assert.match(text, /^Paragraph 0 about step0[\s\S]*about step10 written by a person\.$/);
  assert.doesNotMatch(text, /other/);
});

test('a comment heading that is out by its name still ends the kept text', () => {
  // "<h2 id=comments>" is dropped as boilerplate; the replies after it carry no name and would otherwise stay.
  const page = `<body><div>${proseBlock('bridges', 3)}<h2 id="comments">2 Replies</h2>
    <p>I liked it a lot, and I will read it again tomorrow, thank you.</p><p>No comments from me.</p></div></body>`;
  const { text } = auto(page);
  assert.match(text, /bridges written by a person\.$/);
  assert.doesNotMatch(text, /Replies|liked it|from me/);
});

test("a heading inside the site's banner is not the headline when one beside the text matches the title", () => {
  // The banner's <h1> covers more of the <title> than the post's <h3>, but it sits in the banner: the post's own
  // heading is the headline, and the text is chosen near it, not near the banner.
  const page = `<html><head><title>Morning wrap - The Blog of Legal News</title></head><body>
    <div id="banner"><h1><a href="/">The Blog of Legal News</a></h1></div>
    <div class="entry"><div class="entry-header"><h3>Morning wrap</h3></div>${proseBlock('courts', 3)}</div></body></html>`;
  const result = auto(page);
  assert.equal(result.title, 'Morning wrap');
  assert.match(result.text, /^Paragraph 0 about courts/);
  assert.doesNotMatch(result.text, /Morning wrap|Legal News/);
});

test('the second reading wins when it finds ten times the text of a first reading left with one box', () => {
  // The whole article sits in a div named "header" (out in the first reading); what the first reading keeps is
  // a 140-character teaser box elsewhere, not a short article: the second reading's 1,500 characters win.
  const page = `<body><div id="header">${proseBlock('lenses', 8)}</div>
    <div class="teaser"><p>Introduction to camera filters, and what a translucent filter does for a picture that you take in bright light.</p><p>Read on, there is more.</p></div></body>`;
  const { text } = auto(page);
  assert.match(text, /^Paragraph 0 about lenses[\s\S]*Paragraph 7 about lenses/);
  assert.doesNotMatch(text, /filters/);
});

test('a copyright line and a "postauthor" box closing a post are not main text', () => {
  const page = `<body><div class="post">${proseBlock('kites', 3)}
    <div class="postauthor"><h4>Written by Ann</h4><p>Ann is the founder of the site, and she loves to fly kites, read and run.</p></div>
    <p>© Kite Weekly. This article is licensed for use on this site only.</p>
    <div><span>Nothing here endorses any event, or any view or advice in it.</span> <span>All rights reserved.</span></div></div></body>`;
  const { text } = auto(page);
  assert.match(text, /^Paragraph 0 about kites[\s\S]*kites written by a person\.$/);
  assert.match(auto(page, 'captions-bylines').text, /founder[\s\S]*Kite Weekly[\s\S]*rights reserved/);
  // A photo credit that opens a long block going on with the article does not take the block with it.
  const credit = `<body><div class="post"><div>© Agency Photo ${prose('kites', 0).replace(/<\/?p>/g, '')}</div>${proseBlock('winds', 3)}</div></body>`;
  assert.match(auto(credit).text, /^© Agency Photo Paragraph 0 about kites/);
});

test('same-shaped items that each end in a "Read more" link are a teaser list', () => {
  // Each item opens with an unlinked headline, so it is no card by its first link; its "Read more..." says what
  // it is. The list scores a fifth of the article's score and would be kept as more of the same article.
  const items = Array.from(
    { length: 4 },
    (_, i) =>
      `<div class="item"><h3>Launch event number ${i} in the city</h3><p class="text">The first consoles go on sale in the city, with a midnight event for everyone, and games. <a href="/news/${i}">Read more...</a></p></div>`,
  ).join('');
  const page = `<body><div><div id="a">${proseBlock('consoles', 4)}</div><div id="b">${items}</div></div></body>`;
  assert.doesNotMatch(auto(page).text, /Launch event|Read more/);
  assert.match(auto(page, 'teaser-cards').text, /Launch event number 3/);
});

test('a list of links that the text announces with a colon stays; the same list unannounced goes', () => {
  const list = `<ul>${Array.from({ length: 4 }, (_, i) => `<li><a href="/p/${i}">“A paper on publics, number ${i}” by two authors</a></li>`).join('')}</ul>`;
  const page = (intro: string) =>
    `<body><div class="post">${proseBlock('journals', 3)}<p>${intro}</p>${list}${proseBlock('issues', 2)}</div></body>`;
  assert.match(
    auto(page('The seven pieces in this issue are:')).text,
    /are:\n\n“A paper on publics, number 0”/,
  );
  assert.doesNotMatch(auto(page('We hope you enjoy the issue.')).text, /A paper on publics/);
  // "More stories from us:" labels other pages, not the text's own list.
  assert.doesNotMatch(auto(page('More stories from the journal:')).text, /A paper on publics/);
});

test("a post's own header is no box for its headline; a byline heading is no headline", () => {
  // "asset-header" is boilerplate by its name ("header"), but it is the post's header, not the site's: its <h2>
  // matches the title better than the sidebar's "Search Bike Hugger" and is the headline.
  const post = `<html><head><title>Yard sign fenders - Bike Hugger</title></head><body>
    <div id="header"><h1><a href="/">Bike Hugger</a></h1></div>
    <div class="entry"><div class="asset-header"><h2>Yard sign fenders</h2></div>${proseBlock('fenders', 3)}</div>
    <div><h3>Search Bike Hugger</h3><form><input name="q"></form><h3>About</h3><p>We write about bikes.</p></div></body></html>`;
  assert.equal(auto(post).title, 'Yard sign fenders');
  // The headline sits 400 characters of share links above the text; the heading right above the text is a byline.
  const share = Array.from({ length: 16 }, (_, i) => `<a href="/s/${i}">Share on network ${i}</a>`).join(' ');
  const story = `<html><head><title>Nokia launches a phone - Journal</title></head><body><h1>Nokia launches a phone</h1>
    <div>${share}</div><h3 class="byline">By Sven Writer</h3><div class="story">${proseBlock('phones', 3)}</div></body></html>`;
  assert.equal(auto(story).title, 'Nokia launches a phone');
});

test('a sign-up box inside the post (newsletter text beside a form) is not main text', () => {
  const box = `<div class="box"><h3>Sign up to the newsletter and get a free book</h3><p>You will also receive tips every week.</p>
    <form action="/subscribe"><input type="email" name="email"><input type="submit" value="Go"></form></div>`;
  const page = `<body><div class="post">${proseBlock('blogs', 3)}${box}${proseBlock('money', 1)}</div></body>`;
  const { text } = auto(page);
  assert.match(text, /blogs[\s\S]*money/);
  assert.doesNotMatch(text, /newsletter|receive tips/);
  assert.match(auto(page, 'captions-bylines').text, /newsletter/);
  // The same words in a box without a form are the article's own (a post about newsletters).
  assert.match(auto(page.replace(/<form[\s\S]*<\/form>/, '')).text, /newsletter/);
});

test('a comment heading after a short post ends the kept text even when the thread is ten times the post', () => {
  // Three paragraphs of post (600 characters) and thirty replies (6,000): the heading comes after a short post's
  // worth of text, though not after a tenth of all the text.
  const page = `<body><div class="blog">${proseBlock('harbours', 3)}<h2>Comments</h2>
    ${proseBlock('replies', 30)}</div></body>`;
  const { text } = auto(page);
  assert.match(text, /harbours written by a person\.$/);
  assert.doesNotMatch(text, /Comments|replies/);
  assert.match(auto(page, 'comment-headings').text, /Paragraph 29 about replies/);
});

test('a short paragraph of nothing but links (previous post | main | next post) is not main text', () => {
  const line = `<p><a href="/p/1">« Older post about ships</a> | <a href="/">Main</a> | <a href="/p/3">Newer post »</a></p>`;
  const page = `<body><div class="post">${proseBlock('ships', 3)}${line}</div></body>`;
  assert.match(auto(page).text, /ships written by a person\.$/);
  assert.match(auto(page, 'link-density').text, /Older post about ships/);
  // Words outside the links make a line of the text: a list of books with their authors stays.
  const books = `<p><a href="/b/1">The Victorian Internet</a> by Tom Standage (<a href="/r/1">review</a>)</p>`;
  assert.match(
    auto(`<body><div class="post">${proseBlock('ships', 3)}${books}</div></body>`).text,
    /Victorian Internet by Tom Standage/,
  );
});

test('an author box named in camel case ("extendedBio") is not main text', () => {
  const bio = `<div class="extendedBio"><p>Born in 1975 in a port city, raised by two teachers, he studied history for some years and wrote for papers.</p></div>`;
  const page = `<body><div class="post">${proseBlock('ports', 3)}${bio}</div></body>`;
  assert.match(auto(page).text, /ports written by a person\.$/);
  assert.match(auto(page, 'captions-bylines').text, /Born in 1975/);
});

test('the first of three parts of the title is the post\'s, not the site\'s name ("Post - Section - Site")', () => {
  // The post's heading is the title's first part; its longest part is the section's. The heading sits in a post
  // header that the name rules leave out, so only the title logic can find it.
  const page = `<html><head><title>Paper leaves - Things to make and do with children - The Crow</title></head><body>
    <div class="post"><div class="entry-header"><h2>Paper leaves</h2></div>${proseBlock('leaves', 3)}</div></body></html>`;
  assert.equal(auto(page).title, 'Paper leaves');
});

test("a short line holding the post's permalink is post metadata", () => {
  const footer = `<p class="entry-info"><span>11/09/2012 in <a href="/c/1">Fall Crafts</a>, <a href="/c/2">Paper Crafts</a></span> | <a href="/2012/11/leaves.html">Permalink</a></p>`;
  const page = `<body><div class="post">${proseBlock('leaves', 3)}${footer}</div></body>`;
  assert.match(auto(page).text, /leaves written by a person\.$/);
  assert.match(auto(page, 'captions-bylines').text, /Fall Crafts/);
});

test('the first part of a two-part title is the post\'s when it has three words or more ("Post | Site")', () => {
  // Readability's title rule: the part before the separator, unless it is under three words. Here the site's
  // name is the longer part, which made the post's own heading look like the site's name.
  const page = `<html><head><title>Time to begin again | The Search Blog of a Writer in Marin</title></head><body>
    <article class="post"><header class="title"><h1>Time to begin again</h1></header>${proseBlock('beaches', 3)}</article></body></html>`;
  assert.equal(auto(page).title, 'Time to begin again');
});

test('a heading that links home and is the title after its first part is the site\'s name ("Post – Site - Motto")', () => {
  // The post's own heading is lost to broken markup (a tag left unclosed swallows it), so the only heading is the
  // site's: the title's first part is the post's, not its longest part (the site's motto).
  const page = `<html><head><title>Macbeth shirt from the Affair – Tcritic - The T-Shirt Blog Covering Nerd Fashion</title></head>
    <body><div id="top"><h1><a href="http://tcritic.test/">Tcritic – The T-Shirt Blog Covering Nerd Fashion</a></h1></div>
    <div class="post"><a href="/archives/macbeth/">Macbeth shirt from the Affair</a>${proseBlock('shirts', 3)}</div></body></html>`;
  assert.equal(auto(page).title, 'Macbeth shirt from the Affair');
  // A post's heading can be the title's tail too ("Blog | Motto » Post: subtitle"): without a link home it is the post's.
  const blog = `<html><head><title>A Blog | Musings » Girls and data: the gendered self</title></head><body>
    <div id="top"><h1><a href="/">A Blog | Musings</a></h1></div>
    <div class="post"><h2>Girls and data: the gendered self</h2>${proseBlock('data', 3)}</div></body></html>`;
  assert.equal(auto(blog).title, 'Girls and data: the gendered self');
});

test("an <h4> that is the title's head word for word is the headline; the same in a teaser list is not", () => {
  const teasers = (title: string) =>
    `<ul><li><a href="/a"><h4>${title}</h4></a></li><li><a href="/b"><h4>Another post of the week</h4></a></li></ul>`;
  const page = (
    post: string,
  ) => `<html><head><title>Electric sedan wins car of the year -- Gadget Site</title></head>
    <body><div class="distro"><h2>Gadget Distro</h2></div>${post}</body></html>`;
  const own = `<div class="post"><h4 class="post_title">Electric sedan wins car of the year</h4>
    <div class="post_body">${proseBlock('sedans', 3)}</div></div>`;
  assert.equal(auto(page(own)).title, 'Electric sedan wins car of the year');
  const listed = `<div class="post"><div class="post_body">${proseBlock('sedans', 3)}</div></div>${teasers('Electric sedan wins car of the year')}`;
  assert.notEqual(auto(page(listed)).title, 'Electric sedan wins car of the year');
});

test('WordPress\'s "You can follow any responses to this entry" line is post metadata', () => {
  const line = `<p class="small">You can follow any responses to this entry through the <a href="/feed/">RSS 2.0</a> feed. You can <a href="#respond">leave a response</a>, or <a href="/trackback/">trackback</a> from your own site.</p>`;
  const page = `<body><div class="post">${proseBlock('hurricanes', 3)}${line}</div></body>`;
  assert.match(auto(page).text, /hurricanes written by a person\.$/);
  assert.match(auto(page, 'captions-bylines').text, /follow any responses/);
});
