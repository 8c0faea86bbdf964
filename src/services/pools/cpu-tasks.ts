// The CPU-bound halves of /v1/score and /v1/extract (parsing, extraction, scoring), as functions of plain,
// structured-cloneable input: cpu-pool.ts runs them on a worker thread (this file is the piscina worker's
// module) or, for small input, inline. Fetching stays with the services on the event loop; only text goes in.
import { deserialize, serialize } from 'node:v8';
import secureJson from 'secure-json-parse';
import {
  type ExtractionMethod,
  type ExtractOptions,
  extractedMarkdown,
  extractMainContent,
  extractMainText,
  pageMarkdown,
  plainMainText,
} from '../../crawler/extract/index.js';
import { type PageReading, readPage } from '../../crawler/extract/page-reading.js';
import { canonicalizeUrl } from '../../crawler/frontier/canonicalize.js';
import { LruMap } from '../../crawler/lru-map.js';
import { LINK_FORMS_REMEMBERED, type ParsedPage } from '../../crawler/parse/parse-html.js';
import { textPage } from '../../crawler/parse/text-page.js';
import type { Graph } from '../../crawler/rank/graph.js';
import {
  PAGERANK_DEFAULTS,
  type PageRankOptions,
  type PageRankResult,
  pageRank,
} from '../../crawler/rank/pagerank.js';
import {
  DEFAULT_WORK_BUDGET,
  type GraphStructure,
  graphStructure,
  type StructureOptions,
  type VertexStructure,
} from '../../crawler/rank/structure.js';
import {
  type Corpus,
  CorpusBuilder,
  createRelevanceScorer,
  type RelevanceScorer,
} from '../../crawler/score/index.js';
import { WordCounter, type WordCounterJson } from '../../crawler/stats/index.js';
import {
  compareTexts,
  simhash,
  simhashOfContentWords,
  type TextComparison,
} from '../../crawler/text/simhash.js';
import { tokenize, withoutStopWords, wordsAndReferenceTokens } from '../../crawler/text/tokenize.js';
import { type TextSettings, WordModel } from '../../crawler/text/word-model.js';
import { isPlainTextBody } from '../../crawler/vocabulary.js';
import { TrawlError, type TrawlErrorCode } from '../../errors.js';
import { ExtractRequest, type ExtractResult } from '../../schemas/extract.js';
import { ScoreRequest } from '../../schemas/score.js';
import { bodyValidator, nestsTooDeep, type ValidationIssue } from '../../validation.js';
import { findUnstorableText } from '../content/input-text.js';
import { type StoredBody, storedBodyPrefix } from '../content/stored-body.js';
import { parseAsCrawled } from '../use-cases/documents.js';

/** A document's content: text, or HTML with the URL its links resolve against ('about:blank' without one). */
export type TaskDocument = { text: string } | { html: string; url: string };

/** A stored corpus's counts (StoredCorpus): N and each word's document frequency. */
export interface CorpusCounts {
  documentCount: number;
  frequencies: ReadonlyMap<string, number>;
}

/**
 * A stored corpus as v8.serialize bytes of `[documentCount, frequencies]` in shared memory: handed to a thread
 * without a copy, where its Map would be cloned entry by entry on the event loop for every request (for a
 * large corpus, long enough to stall every other request).
 */
export type SharedCorpus = SharedArrayBuffer;

export interface ScoreTask {
  userAgent: string;
  scorer:
    | { query: string }
    /** corpus null: built from the similarity set plus the scored documents, as a crawl without one does. */
    | { similarTo: TaskDocument[]; corpus: CorpusCounts | SharedCorpus | null };
  /** TF-IDF's stop words and stemming (default: the default settings) */
  text?: TextSettings;
  documents: TaskDocument[];
}

export interface ScoreTaskResult {
  kind: RelevanceScorer['kind'];
  /** Per document, in request order: its score and the title its page was parsed with. */
  scores: number[];
  titles: string[];
}

export interface ExtractTask {
  html: string;
  options: ExtractOptions;
  /** also the main content as Markdown, links resolved against options.baseUrl */
  markdown?: boolean;
  /** A fetched page: its URL after redirects, and whether the fetch cut its body. */
  fetched?: { url: string; truncated: boolean };
}

/** A crawled page's stored HTML, its URL after redirects and the crawl's extraction method. */
export interface MarkdownTask {
  html: string;
  url: string;
  method: ExtractionMethod;
}

