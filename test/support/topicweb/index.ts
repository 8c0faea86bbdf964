// Loopback webs for judging focused crawls: pages carry hidden labels (a topic, or Wikipedia categories) that a
// relevance oracle knows and the markup does not show. startTopicWeb: a seeded topical web; startWikiWeb: the
// Wikispeedia link graph. README.md beside this file describes both.

export type { LabelledPage, LabelledWeb, PageLink } from './labelled-web.js';
export { pageKey } from './labelled-web.js';
export {
  buildTopicWeb,
  resolveTopicWebOptions,
  startTopicWeb,
  type TopicWeb,
  type TopicWebModel,
  type TopicWebOptions,
} from './topic-web.js';
export { DEFAULT_TOPICS, TOPIC_VOCABULARIES } from './vocabulary.js';
export {
  buildWikiWeb,
  DEFAULT_WIKI_DATA_DIR,
  inSubject,
  startWikiWeb,
  type WikiWeb,
  type WikiWebModel,
  type WikiWebOptions,
  wikiDataMissing,
} from './wiki-web.js';
