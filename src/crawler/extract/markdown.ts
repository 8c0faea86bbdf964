// Main content as Markdown (CommonMark with GitHub tables and strikethrough): headings, paragraphs, lists,
// tables, code blocks as fences, links resolved to absolute URLs, images as ![alt](url). Input is the cleaned
// HTML the extractor returns (already cut to the main content, with its depth capped), never a raw page.
// turndown + Joplin's maintained GFM plugin rather than node-html-markdown, whose time grows faster than its
// input: a page is hostile, and a large one would hold a worker for minutes (docs/benchmarks.md#extract).
import { createRequire } from 'node:module';
import TurndownService from 'turndown';
import { type ExtractedContent, type ExtractionMethod, extractMainContent } from './extract.js';
import { escapeText } from './render.js';

/** The DOM element turndown hands its rules (the lib has no DOM types here). */
type Element = { getAttribute(name: string): string | null };

// The plugin ships CommonJS only; require() reads it the same way under tsx and compiled output.
const { gfm } = createRequire(import.meta.url)('@joplin/turndown-plugin-gfm') as {
  gfm: TurndownService.Plugin;
};

/** Only these schemes become links or images; anything else (javascript:, data:) is kept as text. */
const LINKABLE = new Set(['http:', 'https:', 'mailto:']);

function absolute(raw: string | null, baseUrl: string | undefined): string | null {
  if (!raw) return null;
  const url = URL.parse(raw.trim(), baseUrl);
  return url && LINKABLE.has(url.protocol) ? url.href : null;
}

/** Markdown's link destination: angle brackets when the URL has spaces or parentheses. */
function destination(url: string): string {
  return /[\s()<>]/.test(url) ? `<${url.replace(/[<>]/g, encodeURIComponent)}>` : url;
}

function converter(baseUrl: string | undefined): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
    emDelimiter: '_',
  });
  service.use(gfm);
  service.addRule('absoluteLinks', {
    filter: (node) => node.nodeName === 'A' && node.getAttribute('href') !== null,
    replacement: (content, node) => {
      const url = absolute((node as Element).getAttribute('href'), baseUrl);
      const text = content.trim();
      if (!url) return content;
      return `[${text || url}](${destination(url)})`;
    },
  });
  service.addRule('absoluteImages', {
    filter: 'img',
    replacement: (_content, node) => {
      const element = node as Element;
      const url = absolute(element.getAttribute('src'), baseUrl);
      if (!url) return '';
      const alt = (element.getAttribute('alt') ?? '').replace(/[[\]\s]+/g, ' ').trim();
      return `![${alt}](${destination(url)})`;
    },
  });
  service.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed']);
  return service;
}

const converters = new Map<string, TurndownService>();

/** The Markdown of `html` (extracted main content); relative links and images resolve against `baseUrl`. */
export function htmlToMarkdown(html: string, baseUrl?: string): string {
  if (!html.trim()) return '';
  const key = baseUrl ?? '';
  let service = converters.get(key);
  if (!service) {
    // a converter per base URL (its rules close over it); a few are kept for pages of one site
    if (converters.size > 32) converters.clear();
    service = converter(baseUrl);
    converters.set(key, service);
  }
  return service.turndown(html).trim();
}

/**
 * Extracted main content as Markdown. `auto` reports the article's headline as the title and leaves it out of
 * the content (its words are the title's, not the text's), so its Markdown opens with the title as `# Title`
 * unless the content already opens with a level-1 heading; the other methods keep the page's headings.
 */
export function extractedMarkdown(
  extracted: Pick<ExtractedContent, 'html' | 'title' | 'method'>,
  baseUrl?: string,
): string {
  const content = htmlToMarkdown(extracted.html, baseUrl);
  const title = extracted.title.trim();
  if (extracted.method !== 'auto' || !content || !title || content.startsWith('# ')) return content;
  return `${htmlToMarkdown(`<h1>${escapeText(title)}</h1>`, baseUrl)}\n\n${content}`;
}

/**
 * A crawled page's main content as Markdown: extracted by the crawl's `method`, links resolved against the
 * page's URL (after redirects). The one recipe of GET …/pages/:pageId?include=markdown and the JSONL export's.
 */
export function pageMarkdown(html: string, pageUrl: string, method: ExtractionMethod): string {
  return extractedMarkdown(extractMainContent(html, { method, baseUrl: pageUrl }), pageUrl);
}