/** A crawled page's decoded HTML (its first PARSE_MAX_BYTES), its URL and how the crawl reads it. */
export interface ReadPageTask {
  html: string;
  url: string;
  method: ExtractionMethod;
  robotsToken: string;
  words: boolean;
}

/**
 * The link forms this thread has resolved, for every crawl's pages: the crawler's canonicalizer is the same for
 * all of them, and a site's menus and footers repeat the same hrefs on each of its pages.
 */
const linkForms = new LruMap<string, string | null>(LINK_FORMS_REMEMBERED);

function readCrawledPage({ html, url, method, robotsToken, words }: ReadPageTask): PageReading {
  return readPage(
    html,
    url,
    { normalizeUrl: (absolute) => canonicalizeUrl(absolute), linkForms, robotsToken, words },
    method,
  );
}

/**
 * A stored page's main text (the crawl-text job, a page's include=text) from its body's first `maxBytes`
 * bytes, the most of a page the crawl parses: inflating, decoding, extracting and counting a whole huge body
 * would hold gigabytes and block the event loop.
 */
export interface StoredTextTask {
  /** The stored body, or its first storedPrefixBytes(maxBytes) bytes (moved to the thread, not copied). */
  body: StoredBody;
  contentType: string | null;
  method: ExtractionMethod;
  maxBytes: number;
  /** Also the text's words, counted, for the crawl's word counter. */
  countWords: boolean;
}

/** What the crawl-text job keeps of a page's main text (textFigures). */
export interface TextFigures {
  words: WordCounterJson;
  simhash: string | null;
}

export interface StoredTextResult {
  text: string;
  /** The text's words counted (WordCounter.toJSON()), when asked for. */
  words: WordCounterJson | null;
  /** The simhash of the text (docs/reference.md#near-duplicates); null when it has no kept word. */
  simhash: string | null;
}

/**
 * The bodies of an export's record (JSON lines' include=html, markdown, text), each as its JSON string's UTF-8
 * bytes, ready to be sent: decoding, Markdown and escaping of megabytes happen here, not on the event loop.
 * The HTML and the Markdown made from it come from the stored body's first `maxBytes`; the Markdown is cut at
 * `maxBytes` characters too.
 */
export interface ExportBodyTask {
  /** The stored body, or at least its first storedPrefixBytes(maxBytes) (moved to the thread, not copied). */
  body: StoredBody | null;
  contentType: string | null;
  maxBytes: number;
  html: boolean;
  /** the main content as Markdown too, its links resolved against `url` */
  markdown: { url: string; method: ExtractionMethod } | null;
  /** a stored main text to encode, already cut */
  text: string | null;
}

export interface ExportBodyResult {
  html: Uint8Array | null;
  markdown: Uint8Array | null;
  text: Uint8Array | null;
  /** the body went on past maxBytes */
  cut: boolean;
}

/** A large JSON body of POST /v1/score or /v1/extract, read off the event loop (plugins/large-json-body.ts). */
export interface JsonBodyTask {
  /** the body as received (its buffer moves to the thread, not copied) */
  bytes: Uint8Array;
  route: keyof typeof BODY_SCHEMAS;
}

/** What the inline path would have found, in its order: nesting depth, JSON syntax, unstorable text, the schema. */
export type JsonBodyResult =
  | { ok: true; body: unknown }
  | { ok: false; tooDeep: true }
  | { ok: false; syntax: true }
  | { ok: false; unstorable: { path: Array<string | number>; message: string } }
  | { ok: false; issues: ValidationIssue[] };

/**
 * PageRank of a graph (a ranking, a crawl's GEXF export, the report's top pages): the graph's arrays without its
 * names, which the ranks do not need and which would be cloned string by string. Its cost is the iterations
 * times the edges, and a graph that never converges (damping 1 on a bipartite graph) runs all maxIterations.
 */
export interface PageRankTask {
  graph: GraphArrays;
  options: PageRankOptions;
}

export type GraphArrays = Omit<Graph, 'names' | 'indexOf'>;

/**
 * The structure figures of a graph (a ranking's `graph`, a crawl graph export's per-vertex attributes): its
 * searches stop with bounds at options.deadlineAt, which the caller sets before the pool's deadline stops
 * the thread.
 */
export interface GraphStructureTask {
  graph: GraphArrays;
  options: StructureOptions;
}

