// Focused crawling against breadth-first, judged by a relevance oracle (never by trawl's own scores): on the
// topical test web (hidden topic labels, 80 % same-topic links) and on the Wikispeedia web (real Wikipedia link
// graph; relevant = a category under the target subject), trawl crawls with BFS, best-first with a keyword
// query, best-first with TF-IDF (similarity set = a few relevant pages' URLs) and the topic-sensitive strategy,
// all with the same page budget, no politeness delay, in this process (bench/peers/focus-trawl.ts). For each:
// pages fetched, relevant pages, harvest rate = relevant / fetched, and its ratio to BFS (target ≥ 2×).
// A strategy the server rejects with a 400 (not built yet) is printed as "not available".
// Args: --max-pages N (500), --web topic,wiki, --only bfs,keyword,tfidf,topic, --topic NAME (tennis),
// --subject CATEGORY (subject.Science.Physics), --seed N (1), --pages-per-topic N (600), --concurrency N,M (1,4),
// --query Q and --topics a,b,c (override the keyword query and the topic words on every web run).
// Each web is crawled at every listed concurrency: at 1 the order is exactly the reference's sequential
// best-first (docs/reference.md#weighted-queue–#best-first, the evaluation of record); with several fetches in flight, pages are claimed
// before the links of the pages still in flight are queued, which blurs the order — the table shows how much.

import {
  type LabelledWeb,
  startTopicWeb,
  startWikiWeb,
  wikiDataMissing,
} from '../test/support/topicweb/index.js';
import { numberArg, stringArg } from './args.js';
import { type FocusCrawlOutcome, FocusTrawl } from './peers/focus-trawl.js';

// topic: maxPages caps pages fetched (the default); topic-ref: the reference's reading, the first maxPages
// pages discovered (on pages with many links the cap is reached after a few pages, and the weights only order
// a set that discovery already chose)
const STRATEGIES = ['bfs', 'keyword', 'tfidf', 'topic', 'topic-ref'] as const;
type Strategy = (typeof STRATEGIES)[number];
const WEBS = ['topic', 'wiki'] as const;
type WebName = (typeof WEBS)[number];
/** Each focused strategy's harvest rate against BFS's (the target: at least 2× BFS's harvest rate on both webs). */
const TARGET_RATIO = 2;
/** Pages of the similarity set for the TF-IDF runs. */
const SIMILAR_PAGES = 5;

/** What one web gives the crawls: where to start, what is relevant and how each strategy is told about it. */
interface FocusSetup {
  web: LabelledWeb;
  label: string;
  target: string;
  seeds: string[];
  query: string;
  similarTo: string[];
  topics: string[];
  /** The topic strategy's "main text starts at the first <p>" (right for Wikipedia; the topical web's portals
   * hold their links in a list with no paragraph). */
  mainTextStartsAtFirstParagraph: boolean;
}

interface Row {
  strategy: Strategy;
  unavailable?: string;
  failed?: string;
  fetched: number;
  relevant: number;
  harvest: number;
  ownRelevant?: number;
  ownHarvest?: number;
  /** Page requests the web answered during the crawl (a cross-check on `fetched`; TF-IDF adds its similarity set). */
  served: number;
  crawlMs: number;
}

function listArg<T extends string>(args: string[], name: string, known: readonly T[]): T[] {
  const index = args.indexOf(name);
  if (index === -1) return [...known];
  const chosen = (args[index + 1] ?? '').split(',').filter(Boolean);
  for (const each of chosen) {
    if (!(known as readonly string[]).includes(each))
      throw new Error(`${name}: unknown "${each}" (known: ${known.join(', ')})`);
  }
  return chosen as T[];
}

/** Every n-th of `items`, `count` in all: a similarity set spread over the whole list, not its first entries. */
function spread<T>(items: readonly T[], count: number): T[] {
  const step = Math.max(1, Math.floor(items.length / count));
  return items.filter((_, index) => index % step === 0).slice(0, count);
}

function payloadFor(strategy: Strategy, setup: FocusSetup, maxPages: number, concurrency: number) {
  const common = {
    seeds: setup.seeds,
    maxPages,
    scope: { allowedDomains: setup.web.hosts.map((origin) => new URL(origin).host) },
    politeness: { delayMs: 0, maxCrawlDelayMs: 0, perHostConcurrency: concurrency, respectRobots: true },
    // Few fetches in flight and one runner: a best-first order is only as good as the frontier it is drawn
    // from, and every strategy gets the same settings.
    concurrency,
    workers: 1,
  };
  // maxResults = the budget: only maxPages (or an empty frontier) ends a crawl, so all fetch alike.
  switch (strategy) {
    case 'bfs':
      return { ...common, strategy: 'bfs' };
    case 'keyword':
      return {
        ...common,
        strategy: 'best-first',
        relevance: { query: setup.query, threshold: 0.5 },
        maxResults: maxPages,
        ignoreInternal: false,
      };
    case 'tfidf':
      return {
        ...common,
        strategy: 'best-first',
        relevance: { similarTo: { urls: setup.similarTo }, threshold: 0.2 },
        maxResults: maxPages,
        ignoreInternal: false,
      };
    case 'topic':
    case 'topic-ref':
      return {
        ...common,
        strategy: 'topic',
        topics: setup.topics,
        topic: {
          mainTextStartsAtFirstParagraph: setup.mainTextStartsAtFirstParagraph,
          skipLinksWithHashOrColon: false,
          cap: strategy === 'topic' ? 'fetched' : 'discovered',
        },
      };
  }
}

