// Use cases of the ranking resource (docs/reference.md#graph-file): rank an uploaded graph (JSON edges or a streamed
// edges file) or a crawl's link graph, store the summary and per-vertex results, read them back.
// Small graphs are ranked in the request (201); a big upload (over jobThresholds.uploadBytes) is stored in
// chunks with a queued ranking and a crawl with many links is queued too (202): the `rank` job parses and ranks.
import { randomUUID } from 'node:crypto';
import {
  ANALYSIS_DEFAULTS,
  DEFAULT_EDGE_POLICY,
  type Graph,
  GraphBuilder,
  type GraphBuilderOptions,
  type GraphStructure,
  gexfChunks,
  type PageRankOptions,
  type PageRankResult,
  parseEdgesStream,
  summarizeRanks,
} from '../../crawler/rank/index.js';
import type {
  RankingError,
  RankingParams,
  RankingRow,
  RankingSummary,
  RankingsRepository,
  RankingVertices,
  VertexSort,
} from '../../db/rankings-repo.js';
import { INTERNAL_SCOPE, listScope, scopeOwner, type TenantScope } from '../../db/tenant-scope.js';
import { InputError, TrawlError } from '../../errors.js';
import { queueRank } from '../../jobs/producers.js';
import type { JobBackend } from '../../jobs/queues.js';
import type { RankingOptions, RankingRequest, VerticesQuery } from '../../schemas/rankings.js';
import { unstorableText } from '../content/input-text.js';
import type { CpuPool } from '../pools/cpu-pool.js';
import { graphArrays } from '../pools/cpu-tasks.js';
import { chunksByTurn } from '../presentation/event-loop-turns.js';
import {
  type CreatedAtCursor,
  type NewestFirstQuery,
  paginate,
  paginateNewestFirst,
} from '../presentation/pagination.js';
import { rankedVertexView, rankingSummaryView, rankingView } from '../presentation/views.js';
import { graphJsonChunks } from './crawl-graph.js';
import type { CrawlReader } from './crawl-reader.js';

/**
 * The share of a task's deadline the structure figures' searches may take before they stop with bounds: the
 * rest is left for the figures to come back before the pool stops the thread.
 */
const STRUCTURE_DEADLINE_SHARE = 0.8;

/**
 * The edge visits the structure figures' searches may make for a ranking answered in the request (a graph of
 * at most jobThresholds' size): enough for exact figures of a few thousand pages, and a fraction of a second;
 * a job's searches get the domain's default budget.
 */
const IN_REQUEST_STRUCTURE_WORK_BUDGET = 1 << 26;

export interface RankingLimits {
  /** An uploaded edges file larger than this is a 413, counted as it streams in. */
  maxUploadBytes: number;
  maxVertices: number;
  maxEdges: number;
  /** A longer line of an edges file is a 400 (a body without newlines must not grow one string). */
  maxLineLength: number;
}

export const DEFAULT_RANKING_LIMITS: RankingLimits = {
  maxUploadBytes: 256 * 1024 * 1024,
  maxVertices: 2_000_000,
  maxEdges: 16_000_000,
  maxLineLength: 16_384,
};

/** Where ranking in the request ends and a BullMQ job (202, then poll) begins. */
export interface RankingJobThresholds {
  /** An edges file upload of more bytes than this is stored and ranked by a job; 0 sends every upload there. */
  uploadBytes: number;
  /** POST /v1/crawls/:id/rank on a crawl with more links than this is ranked by a job. */
  crawlLinks: number;
}

// 1 MiB of edges file is ~60k edges, few enough to rank and store within a request. A crawl's graph is
// read from the links table first, so the bar is lower in edges.
export const DEFAULT_RANKING_JOB_THRESHOLDS: RankingJobThresholds = {
  uploadBytes: 1024 * 1024,
  crawlLinks: 50_000,
};