/** A graph's arrays and counts, for PageRankTask. */
export function graphArrays(graph: Graph): GraphArrays {
  const { vertexCount, namedVertexCount, edgeCount, outOffsets, outTargets, inDegree, outDegree } = graph;
  const { droppedSelfLoops, droppedDuplicates } = graph;
  return {
    vertexCount,
    namedVertexCount,
    edgeCount,
    outOffsets,
    outTargets,
    inDegree,
    outDegree,
    droppedSelfLoops,
    droppedDuplicates,
  };
}

export interface CpuTasks {
  score: (task: ScoreTask) => ScoreTaskResult;
  parseJsonBody: (task: JsonBodyTask) => JsonBodyResult;
  /**
   * POST /v1/extract's response body as UTF-8 JSON, serialized where it was computed: a large page's text and
   * HTML, cloned back and serialized on the event loop, would hold it for as long as the rest of the request.
   */
  extract: (task: ExtractTask) => Uint8Array;
  /** A stored page's main content as Markdown (the JSONL export's include=markdown). */
  markdown: (task: MarkdownTask) => string;
  pageRank: (task: PageRankTask) => PageRankResult;
  graphStructure: (task: GraphStructureTask) => { figures: GraphStructure; perVertex: VertexStructure };
  storedText: (task: StoredTextTask) => StoredTextResult;
  /** A crawled page's links, title and words (parseHtml) and its main text, from one walk over its HTML. */
  readPage: (task: ReadPageTask) => PageReading;
  /**
   * A stored main text's words counted (WordCounter.toJSON()) and, with `simhash`, its simhash (an HTML page's:
   * a document has none): a text read as its page was fetched, for the crawl-text job.
   */
  textFigures: (task: { text: string; simhash: boolean }) => TextFigures;
  /** How a recrawl's changed page's main text compares with the earlier one. */
  compareTexts: (task: { before: string; after: string }) => TextComparison;
  exportBody: (task: ExportBodyTask) => ExportBodyResult;
}
export type CpuTaskName = keyof CpuTasks;

function pageOf(doc: TaskDocument, userAgent: string): ParsedPage {
  return 'text' in doc ? textPage(doc.text) : parseAsCrawled(doc.html, doc.url, userAgent);
}

function corpusOf(counts: CorpusCounts | SharedCorpus): Corpus {
  const { documentCount, frequencies } = counts instanceof SharedArrayBuffer ? unshareCorpus(counts) : counts;
  return { documentCount, documentFrequency: (word) => frequencies.get(word) ?? 0 };
}

// Encoded once per loaded corpus (the repository keeps loaded corpora): the cost is paid on its first request.
const sharedCorpora = new WeakMap<CorpusCounts, SharedCorpus>();

function shareCorpus(counts: CorpusCounts): SharedCorpus {
  let shared = sharedCorpora.get(counts);
  if (!shared) {
    const bytes = serialize([counts.documentCount, counts.frequencies]);
    shared = new SharedArrayBuffer(bytes.length);
    new Uint8Array(shared).set(bytes);
    sharedCorpora.set(counts, shared);
  }
  return shared;
}

function unshareCorpus(shared: SharedCorpus): CorpusCounts {
  const [documentCount, frequencies] = deserialize(new Uint8Array(shared)) as [number, Map<string, number>];
  return { documentCount, frequencies };
}

function score(task: ScoreTask): ScoreTaskResult {
  const pages = task.documents.map((doc) => pageOf(doc, task.userAgent));
  let scorer: RelevanceScorer;
  if ('query' in task.scorer) {
    scorer = createRelevanceScorer({ query: task.scorer.query });
  } else {
    const similar = task.scorer.similarTo.map((doc) => pageOf(doc, task.userAgent));
    const model = task.text ? new WordModel(task.text) : WordModel.default;
    let corpus: Corpus;
    if (task.scorer.corpus !== null) corpus = corpusOf(task.scorer.corpus);
    else {
      const builder = new CorpusBuilder();
      for (const page of [...similar, ...pages]) builder.addDocument(model.words(page.tokens));
      corpus = builder.toCorpus();
    }
    scorer = createRelevanceScorer({ similaritySet: similar, corpus, model });
  }
  return {
    kind: scorer.kind,
    scores: pages.map((page) => scorer.score(page)),
    titles: pages.map((p) => p.title),
  };
}

function extract(task: ExtractTask): Uint8Array {
  const extracted = extractMainContent(task.html, task.options);
  const result: ExtractResult = task.fetched
    ? { ...extracted, truncated: extracted.truncated || task.fetched.truncated, url: task.fetched.url }
    : { ...extracted };
  if (task.markdown) result.markdown = extractedMarkdown(extracted, task.options.baseUrl);
  return Buffer.from(JSON.stringify(result));
}

