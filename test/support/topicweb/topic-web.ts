// A seeded topical web for judging focused crawls: every page belongs to one topic that only the ground truth
// knows; its title, headings and text mix the topic's vocabulary with shared filler, and its links prefer pages
// of the same topic (as on the real web, where topical locality makes focused crawling pay), spread over
// several loopback hosts. Pages are built from (seed, page id) alone, so one seed gives one web.

import { escapeAttribute, escapeText } from '../testweb/html.js';
import { Rng, VOCABULARY } from '../testweb/random.js';
import {
  type LabelledModel,
  type LabelledPage,
  type LabelledWeb,
  type PageLink,
  serveLabelledWeb,
} from './labelled-web.js';
import { DEFAULT_TOPICS, TOPIC_VOCABULARIES } from './vocabulary.js';

export interface TopicWebOptions {
  seed?: number;
  /** Loopback hosts 127.0.0.2 …; default 4. Every topic's pages are spread over all of them. */
  hosts?: number;
  /** Pages per topic; default 250. */
  pagesPerTopic?: number;
  /** Topic names, keys of TOPIC_VOCABULARIES; default DEFAULT_TOPICS (six). */
  topics?: readonly string[];
  /** Outward links of an ordinary page besides its home link; default 8 (a topic's hub has three times as many). */
  linksPerPage?: number;
  /** Share of a page's random links that go to its own topic; default 0.8. */
  sameTopicShare?: number;
  /** Share of a page's text words drawn from its topic's vocabulary (the rest is shared filler); default 0.25. */
  topicWordShare?: number;
  /** Port shared by all hosts; default 0 (ephemeral). */
  port?: number;
}

export type ResolvedTopicWebOptions = Required<Omit<TopicWebOptions, 'port'>>;

export interface TopicWebModel extends LabelledModel {
  topics: readonly string[];
  /** The topic's hub page (page 0 of the topic): the natural seed of a focused crawl. */
  hubOf(topic: string): string;
  /** Host home pages (`/`): portals linking a few pages of every topic; labelled with no topic. */
  homes: readonly string[];
}

export interface TopicWeb extends LabelledWeb {
  topics: readonly string[];
  hubOf(topic: string): string;
  homes: readonly string[];
  /** The topic's word list, its name first: what a user would write a query from. */
  vocabularyOf(topic: string): readonly string[];
}

/** Share of words from some other topic's vocabulary: off-topic pages mention a topic word now and then. */
const STRAY_WORD_SHARE = 0.05;
/** Share of anchors that are filler ("river market") instead of the target's title. */
const FILLER_ANCHOR_SHARE = 0.3;

export function resolveTopicWebOptions(opts: TopicWebOptions = {}): ResolvedTopicWebOptions {
  const resolved = {
    seed: opts.seed ?? 1,
    hosts: opts.hosts ?? 4,
    pagesPerTopic: opts.pagesPerTopic ?? 250,
    topics: opts.topics ?? DEFAULT_TOPICS,
    linksPerPage: opts.linksPerPage ?? 8,
    sameTopicShare: opts.sameTopicShare ?? 0.8,
    topicWordShare: opts.topicWordShare ?? 0.25,
  };
  if (resolved.hosts < 1 || resolved.hosts > 250) throw new RangeError('topic web: hosts must be 1…250');
  if (resolved.pagesPerTopic < 2) throw new RangeError('topic web: pagesPerTopic must be ≥ 2');
  if (resolved.topics.length < 2) throw new RangeError('topic web: at least two topics');
  if (new Set(resolved.topics).size !== resolved.topics.length)
    throw new RangeError('topic web: repeated topic');
  for (const topic of resolved.topics) {
    if (TOPIC_VOCABULARIES[topic] === undefined)
      throw new RangeError(
        `topic web: no vocabulary for "${topic}" (known: ${Object.keys(TOPIC_VOCABULARIES).join(', ')})`,
      );
  }
  for (const share of [resolved.sameTopicShare, resolved.topicWordShare]) {
    if (!(share >= 0 && share <= 1)) throw new RangeError('topic web: shares must be in [0, 1]');
  }
  return resolved;
}

