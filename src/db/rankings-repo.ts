// Reads and writes of the ranking aggregate: one rankings row (parameters and summary document) and its
// per-vertex results, written together in one transaction so a ranking is never seen half-stored. A ranking
// computed by a job is first stored queued, with its uploaded edges file in chunks (ranking_uploads).
import type pg from 'pg';
import type { EdgePolicy, GraphAnalysis, GraphStructure } from '../crawler/rank/index.js';
import { sql } from './sql.js';
import { INTERNAL_SCOPE, scopeParams, type TenantScope } from './tenant-scope.js';
import { withTransaction } from './transaction.js';

/** The options a ranking runs with, every default filled in (normalizeRankingOptions): rankings.params. */
export interface RankingParams {
  damping: number;
  epsilon: number;
  maxIterations: number;
  topK: number;
  jaccardK: number;
  personalization: string[] | null;
  selfLoops: EdgePolicy;
  duplicateEdges: EdgePolicy;
}

/** A completed ranking's summary document (rankings.summary). */
export interface RankingSummary {
  iterations: number;
  converged: boolean;
  delta: number | null;
  /** N: every vertex ranked, unnamedVertices of them without a name (not stored, never listed). */
  vertices: number;
  /** Absent from summaries stored before unnamed vertices were ranked (they had none). */
  unnamedVertices?: number;
  edges: number;
  declaredVertices: number | null;
  droppedSelfLoops: number;
  droppedDuplicates: number;
  top: {
    pageRank: Array<{ vertex: string; rank: number }>;
    inDegree: Array<{ vertex: string; degree: number }>;
    outDegree: Array<{ vertex: string; degree: number }>;
  };
  jaccard: GraphAnalysis['jaccard'];
}

/** What a failed ranking keeps as its error (rankings.error): the problem fields the request would have answered. */
export interface RankingError {
  code: string;
  detail: string;
  field?: string;
  /** The line of the edges file at fault. */
  line?: number;
  [key: string]: unknown;
}

export interface RankingRow {
  id: string;
  crawl_id: string | null;
  status: 'queued' | 'running' | 'completed' | 'failed';
  params: RankingParams;
  /** Set once the ranking completed. */
  summary: RankingSummary | null;
  /** The structure figures, set once the ranking completed; null on rankings stored before they were computed. */
  graph: GraphStructure | null;
  /** Set when the ranking failed. */
  error: RankingError | null;
  created_at: Date;
}

/** A ranking as GET /v1/rankings lists it: its state and size, without its top lists. */
export interface RankingListRow {
  id: string;
  crawl_id: string | null;
  owner: string | null;
  status: RankingRow['status'];
  created_at: Date;
  vertices: number | null;
  edges: number | null;
  iterations: number | null;
  error: string | null;
}

export interface RankingVertexRow {
  vertex: string;
  page_rank: number;
  in_degree: number;
  out_degree: number;
  /** Null on rankings stored before the structure figures were computed. */
  clustering: number | null;
  weak_component: number | null;
  strong_component: number | null;
}

/** Per-vertex results as parallel arrays, indexed by vertex id (the Graph's layout); names.length of them are stored. */
export interface RankingVertices {
  names: readonly string[];
  pageRank: ArrayLike<number>;
  inDegree: ArrayLike<number>;
  outDegree: ArrayLike<number>;
  clustering: ArrayLike<number>;
  weakComponent: ArrayLike<number>;
  strongComponent: ArrayLike<number>;
}

export type VertexSort = 'pageRank' | 'inDegree' | 'outDegree';

const SORT_STATEMENTS: Record<VertexSort, string> = {
  pageRank: 'ranking_vertices_by_page_rank',
  inDegree: 'ranking_vertices_by_in_degree',
  outDegree: 'ranking_vertices_by_out_degree',
};

// Rows per INSERT … unnest: big enough to amortize round trips, small enough to keep each bind message modest.
const VERTEX_BATCH = 10_000;
// Bytes per stored upload chunk, and chunks per read: a job holds about 16 MiB of the file at a time.
const UPLOAD_CHUNK_BYTES = 1 << 20;
const UPLOAD_READ_CHUNKS = 16;

/** The rankings row of a ranking (a completed one with its summary document, a queued one without). */
async function insertRanking(
  client: pg.PoolClient,
  ranking: {
    id: string;
    crawlId: string | null;
    status: string;
    params: RankingParams;
    summary: string | null;
    graph: string | null;
    owner?: string | null;
  },
): Promise<void> {
  await client.query(sql('ranking_insert'), [
    ranking.id,
    ranking.crawlId,
    ranking.status,
    JSON.stringify(ranking.params),
    ranking.summary,
    ranking.owner ?? null,
    ranking.graph,
  ]);
}

export class RankingsRepository {
  constructor(private readonly pool: pg.Pool) {}

  async create(ranking: {
    id: string;
    crawlId: string | null;
    status: string;
    params: RankingParams;
    summary: RankingSummary;
    graph: GraphStructure;
    vertices: RankingVertices;
    /** The API key that asked for it; null when the service runs open. */
    owner?: string | null;
  }): Promise<RankingRow> {
    await withTransaction(this.pool, async (client) => {
      await insertRanking(client, {
        ...ranking,
        summary: JSON.stringify(ranking.summary),
        graph: JSON.stringify(ranking.graph),
      });
      await insertVertices(client, ranking.id, ranking.vertices);
    });
    const row = await this.get(ranking.id, INTERNAL_SCOPE);
    if (!row) throw new Error(`ranking ${ranking.id} vanished after insert`);
    return row;
  }