export interface RankingServiceOptions {
  repository: RankingsRepository;
  crawls: CrawlReader;
  jobs: JobBackend;
  limits?: Partial<RankingLimits>;
  jobThresholds?: Partial<RankingJobThresholds>;
  /**
   * Where PageRank runs, off the event loop: a ranking's iterations times its edges can take minutes (a graph
   * that never converges runs all of maxIterations), and a process that ranks also answers requests.
   */
  cpu: CpuPool;
  /** A `rank` job's PageRank deadline (RANK_JOB_TIMEOUT_MS); a ranking in the request has the pool's. */
  jobTimeoutMs: number;
}

/** The options with every default filled in: what the ranking really ran with, stored and shown back. */
export function normalizeRankingOptions(options: RankingOptions): RankingParams {
  return {
    damping: options.damping ?? ANALYSIS_DEFAULTS.damping,
    epsilon: options.epsilon ?? ANALYSIS_DEFAULTS.epsilon,
    maxIterations: options.maxIterations ?? ANALYSIS_DEFAULTS.maxIterations,
    topK: options.topK ?? ANALYSIS_DEFAULTS.topK,
    jaccardK: options.jaccardK ?? ANALYSIS_DEFAULTS.jaccardK,
    personalization: options.personalization ?? null,
    selfLoops: options.selfLoops ?? DEFAULT_EDGE_POLICY,
    duplicateEdges: options.duplicateEdges ?? DEFAULT_EDGE_POLICY,
  };
}

const SORTS: Record<NonNullable<VerticesQuery['sort']>, VertexSort> = {
  '-pageRank': 'pageRank',
  '-inDegree': 'inDegree',
  '-outDegree': 'outDegree',
};

const INT4_MAX = 2 ** 31 - 1;

/** Vertices are listed by (measure, name): the cursor holds the last pair, the measure of the sort's type. */
function vertexCursorOf(sort: VertexSort) {
  return (value: unknown): value is [number, string] => {
    if (!Array.isArray(value) || value.length !== 2) return false;
    const [measure, vertex] = value as unknown[];
    // page_rank is float8; in_degree and out_degree are integer columns
    const measureFits =
      sort === 'pageRank'
        ? Number.isFinite(measure)
        : Number.isInteger(measure) && (measure as number) >= 0 && (measure as number) <= INT4_MAX;
    return measureFits && typeof vertex === 'string' && unstorableText(vertex) === null;
  };
}

/** Counts bytes as they stream in; the 413 comes as soon as the limit is passed, not after buffering. */
async function* limitBytes(
  chunks: AsyncIterable<Buffer | string>,
  maxBytes: number,
): AsyncGenerator<Buffer | string, void, undefined> {
  let bytes = 0;
  for await (const chunk of chunks) {
    bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    if (bytes > maxBytes) {
      throw new TrawlError('payload_too_large', `the edges file is larger than ${maxBytes} bytes`, {
        field: 'body',
        detail: { maxBytes },
      });
    }
    yield chunk;
  }
}

function errorOf(error: unknown): RankingError {
  if (error instanceof TrawlError && error.code !== 'internal') {
    return {
      code: error.code,
      detail: error.message,
      ...(error.field ? { field: error.field } : {}),
      ...error.detail,
    };
  }
  // internals go to the worker's log, not to the API
  return { code: 'internal', detail: 'the ranking could not be computed' };
}

/** Why a ranking job ended without an exception. */
export type RankJobOutcome = 'completed' | 'failed' | 'nothing-to-do';

export class RankingService {
  readonly limits: RankingLimits;
  readonly jobThresholds: RankingJobThresholds;

  constructor(private readonly options: RankingServiceOptions) {
    this.limits = { ...DEFAULT_RANKING_LIMITS, ...options.limits };
    this.jobThresholds = { ...DEFAULT_RANKING_JOB_THRESHOLDS, ...options.jobThresholds };
  }