const BODY_SCHEMAS = { score: ScoreRequest, extract: ExtractRequest } as const;
const bodyValidators = new Map<string, (data: unknown) => ValidationIssue[] | null>();

/**
 * Fastify's own JSON body path, step for step: the nesting bound (plugins/json-body.ts), secure-json-parse refusing __proto__ and constructor.prototype
 * (Fastify's defaults), then the text PostgreSQL cannot store (plugins/problems.ts), then the route's schema
 * with the app's Ajv options (validation.ts). Only the outcome crosses back.
 */
function parseJsonBody(task: JsonBodyTask): JsonBodyResult {
  const text = new TextDecoder().decode(task.bytes);
  if (nestsTooDeep(text)) return { ok: false, tooDeep: true };
  let body: unknown;
  try {
    body = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    return { ok: false, syntax: true };
  }
  const unstorable = findUnstorableText(body);
  if (unstorable) return { ok: false, unstorable };
  let validate = bodyValidators.get(task.route);
  if (!validate) {
    validate = bodyValidator(BODY_SCHEMAS[task.route]);
    bodyValidators.set(task.route, validate);
  }
  const issues = validate(body);
  return issues ? { ok: false, issues } : { ok: true, body };
}

const markdown = (task: MarkdownTask): string => pageMarkdown(task.html, task.url, task.method);

function storedText(task: StoredTextTask): StoredTextResult {
  const body = storedBodyPrefix(task.body, task.contentType, task.maxBytes).text;
  const text = isPlainTextBody(task.contentType)
    ? plainMainText(body)
    : extractMainText(body, { method: task.method });
  if (!task.countWords) return { text, words: null, simhash: simhash(text) };
  return { text, ...textFigures({ text, simhash: true }) };
}

function exportBody(task: ExportBodyTask): ExportBodyResult {
  const json = (value: string) => Buffer.from(JSON.stringify(value));
  const body = task.body && storedBodyPrefix(task.body, task.contentType, task.maxBytes);
  let cut = body?.cut ?? false;
  let markdown: string | null = null;
  if (task.markdown && body) {
    markdown = pageMarkdown(body.text, task.markdown.url, task.markdown.method);
    // Markdown spells each link's URL out in full: a page of links grows past its HTML
    if (markdown.length > task.maxBytes) {
      markdown = markdown.slice(0, task.maxBytes).replace(/[\uD800-\uDBFF]$/, '');
      cut = true;
    }
  }
  return {
    html: task.html && body ? json(body.text) : null,
    markdown: markdown === null ? null : json(markdown),
    text: task.text === null ? null : json(task.text),
    cut,
  };
}

function textFigures({ text, simhash: hashed }: { text: string; simhash: boolean }): TextFigures {
  const counter = new WordCounter();
  if (!hashed) {
    counter.add(tokenize(text));
    return { words: counter.toJSON(), simhash: null };
  }
  // the counts' words and the simhash's kept words, from one pass over the text
  const { words, referenceTokens } = wordsAndReferenceTokens(text);
  counter.add(words);
  return { words: counter.toJSON(), simhash: simhashOfContentWords(withoutStopWords(referenceTokens)) };
}

const rankGraph = ({ graph, options }: PageRankTask): PageRankResult =>
  pageRank({ ...graph, names: [], indexOf: () => undefined }, options);

export const cpuTasks: CpuTasks = {
  score,
  extract,
  parseJsonBody,
  markdown,
  pageRank: rankGraph,
  graphStructure: ({ graph, options }: GraphStructureTask) => graphStructure(graph, options),
  storedText,
  readPage: readCrawledPage,
  textFigures,
  compareTexts: ({ before, after }) => compareTexts(before, after),
  exportBody,
};

/** Characters of HTML per byte of its gzip, about: what a stored body's cost grows with, before it is read. */
const GZIP_TEXT_RATIO = 4;

const bodyChars = (body: StoredBody | null) =>
  body === null ? 0 : body.bytes.length * (body.gzip ? GZIP_TEXT_RATIO : 1);

const documentChars = (docs: readonly TaskDocument[]) =>
  docs.reduce((sum, doc) => sum + ('text' in doc ? doc.text.length : doc.html.length), 0);