  /**
   * Stores a queued ranking and, for an upload, its edges file in chunks, in one transaction: an upload that
   * fails midway (too large, client gone) leaves nothing behind. Returns the row.
   */
  async createQueued(ranking: {
    id: string;
    crawlId: string | null;
    params: RankingParams;
    upload?: AsyncIterable<Buffer | string>;
    owner?: string | null;
  }): Promise<RankingRow> {
    await withTransaction(this.pool, async (client) => {
      await insertRanking(client, { ...ranking, status: 'queued', summary: null, graph: null });
      if (!ranking.upload) return;
      let seq = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = async () => {
        await client.query(sql('ranking_upload_insert'), [ranking.id, seq++, Buffer.concat(pending)]);
        pending = [];
        pendingBytes = 0;
      };
      for await (const chunk of ranking.upload) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        pending.push(bytes);
        pendingBytes += bytes.length;
        if (pendingBytes >= UPLOAD_CHUNK_BYTES) await flush();
      }
      if (pendingBytes > 0) await flush();
    });
    const row = await this.get(ranking.id, INTERNAL_SCOPE);
    if (!row) throw new Error(`ranking ${ranking.id} vanished after insert`);
    return row;
  }

  /** Marks a queued ranking running and returns it; null when it already ended (or never existed). */
  async start(id: string): Promise<RankingRow | null> {
    return (await this.pool.query<RankingRow>(sql('ranking_start'), [id])).rows[0] ?? null;
  }

  /** The stored edges file of a queued ranking, chunk by chunk in upload order, read a few chunks at a time. */
  async *upload(id: string): AsyncGenerator<Buffer, void, undefined> {
    let seq = 0;
    for (;;) {
      const { rows } = await this.pool.query<{ seq: number; chunk: Buffer }>(sql('ranking_upload_chunks'), [
        id,
        seq,
        UPLOAD_READ_CHUNKS,
      ]);
      for (const row of rows) yield row.chunk;
      if (rows.length < UPLOAD_READ_CHUNKS) return;
      seq = rows[rows.length - 1]!.seq + 1;
    }
  }

  /** Stores a job's results: vertices afresh (a retried job may have stored some), summary, figures, status completed. */
  async complete(
    id: string,
    summary: RankingSummary,
    graph: GraphStructure,
    vertices: RankingVertices,
  ): Promise<void> {
    await withTransaction(this.pool, async (client) => {
      await client.query(sql('ranking_vertices_delete'), [id]);
      await insertVertices(client, id, vertices);
      await client.query(sql('ranking_complete'), [id, JSON.stringify(summary), JSON.stringify(graph)]);
      await client.query(sql('ranking_uploads_delete'), [id]);
    });
  }

  /** Marks a queued or running ranking failed with its error, and drops its upload. */
  async fail(id: string, error: RankingError): Promise<void> {
    await withTransaction(this.pool, async (client) => {
      await client.query(sql('ranking_fail'), [id, JSON.stringify(error)]);
      await client.query(sql('ranking_uploads_delete'), [id]);
    });
  }

  /** The number of edges of a crawl's link graph; null when there is no such crawl. */
  async crawlLinks(crawlId: string): Promise<number | null> {
    const { rows } = await this.pool.query<{ links: number }>(sql('ranking_crawl_links'), [crawlId]);
    return rows[0]?.links ?? null;
  }

  /** The ranking, or null when there is none or `scope` may not see it. */
  async list(
    limit: number,
    after: { createdAt: string; id: string } | null,
    scope: TenantScope,
  ): Promise<RankingListRow[]> {
    const result = await this.pool.query<RankingListRow>(sql('ranking_list'), [
      after?.createdAt ?? null,
      after?.id ?? null,
      limit,
      ...scopeParams(scope),
    ]);
    return result.rows;
  }

  async get(id: string, scope: TenantScope): Promise<RankingRow | null> {
    return (
      (await this.pool.query<RankingRow>(sql('ranking_get'), [id, ...scopeParams(scope)])).rows[0] ?? null
    );
  }

  async vertex(id: string, name: string): Promise<RankingVertexRow | null> {
    return (await this.pool.query<RankingVertexRow>(sql('ranking_vertex_get'), [id, name])).rows[0] ?? null;
  }

  /** Vertices largest first by `sort`, ties by name; `after` is the (value, name) of the last row already seen. */
  async vertices(
    id: string,
    sort: VertexSort,
    after: { value: number; vertex: string } | null,
    limit: number,
  ): Promise<RankingVertexRow[]> {
    const result = await this.pool.query<RankingVertexRow>(sql(SORT_STATEMENTS[sort]), [
      id,
      after?.value ?? null,
      after?.vertex ?? null,
      limit,
    ]);
    return result.rows;
  }
}

async function insertVertices(client: pg.PoolClient, id: string, vertices: RankingVertices): Promise<void> {
  const { names, pageRank, inDegree, outDegree, clustering, weakComponent, strongComponent } = vertices;
  for (let start = 0; start < names.length; start += VERTEX_BATCH) {
    const end = Math.min(start + VERTEX_BATCH, names.length);
    const slice = (values: ArrayLike<number>) =>
      Array.from({ length: end - start }, (_, i) => values[start + i]!);
    await client.query(sql('ranking_vertices_insert'), [
      id,
      names.slice(start, end),
      slice(pageRank),
      slice(inDegree),
      slice(outDegree),
      slice(clustering),
      slice(weakComponent),
      slice(strongComponent),
    ]);
  }
}