  #builderOptions(options: RankingParams): GraphBuilderOptions {
    return {
      selfLoops: options.selfLoops,
      duplicateEdges: options.duplicateEdges,
      maxVertices: this.limits.maxVertices,
      maxEdges: this.limits.maxEdges,
    };
  }

  /** Ranks the JSON edge list; a rejected edge is reported as `edges[i]`. */
  // Tenancy as in CrawlService: `scope` is the caller's (tenant-scope.ts); rankings are stored with its owner.
  async fromEdges(request: RankingRequest, scope: TenantScope) {
    const options = normalizeRankingOptions(request);
    const builder = new GraphBuilder(this.#builderOptions(options));
    // accepted[e] = index in request.edges of the e-th edge the builder kept, to name a duplicate found at build().
    const accepted: number[] = [];
    const fieldError = (error: unknown, index: number | undefined): unknown => {
      if (!(error instanceof InputError) || index === undefined) return error;
      const { edge: _edge, ...detail } = error.detail ?? {};
      return new InputError(`edges[${index}]: ${error.message}`, `edges[${index}]`, detail);
    };
    request.edges.forEach(([from, to], index) => {
      try {
        if (builder.addEdge(from!, to!) === 'added') accepted.push(index);
      } catch (error) {
        throw fieldError(error, index);
      }
    });
    let graph: Graph;
    try {
      graph = builder.build();
    } catch (error) {
      const edge = error instanceof InputError ? error.detail?.edge : undefined;
      throw fieldError(error, typeof edge === 'number' ? accepted[edge] : undefined);
    }
    return this.#store(graph, options, { crawlId: null, declaredVertices: null, scope });
  }

  /**
   * Ranks an edges file read from a byte stream, never holding the whole body; errors name the line.
   * Up to jobThresholds.uploadBytes it is parsed and ranked at once (status completed); past that the rest
   * streams into PostgreSQL beside a queued ranking and the `rank` job parses it (status queued).
   */
  async fromEdgesFile(chunks: AsyncIterable<Buffer | string>, query: RankingOptions, scope: TenantScope) {
    const options = normalizeRankingOptions(query);
    const body = limitBytes(chunks, this.limits.maxUploadBytes)[Symbol.asyncIterator]();
    // Read ahead at most the threshold (plus one chunk) to learn which side of it the upload falls.
    const head: Array<Buffer | string> = [];
    let headBytes = 0;
    for (;;) {
      const next = await body.next();
      if (next.done) {
        const { graph, declaredVertices } = await this.#parseUpload(head, options);
        return this.#store(graph, options, { crawlId: null, declaredVertices, scope });
      }
      head.push(next.value);
      headBytes += typeof next.value === 'string' ? Buffer.byteLength(next.value) : next.value.length;
      if (headBytes > this.jobThresholds.uploadBytes) break;
    }
    async function* upload() {
      yield* head;
      for (let next = await body.next(); !next.done; next = await body.next()) yield next.value;
    }
    const row = await this.options.repository.createQueued({
      id: randomUUID(),
      crawlId: null,
      params: options,
      upload: upload(),
      owner: scopeOwner(scope),
    });
    return this.#enqueue(row);
  }

  /** Ranks a crawl's link graph as it stands (vertex names are page URLs); by a job past jobThresholds.crawlLinks. */
  async fromCrawl(crawlId: string, request: RankingOptions, scope: TenantScope) {
    const options = normalizeRankingOptions(request);
    await this.options.crawls.requireVisible(crawlId, scope);
    const links = await this.options.repository.crawlLinks(crawlId);
    if (links === null) throw new TrawlError('not_found', `no crawl with id ${crawlId}`);
    if (links > this.jobThresholds.crawlLinks) {
      const row = await this.options.repository.createQueued({
        id: randomUUID(),
        crawlId,
        params: options,
        owner: scopeOwner(scope),
      });
      return this.#enqueue(row);
    }
    const graph = await this.#crawlGraph(crawlId, options);
    return this.#store(graph, options, { crawlId, declaredVertices: null, scope });
  }

  /**
   * The `rank` job: parses the stored upload (or reads the crawl's graph), ranks it and stores the results.
   * A fault in the input (a malformed line, a vertex limit, an unknown personalization vertex) fails the
   * ranking with the problem the request would have had; other errors are thrown for BullMQ to retry, and
   * fail the ranking on the last attempt.
   */
  async runJob(rankingId: string, attempt: { last: boolean }): Promise<RankJobOutcome> {
    const row = await this.options.repository.start(rankingId);
    if (!row) return 'nothing-to-do';
    const options = row.params;
    try {
      let graph: Graph;
      let declaredVertices: number | null = null;
      if (row.crawl_id) {
        graph = await this.#crawlGraph(row.crawl_id, options);
      } else {
        ({ graph, declaredVertices } = await this.#parseUpload(
          this.options.repository.upload(rankingId),
          options,
        ));
      }
      const { summary, figures, vertices } = await this.#analyze(graph, options, declaredVertices, {
        timeoutMs: this.options.jobTimeoutMs,
      });
      await this.options.repository.complete(rankingId, summary, figures, vertices);
      return 'completed';
    } catch (error) {
      // a busy CPU pool (unavailable) is tried again, as an internal fault is
      const final = error instanceof TrawlError && error.code !== 'internal' && error.code !== 'unavailable';
      if (final || attempt.last) await this.options.repository.fail(rankingId, errorOf(error));
      if (final) return 'failed';
      throw error;
    }
  }

  #parseUpload(chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>, options: RankingParams) {
    return parseEdgesStream(chunks, {
      ...this.#builderOptions(options),
      field: 'body',
      maxLineLength: this.limits.maxLineLength,
    });
  }

  async #enqueue(row: RankingRow) {
    try {
      await queueRank(this.options.jobs, row.id);
    } catch (error) {
      await this.options.repository.fail(row.id, errorOf(error)).catch(() => {});
      throw error;
    }
    return rankingView(row);
  }

  /**
   * The crawl's link graph as GEXF 1.3 chunks: PageRank (default options), degrees, clustering and component
   * ids as node attributes.
   */
  async crawlGexf(crawlId: string, scope: TenantScope): Promise<AsyncIterable<string>> {
    const options = normalizeRankingOptions({});
    await this.options.crawls.requireVisible(crawlId, scope);
    const graph = await this.#crawlGraph(crawlId, options);
    const { damping, epsilon } = options;
    const [{ ranks }, { perVertex }] = await Promise.all([
      this.#pageRankOffLoop(graph, { damping, epsilon }, 'format'),
      this.crawlGraphStructure(graph),
    ]);
    return chunksByTurn(gexfChunks(graph, { pageRank: ranks, structure: perVertex }));
  }

  /**
   * The crawl's link graph as JSON in chunks (crawl-graph.ts graphJsonChunks), each vertex with its clustering
   * coefficient and component ids.
   */
  async crawlGraphJson(crawlId: string, scope: TenantScope): Promise<AsyncIterable<string>> {
    const crawlGraph = await this.options.crawls.linkGraph(crawlId, scope);
    const { perVertex } = await this.crawlGraphStructure(crawlGraph.graph);
    return chunksByTurn(graphJsonChunks(crawlGraph, perVertex));
  }

  /**
   * The structure figures of the crawl's graph, computed now and not stored, with a search budget of
   * `workBudget` edge visits: the crawl report's "Link graph". Null for a graph above `maxVertices`, whose
   * figures belong in a ranking job (POST /v1/crawls/:id/rank).
   */
  async crawlStructureFigures(
    crawlId: string,
    limits: { maxVertices: number; workBudget: number },
    scope: TenantScope,
  ): Promise<GraphStructure | null> {
    const { graph } = await this.options.crawls.linkGraph(crawlId, scope);
    if (graph.vertexCount > limits.maxVertices) return null;
    const { timeoutMs } = this.options.cpu;
    const structure = await this.options.cpu.run(
      'graphStructure',
      {
        graph: graphArrays(graph),
        options: {
          workBudget: limits.workBudget,
          deadlineAt: Date.now() + STRUCTURE_DEADLINE_SHARE * timeoutMs,
        },
      },
      'graph',
    );
    return structure.figures;
  }

  /**
   * The structure figures of a crawl's graph for an export: only the per-vertex ones are read, so the searches
   * get no budget (their figures are a ranking's).
   */
  crawlGraphStructure(graph: Graph) {
    return this.options.cpu.run(
      'graphStructure',
      { graph: graphArrays(graph), options: { workBudget: 0 } },
      'format',
    );
  }

  /**
   * The crawl graph's `k` highest PageRanks (default options), computed now and not stored: the crawl report's
   * table. Null for a graph above `maxVertices`, where that belongs in a ranking job (POST /v1/crawls/:id/rank).
   */
  async crawlTopPageRank(crawlId: string, k: number, maxVertices: number, scope: TenantScope) {
    const options = normalizeRankingOptions({ topK: k });
    await this.options.crawls.requireVisible(crawlId, scope);
    const graph = await this.#crawlGraph(crawlId, options);
    if (graph.vertexCount > maxVertices) return null;
    const { damping, epsilon } = options;
    const { ranks } = await this.#pageRankOffLoop(graph, { damping, epsilon }, 'graph');
    const order = Array.from(ranks.keys()).sort(
      (a, b) => ranks[b]! - ranks[a]! || (graph.names[a]! < graph.names[b]! ? -1 : 1),
    );
    return {
      vertices: graph.vertexCount,
      top: order.slice(0, k).map((vertex) => ({
        url: graph.names[vertex]!,
        rank: ranks[vertex]!,
        inDegree: graph.inDegree[vertex]!,
      })),
    };
  }

  /**
   * PageRank on the CPU pool; past its deadline a 422 on `field` (what the caller can change), `timeoutMs`: a
   * job's deadline instead of the pool's.
   */
  #pageRankOffLoop(
    graph: Graph,
    options: PageRankOptions,
    field: string,
    deadline: { timeoutMs?: number } = {},
  ): Promise<PageRankResult> {
    return this.options.cpu.run('pageRank', { graph: graphArrays(graph), options }, field, deadline);
  }

  /**
   * The structure figures on the CPU pool, with the deadline PageRank has: the searches stop with bounds at
   * STRUCTURE_DEADLINE_SHARE of it, and past all of it the pool stops the thread (a 422 on 'graph'). A job
   * (deadline.timeoutMs given) searches with the default budget; a ranking in the request with
   * IN_REQUEST_STRUCTURE_WORK_BUDGET, so that its answer does not wait on the searches.
   */
  #structureOffLoop(graph: Graph, deadline: { timeoutMs?: number } = {}) {
    const timeoutMs = deadline.timeoutMs ?? this.options.cpu.timeoutMs;
    const deadlineAt = Date.now() + STRUCTURE_DEADLINE_SHARE * timeoutMs;
    const workBudget = deadline.timeoutMs === undefined ? IN_REQUEST_STRUCTURE_WORK_BUDGET : undefined;
    return this.options.cpu.run(
      'graphStructure',
      { graph: graphArrays(graph), options: { deadlineAt, ...(workBudget ? { workBudget } : {}) } },
      'graph',
      { timeoutMs },
    );
  }

  async #crawlGraph(crawlId: string, options: RankingParams): Promise<Graph> {
    const { graph } = await this.options.crawls.linkGraph(
      crawlId,
      INTERNAL_SCOPE,
      this.#builderOptions(options),
    );
    return graph;
  }

  async #store(
    graph: Graph,
    options: RankingParams,
    source: { crawlId: string | null; declaredVertices: number | null; scope: TenantScope },
  ) {
    const { summary, figures, vertices } = await this.#analyze(graph, options, source.declaredVertices);
    const row = await this.options.repository.create({
      id: randomUUID(),
      crawlId: source.crawlId,
      owner: scopeOwner(source.scope),
      status: 'completed',
      params: options,
      summary,
      graph: figures,
      vertices,
    });
    return rankingView(row);
  }

  /**
   * PageRank, degrees, top lists and Jaccard overlaps, and the structure figures (computed beside PageRank, on
   * another thread when the pool has one): the summary document, the figures and the per-vertex results.
   */
  async #analyze(
    graph: Graph,
    options: RankingParams,
    declaredVertices: number | null,
    deadline: { timeoutMs?: number } = {},
  ) {
    const personalization = options.personalization?.map((name, index) => {
      const id = graph.indexOf(name);
      if (id === undefined) {
        throw new InputError(
          `the graph has no vertex named ${JSON.stringify(name)}`,
          `personalization[${index}]`,
        );
      }
      return id;
    });
    const { damping, epsilon, maxIterations } = options;
    const [ranked, structure] = await Promise.all([
      this.#pageRankOffLoop(
        graph,
        {
          damping,
          epsilon,
          maxIterations,
          personalization: personalization && Int32Array.from(personalization),
        },
        'maxIterations',
        deadline,
      ),
      this.#structureOffLoop(graph, deadline),
    ]);
    const analysis = summarizeRanks(graph, ranked, options);
    const summary: RankingSummary = {
      iterations: analysis.iterations,
      converged: analysis.converged,
      // Infinity (no update performed, maxIterations 0) has no JSON form
      delta: Number.isFinite(analysis.delta) ? analysis.delta : null,
      vertices: analysis.vertices,
      unnamedVertices: analysis.unnamedVertices,
      edges: analysis.edges,
      declaredVertices,
      droppedSelfLoops: graph.droppedSelfLoops,
      droppedDuplicates: graph.droppedDuplicates,
      top: {
        pageRank: analysis.top.pageRank.map(({ vertex, value }) => ({ vertex, rank: value })),
        inDegree: analysis.top.inDegree.map(({ vertex, value }) => ({ vertex, degree: value })),
        outDegree: analysis.top.outDegree.map(({ vertex, value }) => ({ vertex, degree: value })),
      },
      jaccard: analysis.jaccard,
    };
    // Only named vertices are stored: the unnamed ones (ids past names.length) have no name to be found by.
    const vertices: RankingVertices = {
      names: graph.names,
      pageRank: analysis.ranks,
      inDegree: graph.inDegree,
      outDegree: graph.outDegree,
      ...structure.perVertex,
    };
    const figures: GraphStructure = structure.figures;
    return { summary, figures, vertices };
  }

  async #require(id: string, scope: TenantScope): Promise<RankingRow> {
    const row = await this.options.repository.get(id, scope);
    if (!row) throw new TrawlError('not_found', `no ranking with id ${id}`);
    return row;
  }

  // Vertices exist once the ranking completed; before that (or after a failure) asking for them is a 409.
  async #requireCompleted(id: string, scope: TenantScope): Promise<RankingRow> {
    const row = await this.#require(id, scope);
    if (row.status !== 'completed') {
      throw new TrawlError('conflict', `ranking ${id} is ${row.status}: it has no vertices yet`, {
        detail: { rankingStatus: row.status },
      });
    }
    return row;
  }

  async get(id: string, scope: TenantScope) {
    return rankingView(await this.#require(id, scope));
  }

  /** The caller's rankings, newest first. */
  /** A page of the list `scope` sees; `query.owner` narrows it to one tenant's (tenant-scope.ts listScope). */
  async list(query: NewestFirstQuery, scope: TenantScope) {
    const listed = listScope(scope, query.owner?.toLowerCase());
    const read = (after: CreatedAtCursor | null, rows: number) =>
      this.options.repository.list(rows, after, listed);
    return paginateNewestFirst('/v1/rankings', query, read, rankingSummaryView);
  }

  /** One vertex's PageRank and degrees. */
  async vertex(id: string, name: string, scope: TenantScope) {
    await this.#requireCompleted(id, scope);
    const row = await this.options.repository.vertex(id, name);
    if (!row) throw new TrawlError('not_found', `ranking ${id} has no vertex ${JSON.stringify(name)}`);
    return rankedVertexView(row);
  }

  /** Vertices largest first by the sort, ties by name, keyset-paginated. */
  async vertices(id: string, query: Omit<VerticesQuery, 'name'>, scope: TenantScope) {
    await this.#requireCompleted(id, scope);
    const sort = SORTS[query.sort];
    return paginate({
      limit: query.limit,
      cursor: query.cursor,
      accept: vertexCursorOf(sort),
      read: (after, rows) =>
        this.options.repository.vertices(
          id,
          sort,
          after ? { value: after[0], vertex: after[1] } : null,
          rows,
        ),
      view: rankedVertexView,
      positionOf: (row) => [rankedVertexView(row)[sort], row.vertex] as [number, string],
      link: { path: `/v1/rankings/${id}/vertices`, query: { sort: query.sort, limit: query.limit } },
    });
  }
}
