// A web built from the Wikispeedia graph (shared/data/wikispeedia: 4,604 Wikipedia-for-Schools articles, their
// 119,882 links and their categories; West & Leskovec, WWW 2012): one page per article whose text is its title
// and the titles of the articles it links, and whose links are exactly the graph's. An article is relevant to a
// subject such as `subject.Science.Physics` when one of its categories is that subject or below it.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { escapeAttribute, escapeText } from '../testweb/html.js';
import {
  type LabelledModel,
  type LabelledPage,
  type LabelledWeb,
  type PageLink,
  serveLabelledWeb,
} from './labelled-web.js';

/** shared/data/wikispeedia beside the repository (resolved from this file). */
export const DEFAULT_WIKI_DATA_DIR = fileURLToPath(
  new URL('../../../../shared/data/wikispeedia/', import.meta.url),
);

const FILES = ['articles.tsv', 'links.tsv', 'categories.tsv'] as const;

export interface WikiWebOptions {
  /** Folder holding articles.tsv, links.tsv and categories.tsv; default DEFAULT_WIKI_DATA_DIR. */
  dataDir?: string;
  /** Loopback hosts; articles are partitioned by first letter (A–Z in equal runs, others on the first). Default 4. */
  hosts?: number;
  port?: number;
}

export interface WikiWebModel extends LabelledModel {
  /** The URL of an article, by its name as in the data (URL-encoded) or decoded ("Albert Einstein" works too). */
  urlOf(article: string): string;
  /** Names (decoded, underscores kept) of the articles relevant to `subject`, in the data's order. */
  articlesIn(subject: string): string[];
}

export interface WikiWeb extends LabelledWeb {
  urlOf(article: string): string;
  articlesIn(subject: string): string[];
}

/** Why the Wikispeedia web cannot be built from `dataDir`, or null when it can: for skip messages. */
export function wikiDataMissing(dataDir: string = DEFAULT_WIKI_DATA_DIR): string | null {
  const missing = FILES.filter((file) => !existsSync(join(dataDir, file)));
  return missing.length === 0
    ? null
    : `shared/data/wikispeedia not present (${missing.join(', ')} missing in ${dataDir})`;
}

/** Data lines of a Wikispeedia .tsv: comments and blank lines dropped, split on tabs. */
function rows(dataDir: string, file: string): string[][] {
  return readFileSync(join(dataDir, file), 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.split('\t'));
}

function decodeName(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    return encoded;
  }
}

function hostIndexOf(name: string, hosts: number): number {
  const code = name.charAt(0).toUpperCase().charCodeAt(0) - 65;
  return code >= 0 && code < 26 ? Math.floor((code * hosts) / 26) : 0;
}

/** Is a category `subject` itself or below it (`subject.Science.Physics` covers `….Physics.Space_Astronomy`)? */
export function inSubject(category: string, subject: string): boolean {
  return category === subject || category.startsWith(`${subject}.`);
}

/** Builds the pages for the given origins from the data files; exported for tests that need no server. */
export function buildWikiWeb(dataDir: string, hosts: readonly string[]): WikiWebModel {
  const missing = wikiDataMissing(dataDir);
  if (missing !== null) throw new Error(missing);
  const encodedNames = rows(dataDir, 'articles.tsv').map((row) => row[0]!);
  const index = new Map<string, number>();
  encodedNames.forEach((encoded, i) => {
    index.set(encoded, i);
    index.set(decodeName(encoded), i);
  });
  const names = encodedNames.map(decodeName);
  const titles = names.map((name) => name.replace(/_/g, ' '));
  const urls = encodedNames.map(
    (encoded, i) => `${hosts[hostIndexOf(names[i]!, hosts.length)]!}/wiki/${encoded}`,
  );
  const outLinks = encodedNames.map((): number[] => []);
  for (const [from, to] of rows(dataDir, 'links.tsv')) {
    const source = index.get(from ?? '');
    const target = index.get(to ?? '');
    if (source === undefined || target === undefined) continue;
    outLinks[source]!.push(target);
  }
  const categories = encodedNames.map((): string[] => []);
  for (const [article, category] of rows(dataDir, 'categories.tsv')) {
    const i = index.get(article ?? '');
    if (i !== undefined && category) categories[i]!.push(category);
  }

  const pages: LabelledPage[] = names.map((_, i) => ({
    url: urls[i]!,
    title: titles[i]!,
    labels: categories[i]!,
    links: outLinks[i]!.map((target): PageLink => ({ url: urls[target]!, text: titles[target]! })),
  }));

  const render = (page: LabelledPage): string => {
    const linked = page.links.map((link) => link.text);
    const sentence =
      linked.length === 0
        ? ''
        : ` It is linked with ${linked.slice(0, -1).join(', ')}${linked.length > 1 ? ' and ' : ''}${linked.at(-1)}.`;
    return [
      '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
      `<title>${escapeText(page.title)}</title>\n</head>\n<body>\n<h1>${escapeText(page.title)}</h1>\n`,
      `<p>${escapeText(`${page.title} is an article about ${page.title.toLowerCase()}.${sentence}`)}</p>\n<ul>\n`,
      ...page.links.map(
        (link) => `<li><a href="${escapeAttribute(link.url)}">${escapeText(link.text)}</a></li>\n`,
      ),
      '</ul>\n</body>\n</html>\n',
    ].join('');
  };

  return {
    pages,
    render,
    matches: (labels, subject) => labels.some((category) => inSubject(category, subject)),
    urlOf(article) {
      const i = index.get(article) ?? index.get(article.replace(/ /g, '_'));
      if (i === undefined) throw new RangeError(`wiki web: no article "${article}"`);
      return urls[i]!;
    },
    articlesIn: (subject) =>
      names.filter((_, i) => categories[i]!.some((category) => inSubject(category, subject))),
  };
}

/** Serves the Wikispeedia web; throws (with wikiDataMissing's message) when the data is not there. */
export async function startWikiWeb(opts: WikiWebOptions = {}): Promise<WikiWeb> {
  const dataDir = opts.dataDir ?? DEFAULT_WIKI_DATA_DIR;
  const hostCount = opts.hosts ?? 4;
  if (hostCount < 1 || hostCount > 26) throw new RangeError('wiki web: hosts must be 1…26');
  const { web, model } = await serveLabelledWeb(hostCount, opts.port ?? 0, (hosts) =>
    buildWikiWeb(dataDir, hosts),
  );
  return {
    ...web,
    urlOf: (article) => model.urlOf(article),
    articlesIn: (subject) => model.articlesIn(subject),
  };
}