/** Judges a finished crawl by the oracle: requested pages (not FRONTIER/DISALLOWED), relevant HTML among them. */
function judge(strategy: Strategy, outcome: FocusCrawlOutcome, setup: FocusSetup, served: number): Row {
  if ('rejected' in outcome) {
    return {
      strategy,
      unavailable: outcome.rejected,
      fetched: 0,
      relevant: 0,
      harvest: 0,
      served,
      crawlMs: 0,
    };
  }
  const requested = outcome.pages.filter((page) => page.type !== 'FRONTIER' && page.type !== 'DISALLOWED');
  const relevant = requested.filter(
    (page) => page.type === 'HTML' && setup.web.isRelevant(page.finalUrl ?? page.url, setup.target),
  ).length;
  const { status } = outcome;
  return {
    strategy,
    ...(status.status === 'completed' ? {} : { failed: `${status.status}: ${status.error}` }),
    fetched: requested.length,
    relevant,
    harvest: requested.length === 0 ? 0 : relevant / requested.length,
    ...(typeof status.relevantPages === 'number' ? { ownRelevant: status.relevantPages } : {}),
    ...(typeof status.harvestRate === 'number' ? { ownHarvest: status.harvestRate } : {}),
    served,
    crawlMs: outcome.crawlMs,
  };
}