/**
 * The characters a task parses, for PageRank the vertices and edges times the iterations it may run, for the
 * structure figures the edge visits their searches may make: what its cost grows with (cpu-pool.ts runs small
 * tasks inline).
 */
export function taskChars<N extends CpuTaskName>(name: N, input: Parameters<CpuTasks[N]>[0]): number {
  if (name === 'pageRank') {
    const { graph, options } = input as PageRankTask;
    const iterations = options.maxIterations ?? PAGERANK_DEFAULTS.maxIterations;
    return (graph.vertexCount + graph.edgeCount) * iterations;
  }
  if (name === 'graphStructure') {
    // the searches may spend their budget, or a search from every source on a small graph
    const { graph, options } = input as GraphStructureTask;
    const size = graph.vertexCount + graph.edgeCount;
    return size + Math.min(options.workBudget ?? DEFAULT_WORK_BUDGET, graph.vertexCount * size);
  }
  if (name === 'extract' || name === 'markdown' || name === 'readPage') {
    return (input as ExtractTask | MarkdownTask | ReadPageTask).html.length;
  }
  if (name === 'parseJsonBody') return (input as JsonBodyTask).bytes.length;
  if (name === 'textFigures') return (input as { text: string }).text.length;
  if (name === 'compareTexts') {
    const { before, after } = input as { before: string; after: string };
    return before.length + after.length;
  }
  if (name === 'exportBody') {
    const { body, maxBytes, text } = input as ExportBodyTask;
    return Math.min(maxBytes, bodyChars(body)) + (text?.length ?? 0);
  }
  if (name === 'storedText') {
    const { body, maxBytes } = input as StoredTextTask;
    return Math.min(maxBytes, bodyChars(body));
  }
  const task = input as ScoreTask;
  return (
    documentChars(task.documents) + ('similarTo' in task.scorer ? documentChars(task.scorer.similarTo) : 0)
  );
}

/** The task's input as it crosses to a thread: a stored corpus goes as its shared bytes. */
export function threadInput<N extends CpuTaskName>(
  name: N,
  input: Parameters<CpuTasks[N]>[0],
): Parameters<CpuTasks[N]>[0] {
  if (name !== 'score') return input;
  const task = input as ScoreTask;
  if (!('similarTo' in task.scorer)) return task;
  const { corpus } = task.scorer;
  if (corpus === null || corpus instanceof SharedArrayBuffer) return task;
  return { ...task, scorer: { ...task.scorer, corpus: shareCorpus(corpus) } };
}

/** What moves to the thread instead of being copied: a large body's own bytes. */
export function threadTransfer<N extends CpuTaskName>(
  name: N,
  input: Parameters<CpuTasks[N]>[0],
): ArrayBuffer[] {
  const bytes =
    name === 'parseJsonBody'
      ? (input as JsonBodyTask).bytes
      : name === 'storedText' || name === 'exportBody'
        ? ((input as StoredTextTask | ExportBodyTask).body?.bytes ?? null)
        : null;
  if (bytes === null) return [];
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return whole && bytes.buffer instanceof ArrayBuffer ? [bytes.buffer] : [];
}

/** A TrawlError as it crosses the thread boundary (structured clone keeps only an Error's message). */
export interface TaskFault {
  code: TrawlErrorCode;
  message: string;
  field?: string;
  detail?: Record<string, unknown>;
}

export type TaskOutcome<N extends CpuTaskName> = { value: ReturnType<CpuTasks[N]> } | { fault: TaskFault };

export interface TaskMessage<N extends CpuTaskName = CpuTaskName> {
  name: N;
  input: Parameters<CpuTasks[N]>[0];
  /** Set to 1 when a thread starts the task: a deadline that passes before then found the pool busy. */
  started?: Int32Array;
}

/** Runs one task; a TrawlError (bad input) comes back as a fault, anything else throws (a 500). */
export function runTask<N extends CpuTaskName>(message: TaskMessage<N>): TaskOutcome<N> {
  if (message.started) Atomics.store(message.started, 0, 1);
  const task = cpuTasks[message.name] as (input: TaskMessage<N>['input']) => ReturnType<CpuTasks[N]>;
  try {
    return { value: task(message.input) };
  } catch (error) {
    if (!(error instanceof TrawlError)) throw error;
    return {
      fault: {
        code: error.code,
        message: error.message,
        ...(error.field !== undefined ? { field: error.field } : {}),
        ...(error.detail !== undefined ? { detail: error.detail } : {}),
      },
    };
  }
}

// piscina calls the module's default export with each task.
export default runTask;
