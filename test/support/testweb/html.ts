// Renders a page resource to bytes: links first (so a crawler that truncates a long body still sees them),
// then seeded filler paragraphs of 1–5 KB in all. Hand-written bodies (charsets, malformed) pass through.

import { Rng } from './random.js';
import type { LinkSpec, PageResource } from './site.js';

export function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

function anchor(link: LinkSpec): string {
  const relValue = link.rel ?? (link.nofollow ? 'nofollow' : undefined);
  const rel = relValue === undefined ? '' : ` rel="${escapeAttribute(relValue)}"`;
  return `<a href="${escapeAttribute(link.href)}"${rel}>${escapeText(link.text ?? link.href)}</a>`;
}

function paragraph(rng: Rng): string {
  const words = rng.words(rng.between(40, 90));
  words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
  return `<p>${words.join(' ')}.</p>\n`;
}

export function renderPage(page: PageResource, seed: number): Buffer {
  if (page.body !== undefined) return page.body;
  if (page.chrome) return renderRealisticPage(page, page.chrome, seed);
  const rng = Rng.for(seed, 'text', page.textKey);
  const parts: string[] = [
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
    `<title>${escapeText(page.title)}</title>\n`,
    page.metaNofollow ? '<meta name="robots" content="noindex, nofollow">\n' : '',
    `</head>\n<body>\n<h1>${escapeText(page.title)}</h1>\n<nav>\n<ul>\n`,
    ...page.links.map((link) => `<li>${anchor(link)}</li>\n`),
    '</ul>\n</nav>\n<main>\n',
    page.update ? `<p class="update">${escapeText(page.update)}</p>\n` : '',
    ...(page.images ?? []).map(
      (image) =>
        `<figure><img src="${escapeAttribute(image.src)}" alt="${escapeAttribute(image.alt)}"></figure>\n`,
    ),
  ];
  const paragraphs = rng.between(2, 6);
  for (let i = 0; i < paragraphs; i++) parts.push(paragraph(rng));
  if (page.padToBytes !== undefined) {
    // The over-size page: one long filler block, its last links after it.
    let size = parts.reduce((sum, part) => sum + Buffer.byteLength(part), 0);
    const block = paragraph(rng);
    const blockBytes = Buffer.byteLength(block);
    const repeats = Math.max(0, Math.ceil((page.padToBytes - size - 200) / blockBytes));
    parts.push(block.repeat(repeats));
    size += repeats * blockBytes;
  }
  for (const link of page.tailLinks ?? []) parts.push(`<p>${anchor(link)}</p>\n`);
  parts.push('</main>\n</body>\n</html>\n');
  return Buffer.from(parts.join(''), 'utf8');
}

/** Article bodies the realistic profile draws from: rendering 100 KB of fresh text per request would make the
 * test web, not the crawler, the bottleneck of a benchmark. Per seed, 64 articles of 12–92 KB, split at
 * their paragraphs once (the page's own links go between them). */
const articlePools = new Map<number, string[][]>();

function articlePool(seed: number): string[][] {
  let pool = articlePools.get(seed);
  if (!pool) {
    pool = [];
    for (let n = 0; n < 64; n++) {
      const rng = Rng.for(seed, 'article', n);
      const target = rng.between(12_000, 92_000);
      const parts: string[] = [];
      let size = 0;
      while (size < target) {
        const heading = rng.words(rng.between(2, 6)).join(' ');
        const section = [`<h2>${heading}</h2>\n`];
        for (let p = rng.between(2, 6); p > 0; p--) section.push(paragraph(rng));
        if (rng.chance(0.4)) {
          section.push(
            `<ul>\n${Array.from({ length: rng.between(3, 8) }, () => `<li>${rng.words(rng.between(3, 12)).join(' ')}</li>\n`).join('')}</ul>\n`,
          );
        }
        if (rng.chance(0.2)) {
          section.push(
            `<figure><img src="/img/${rng.pick(rng.words(2))}.png" alt="${rng.words(4).join(' ')}"><figcaption>${rng.words(8).join(' ')}</figcaption></figure>\n`,
          );
        }
        const text = section.join('');
        parts.push(text);
        size += text.length;
      }
      pool.push(parts.join('').split('</p>\n'));
    }
    articlePools.set(seed, pool);
  }
  return pool;
}

const INLINE_STYLE = `<style>\n${Array.from({ length: 120 }, (_, i) => `.c${i}{margin:${i % 7}px ${i % 5}px;padding:${i % 3}px;color:#${(i * 2654435761).toString(16).slice(-6).padStart(6, '0')};font-size:${12 + (i % 6)}px}`).join('\n')}\n</style>\n`;
const INLINE_SCRIPT = `<script>\n${Array.from({ length: 160 }, (_, i) => `window.__m${i}=function(a,b){var r=[];for(var k=0;k<a;k++){r.push((k*${i + 3})%b)}return r.join(",")};`).join('\n')}\n</script>\n`;
const TRACKER =
  '<script>(function(){var d=document,s=d.createElement("script");s.async=true;window.dataLayer=window.dataLayer||[];dataLayer.push({event:"pageview"});})();</script>\n';

/** A page as real sites serve it: menu, breadcrumbs, long article with its own links, related box, footer. */
function renderRealisticPage(
  page: PageResource,
  chrome: NonNullable<PageResource['chrome']>,
  seed: number,
): Buffer {
  const rng = Rng.for(seed, 'text', page.textKey);
  // the page's own links go inside the article, a few per paragraph, as in-text links do
  const paragraphs = articlePool(seed)[rng.int(64)]!;
  const own = page.links.map(anchor);
  const step = Math.max(1, Math.floor(paragraphs.length / Math.max(1, own.length)));
  const body: string[] = [];
  paragraphs.forEach((text, index) => {
    body.push(text);
    if (index < paragraphs.length - 1) {
      const link = index % step === 0 ? own.shift() : undefined;
      body.push(link ? ` See ${link}.</p>\n` : '</p>\n');
    }
  });
  for (const link of own) body.push(`<p>Also: ${link}</p>\n`);
  const list = (links: LinkSpec[]) => links.map((link) => `<li>${anchor(link)}</li>`).join('\n');
  const parts = [
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
    `<title>${escapeText(page.title)}</title>\n`,
    page.metaNofollow ? '<meta name="robots" content="noindex, nofollow">\n' : '',
    INLINE_STYLE,
    INLINE_SCRIPT,
    '</head>\n<body class="c1">\n<header class="c2">\n<nav aria-label="site">\n<ul class="menu">\n',
    list(chrome.menu),
    '\n</ul>\n</nav>\n</header>\n',
    `<nav aria-label="breadcrumb"><a href="/">Home</a> › ${escapeText(page.title)}</nav>\n`,
    `<main class="c3">\n<article>\n<h1>${escapeText(page.title)}</h1>\n`,
    `<p class="byline">By ${rng.words(2).join(' ')} · ${rng.between(1, 28)} March 2026</p>\n`,
    page.update ? `<p class="update">${escapeText(page.update)}</p>\n` : '',
    ...body,
    '</article>\n<aside class="related">\n<h2>Related</h2>\n<ul>\n',
    list(chrome.related),
    '\n</ul>\n</aside>\n</main>\n<footer class="c4">\n<ul>\n',
    list(chrome.footer),
    `\n</ul>\n<p>© 2026 ${rng.words(2).join(' ')}</p>\n</footer>\n`,
    TRACKER,
    '</body>\n</html>\n',
  ];
  return Buffer.from(parts.join(''), 'utf8');
}