function printTable(setup: FocusSetup, rows: Row[], concurrency: number): void {
  const bfs = rows.find((row) => row.strategy === 'bfs' && !row.unavailable && !row.failed);
  const header = [
    'strategy',
    'fetched',
    'relevant',
    'harvest',
    '× BFS',
    `target ≥ ${TARGET_RATIO}×`,
    'trawl says',
    'web served',
    'crawl s',
  ];
  const body = rows.map((row) => {
    if (row.unavailable) return [row.strategy, `not available (${row.unavailable.slice(0, 90)})`];
    const ratio = bfs && bfs.harvest > 0 ? row.harvest / bfs.harvest : null;
    const own =
      row.ownRelevant === undefined
        ? '-'
        : `${row.ownRelevant} rel, ${row.ownHarvest === undefined ? '-' : row.ownHarvest.toFixed(3)}`;
    return [
      row.strategy + (row.failed ? ` (${row.failed})` : ''),
      String(row.fetched),
      String(row.relevant),
      row.harvest.toFixed(3),
      ratio === null ? '-' : `${ratio.toFixed(2)}×`,
      row.strategy === 'bfs' || ratio === null ? '' : ratio >= TARGET_RATIO ? 'met' : 'NOT met',
      own,
      String(row.served),
      (row.crawlMs / 1000).toFixed(1),
    ];
  });
  const widths = header.map((h, i) =>
    Math.max(h.length, ...body.filter((cells) => cells.length > 2).map((cells) => (cells[i] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells.length <= 2
      ? cells.join('  ')
      : cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  process.stdout.write(
    `\n${setup.label}; concurrency ${concurrency}\n${line(header)}\n${body.map(line).join('\n')}\n`,
  );
}

async function topicSetup(args: string[]): Promise<FocusSetup> {
  const target = stringArg(args, '--topic', 'tennis');
  const web = await startTopicWeb({
    seed: numberArg(args, '--seed', 1),
    pagesPerTopic: numberArg(args, '--pages-per-topic', 600),
  });
  if (!web.topics.includes(target)) {
    await web.close();
    throw new Error(`--topic: "${target}" is not one of ${web.topics.join(', ')}`);
  }
  const vocabulary = web.vocabularyOf(target);
  const relevantPages = web.pages.filter((page) => web.isRelevant(page.url, target));
  return {
    web,
    target,
    label:
      `topical web: ${web.topics.length} topics × ${relevantPages.length} pages on ${web.hosts.length} hosts, ` +
      `target "${target}", seeds: the ${web.homes.length} host portals (every topic linked alike)`,
    // Portals, not the topic's hub: a crawl must find the topic first, and then keep to it.
    seeds: [...web.homes],
    query: `${vocabulary[0]} (${vocabulary.slice(1, 6).join(' ')})`,
    similarTo: spread(relevantPages.slice(1), SIMILAR_PAGES).map((page) => page.url),
    topics: vocabulary.slice(0, 5) as string[],
    mainTextStartsAtFirstParagraph: false,
  };
}

async function wikiSetup(args: string[]): Promise<FocusSetup | string> {
  const missing = wikiDataMissing();
  if (missing !== null) return missing;
  const target = stringArg(args, '--subject', 'subject.Science.Physics');
  const web = await startWikiWeb();
  const articles = web.articlesIn(target);
  if (articles.length === 0) {
    await web.close();
    throw new Error(`--subject: no article is in "${target}"`);
  }
  // The defaults are for physics; another subject starts from its first article, with its name as the query.
  const physics = target === 'subject.Science.Physics';
  const seedArticle = physics ? 'Physics' : articles[0]!;
  const word = target.split('.').at(-1)!.toLowerCase().replace(/_/g, ' ');
  return {
    web,
    target,
    label:
      `Wikispeedia web: ${web.pages.length} articles on ${web.hosts.length} hosts, target ${target} ` +
      `(${articles.length} articles), seed ${seedArticle}`,
    seeds: [web.urlOf(seedArticle)],
    query: physics ? 'physics (energy force particle quantum electron atom star planet orbit)' : word,
    similarTo: spread(
      articles.filter((article) => article !== seedArticle),
      SIMILAR_PAGES,
    ).map((article) => web.urlOf(article)),
    topics: physics
      ? ['physics', 'energy', 'particle', 'quantum', 'electron', 'atom', 'star', 'planet', 'orbit', 'space']
      : word.split(' '),
    mainTextStartsAtFirstParagraph: true,
  };
}

export async function run(args: string[]): Promise<void> {
  const maxPages = numberArg(args, '--max-pages', 500);
  const concurrencies = stringArg(args, '--concurrency', '1,4')
    .split(',')
    .map((each) => Number(each));
  if (concurrencies.some((each) => !(Number.isInteger(each) && each >= 1 && each <= 16)))
    throw new Error('--concurrency: a comma-separated list of integers in [1, 16]');
  const webs = listArg(args, '--web', WEBS);
  const strategies = listArg(args, '--only', STRATEGIES);
  if (!strategies.includes('bfs')) process.stdout.write('(without bfs there is no ratio to print)\n');
  process.stdout.write(
    `budget ${maxPages} pages per crawl (maxPages), delay 0, concurrency ${concurrencies.join(' and ')}, one runner; ` +
      'relevant = by the web’s oracle on the crawl’s own page list\n',
  );
  const trawl = await FocusTrawl.open();
  const failures: string[] = [];
  try {
    for (const name of webs as WebName[]) {
      const setup = name === 'topic' ? await topicSetup(args) : await wikiSetup(args);
      if (typeof setup === 'string') {
        process.stdout.write(`\n${name} web skipped: ${setup}\n`);
        continue;
      }
      setup.query = stringArg(args, '--query', setup.query);
      if (args.includes('--topics'))
        setup.topics = stringArg(args, '--topics', '').split(',').filter(Boolean);
      try {
        process.stdout.write(
          `\n${name}: query ${JSON.stringify(setup.query)}; topics ${JSON.stringify(setup.topics)}; ` +
            `similarTo ${setup.similarTo.length} pages\n`,
        );
        for (const concurrency of concurrencies) {
          const rows: Row[] = [];
          for (const strategy of strategies) {
            process.stdout.write(`${name}/${strategy}, concurrency ${concurrency}: crawling…\n`);
            try {
              const servedBefore = setup.web.pageRequests();
              const outcome = await trawl.crawl(payloadFor(strategy, setup, maxPages, concurrency));
              const row = judge(strategy, outcome, setup, setup.web.pageRequests() - servedBefore);
              rows.push(row);
              if (row.failed) failures.push(`${name}/${strategy}: ${row.failed}`);
            } catch (error) {
              const message = error instanceof Error ? error.message : String(error);
              failures.push(`${name}/${strategy}: ${message}`);
              rows.push({
                strategy,
                failed: message,
                fetched: 0,
                relevant: 0,
                harvest: 0,
                served: 0,
                crawlMs: 0,
              });
            }
          }
          printTable(setup, rows, concurrency);
        }
      } finally {
        await setup.web.close();
      }
    }
  } finally {
    await trawl.close();
  }
  process.stdout.write(
    '\nfetched: pages the crawl requested (its page list less FRONTIER and DISALLOWED); relevant: HTML pages ' +
      'the oracle labels with the target; harvest = relevant / fetched; × BFS: harvest over BFS’s on the same ' +
      'web; trawl says: the crawl’s own relevantPages and harvestRate (its scorer’s threshold, not the oracle); ' +
      'web served: page requests the web answered during the crawl (≈ fetched; TF-IDF adds its similarity set).\n',
  );
  if (failures.length > 0) throw new Error(`crawl(s) failed:\n  ${failures.join('\n  ')}`);
}
