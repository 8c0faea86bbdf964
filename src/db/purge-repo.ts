// The deletes of a purge (migration 0040): every row a crawl, a ranking or a corpus owns, removed in bounded
// batches, each batch one statement in its own transaction, so no purge holds locks or a snapshot for long.
// Every method deletes "what is left", so a purge cut anywhere and run again ends the same way.
import type pg from 'pg';
import { sql } from './sql.js';
import { scopeParams, type TenantScope } from './tenant-scope.js';
import { withTransaction } from './transaction.js';

export class PurgeRepository {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Marks crawl `id` purging (a queued or running crawl stops claiming pages and frees its leases); answers the
   * status it had, or null when it was being purged already.
   */
  async markCrawl(id: string): Promise<string | null> {
    return withTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ previous: string }>(sql('crawl_purge_mark'), [id]);
      const previous = rows[0]?.previous ?? null;
      if (previous === 'queued' || previous === 'running') {
        await client.query(sql('crawl_release_leases'), [id]);
      }
      return previous;
    });
  }

  /** Crawl `id`'s body hashes, up to `limit`; how many went. */
  async contentHashes(id: string, limit: number): Promise<number> {
    return this.#count('purge_content_hashes', [id, limit]);
  }

  /** Up to `limit` of crawl `id`'s bodies that other crawls' pages read, handed to them; how many passed. */
  async handOverBodies(id: string, limit: number): Promise<number> {
    return this.#count('purge_hand_over_bodies', [id, limit]);
  }

  /** Crawl `id`'s next `limit` pages after `afterId`, with all they hold; how many went and the last id. */
  async pages(id: string, afterId: number, limit: number): Promise<{ n: number; lastId: number | null }> {
    const { rows } = await this.pool.query<{ n: number; last_id: string | null }>(sql('purge_pages'), [
      id,
      afterId,
      limit,
    ]);
    const row = rows[0]!;
    return { n: row.n, lastId: row.last_id === null ? null : Number(row.last_id) };
  }

  /** Crawl `id`'s sites (and their politeness slots), up to `limit`; how many went. */
  async sites(id: string, limit: number): Promise<number> {
    return this.#count('purge_sites', [id, limit]);
  }

  /** The rankings of crawl `id`'s link graph. */
  async crawlRankings(id: string): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(sql('purge_crawl_rankings'), [id]);
    return rows.map((row) => row.id);
  }

  /** Ranking `id`'s vertices, up to `limit`; how many went. */
  async rankingVertices(id: string, limit: number): Promise<number> {
    return this.#count('purge_ranking_vertices', [id, limit]);
  }

  /** Corpus `id`'s terms, up to `limit`; how many went. */
  async corpusTerms(id: string, limit: number): Promise<number> {
    return this.#count('purge_corpus_terms', [id, limit]);
  }

  /** Deletes the ranking's row (404 from now on) when `scope` may see it; false when there was none. */
  async deleteRanking(id: string, scope: TenantScope): Promise<boolean> {
    const result = await this.pool.query(sql('ranking_delete'), [id, ...scopeParams(scope)]);
    return (result.rowCount ?? 0) > 0;
  }

  /** Deletes the corpus's row (404 from now on) when `scope` may see it; false when there was none. */
  async deleteCorpus(id: string, scope: TenantScope): Promise<boolean> {
    const result = await this.pool.query(sql('corpus_delete'), [id, ...scopeParams(scope)]);
    return (result.rowCount ?? 0) > 0;
  }

  /** A crawl queued or running that scores with corpus `id`, or null. */
  async corpusUsedBy(id: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ id: string }>(sql('corpus_used_by'), [id]);
    return rows[0]?.id ?? null;
  }

  /** Forgets the idempotent replays of the request that created crawl `id`. */
  async idempotencyRecords(id: string): Promise<void> {
    await this.pool.query(sql('purge_idempotency'), [id]);
  }

  /** Whether crawl `id` still has webhook events to deliver. */
  async webhooksPending(id: string): Promise<boolean> {
    const { rows } = await this.pool.query<{ pending: boolean }>(sql('purge_webhooks_pending'), [id]);
    return rows[0]?.pending ?? false;
  }

  /**
   * Deletes the purging crawl's row and what is left of it; false when it was gone already. Its fetched pages
   * are added to its tenant's month first (usage_sync.sql), since its counters go with it.
   */
  async finishCrawl(id: string): Promise<boolean> {
    await this.pool.query(sql('usage_sync'));
    const result = await this.pool.query(sql('purge_crawl_finish'), [id]);
    return (result.rowCount ?? 0) > 0;
  }

  /**
   * Runs `sweep` while holding the retention sweeper's lock of this schema (one process at a time); false
   * when another process holds it, and `sweep` did not run.
   */
  async withRetentionLock(sweep: () => Promise<void>): Promise<boolean> {
    return withTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ locked: boolean }>(sql('retention_lock'));
      if (!rows[0]?.locked) return false;
      await sweep();
      return true;
    });
  }

  /** Ended crawls past their retention (the server's `serverDays`, or their own fewer days), oldest first. */
  async expiredCrawls(
    serverDays: number | null,
    limit: number,
  ): Promise<Array<{ id: string; finished_at: Date; days: number }>> {
    return (await this.pool.query(sql('crawls_expired'), [serverDays, limit])).rows;
  }

  /** Tells the orphan sweeper that a job is purging crawl `id`. */
  async beat(id: string): Promise<void> {
    await this.pool.query(sql('purge_crawl_beat'), [id]);
  }

  async #count(name: string, values: unknown[]): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(sql(name), values);
    return rows[0]?.n ?? 0;
  }
}
