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
  const rng = Rng.for(seed, 'text', page.textKey);
  const parts: string[] = [
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
    `<title>${escapeText(page.title)}</title>\n`,
    page.metaNofollow ? '<meta name="robots" content="noindex, nofollow">\n' : '',
    `</head>\n<body>\n<h1>${escapeText(page.title)}</h1>\n<nav>\n<ul>\n`,
    ...page.links.map((link) => `<li>${anchor(link)}</li>\n`),
    '</ul>\n</nav>\n<main>\n',
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