interface TopicPageFacts {
  topicIndex: number;
  id: number;
  home: string;
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** A topic word, skewed towards the head of the list (the topic's own name is drawn about a fifth of the time). */
function topicWord(rng: Rng, vocabulary: readonly string[]): string {
  return vocabulary[Math.floor(vocabulary.length * rng.next() ** 2)]!;
}

/** Builds the pages for the given origins (one per host); exported for tests that need no server. */
export function buildTopicWeb(options: ResolvedTopicWebOptions, hosts: readonly string[]): TopicWebModel {
  const { seed, topics, pagesPerTopic, linksPerPage, sameTopicShare, topicWordShare } = options;
  const vocabularies = topics.map((topic) => TOPIC_VOCABULARIES[topic]!);
  const facts = new Map<LabelledPage, TopicPageFacts>();
  const count = topics.length * pagesPerTopic;

  // Pass 1: where each page lives and what it is called (anchors need their targets' titles).
  const urls: string[] = [];
  const titles: string[] = [];
  for (let id = 0; id < count; id++) {
    const vocabulary = vocabularies[Math.floor(id / pagesPerTopic)]!;
    const rng = Rng.for(seed, 'page', id);
    const origin = hosts[rng.int(hosts.length)]!;
    // The path is filler only: a URL must not give the label away.
    urls.push(`${origin}/${rng.pick(VOCABULARY)}/${rng.pick(VOCABULARY)}-${id}.html`);
    titles.push(
      `${capitalize(topicWord(rng, vocabulary))} ${rng.pick(VOCABULARY)} ${topicWord(rng, vocabulary)}`,
    );
  }

  // Pass 2: links, 80 % (sameTopicShare) to the page's own topic, plus a chain through each topic so that every
  // page of a topic is reachable from its hub.
  const pages: LabelledPage[] = [];
  for (let id = 0; id < count; id++) {
    const topicIndex = Math.floor(id / pagesPerTopic);
    const k = id % pagesPerTopic;
    const rng = Rng.for(seed, 'links', id);
    const targets = new Set<number>([topicIndex * pagesPerTopic + ((k + 1) % pagesPerTopic)]);
    const wanted = (k === 0 ? 3 : 1) * linksPerPage;
    for (let attempt = 0; targets.size < wanted && attempt < wanted * 4; attempt++) {
      let targetTopic = topicIndex;
      if (!rng.chance(sameTopicShare))
        targetTopic = (topicIndex + 1 + rng.int(topics.length - 1)) % topics.length;
      const target = targetTopic * pagesPerTopic + rng.int(pagesPerTopic);
      if (target !== id) targets.add(target);
    }
    const links: PageLink[] = [...targets].map((target) => ({
      url: urls[target]!,
      text: rng.chance(FILLER_ANCHOR_SHARE)
        ? `${rng.pick(VOCABULARY)} ${rng.pick(VOCABULARY)}`
        : titles[target]!,
    }));
    const url = urls[id]!;
    const page: LabelledPage = { url, title: titles[id]!, labels: [topics[topicIndex]!], links };
    pages.push(page);
    facts.set(page, { topicIndex, id, home: `${new URL(url).origin}/` });
  }

  // Host home pages: portals with a few pages of every topic, and the hubs.
  const homes: string[] = [];
  hosts.forEach((origin, hostIndex) => {
    const rng = Rng.for(seed, 'home', hostIndex);
    const links: PageLink[] = [];
    topics.forEach((_, topicIndex) => {
      const hub = topicIndex * pagesPerTopic;
      links.push({ url: urls[hub]!, text: titles[hub]! });
      for (let i = 0; i < 3; i++) {
        const target = topicIndex * pagesPerTopic + 1 + rng.int(pagesPerTopic - 1);
        if (!links.some((link) => link.url === urls[target]))
          links.push({ url: urls[target]!, text: titles[target]! });
      }
    });
    const home = `${origin}/`;
    homes.push(home);
    pages.push({
      url: home,
      title: `${capitalize(rng.pick(VOCABULARY))} ${rng.pick(VOCABULARY)} portal`,
      labels: [],
      links,
    });
  });

  const render = (page: LabelledPage): string => {
    const pageFacts = facts.get(page);
    const parts = [
      '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
      `<title>${escapeText(page.title)}</title>\n</head>\n<body>\n`,
    ];
    if (pageFacts === undefined) {
      // A home page: a plain list of links.
      parts.push(`<h1>${escapeText(page.title)}</h1>\n<ul>\n`);
      for (const link of page.links) parts.push(`<li>${anchor(link)}</li>\n`);
      parts.push('</ul>\n</body>\n</html>\n');
      return parts.join('');
    }
    const rng = Rng.for(seed, 'text', pageFacts.id);
    const own = vocabularies[pageFacts.topicIndex]!;
    const word = (): string => {
      const roll = rng.next();
      if (roll < topicWordShare) return topicWord(rng, own);
      if (roll < topicWordShare + STRAY_WORD_SHARE) return topicWord(rng, rng.pick(vocabularies));
      return rng.pick(VOCABULARY);
    };
    const paragraphs: string[][] = [];
    for (let p = rng.between(3, 5); p > 0; p--) {
      paragraphs.push(Array.from({ length: rng.between(40, 80) }, word));
    }
    // Links sit inside the running text, as on Wikipedia: the words around them are the page's own.
    for (const link of page.links) {
      const paragraph = rng.pick(paragraphs);
      paragraph.splice(1 + rng.int(paragraph.length - 1), 0, anchor(link));
    }
    parts.push(`<nav><a href="${escapeAttribute(pageFacts.home)}">Home</a></nav>\n`);
    parts.push(`<h1>${escapeText(page.title)}</h1>\n`);
    paragraphs.forEach((paragraph, index) => {
      if (index % 2 === 1)
        parts.push(`<h2>${capitalize(topicWord(rng, own))} ${rng.pick(VOCABULARY)}</h2>\n`);
      paragraph[0] = capitalize(paragraph[0]!);
      parts.push(`<p>${paragraph.join(' ')}.</p>\n`);
    });
    parts.push('</body>\n</html>\n');
    return parts.join('');
  };

  return {
    pages,
    topics,
    homes,
    render,
    matches: (labels, target) => labels.includes(target),
    hubOf(topic) {
      const index = topics.indexOf(topic);
      if (index === -1) throw new RangeError(`topic web: no topic "${topic}"`);
      return urls[index * pagesPerTopic]!;
    },
  };
}

function anchor(link: PageLink): string {
  return `<a href="${escapeAttribute(link.url)}">${escapeText(link.text)}</a>`;
}

export async function startTopicWeb(opts: TopicWebOptions = {}): Promise<TopicWeb> {
  const options = resolveTopicWebOptions(opts);
  const { web, model: built } = await serveLabelledWeb(options.hosts, opts.port ?? 0, (hosts) =>
    buildTopicWeb(options, hosts),
  );
  return {
    ...web,
    topics: built.topics,
    homes: built.homes,
    hubOf: (topic) => built.hubOf(topic),
    vocabularyOf(topic) {
      if (!built.topics.includes(topic)) throw new RangeError(`topic web: no topic "${topic}"`);
      return TOPIC_VOCABULARIES[topic]!;
    },
  };
}
