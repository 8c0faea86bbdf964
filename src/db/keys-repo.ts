// Reads and writes of API keys. Only SHA-256 hashes of keys are stored; see migrations/0005_api_keys.sql.
import type pg from 'pg';
import { sql } from './sql.js';

export interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  is_admin: boolean;
  created_at: Date;
  revoked_at: Date | null;
  max_running_crawls: number | null;
  max_pages_per_month: string | number | null;
  max_stored_bytes: string | number | null;
}

/** A key's quotas (migration 0042); null: no limit of its own. */
export interface KeyQuotas {
  runningCrawls: number | null;
  pagesPerMonth: number | null;
  storedBytes: number | null;
}

/** The quotas of a key row (bigint columns come back as text). */
export function quotasOf(
  row: Pick<ApiKeyRow, 'max_running_crawls' | 'max_pages_per_month' | 'max_stored_bytes'>,
): KeyQuotas {
  const n = (value: string | number | null) => (value === null ? null : Number(value));
  return {
    runningCrawls: n(row.max_running_crawls),
    pagesPerMonth: n(row.max_pages_per_month),
    storedBytes: n(row.max_stored_bytes),
  };
}

export class KeysRepository {
  constructor(private readonly pool: pg.Pool) {}

  async create(key: {
    id: string;
    name: string;
    hash: string;
    prefix: string;
    isAdmin: boolean;
    quotas: KeyQuotas;
  }): Promise<ApiKeyRow> {
    const result = await this.pool.query<ApiKeyRow>(sql('api_key_insert'), [
      key.id,
      key.name,
      key.hash,
      key.prefix,
      key.isAdmin,
      key.quotas.runningCrawls,
      key.quotas.pagesPerMonth,
      key.quotas.storedBytes,
    ]);
    return result.rows[0]!;
  }

  /** Changes a key's name and the quotas given (a null quota removes the limit); null: no such key. */
  async update(
    id: string,
    change: { name?: string; quotas?: Partial<KeyQuotas> },
  ): Promise<ApiKeyRow | null> {
    const q = change.quotas ?? {};
    const result = await this.pool.query<ApiKeyRow>(sql('api_key_update'), [
      id,
      change.name ?? null,
      'runningCrawls' in q,
      q.runningCrawls ?? null,
      'pagesPerMonth' in q,
      q.pagesPerMonth ?? null,
      'storedBytes' in q,
      q.storedBytes ?? null,
    ]);
    return result.rows[0] ?? null;
  }

  /** The quotas of key `id`; null when there is no such key. */
  async quotas(id: string): Promise<KeyQuotas | null> {
    const row = (await this.pool.query(sql('api_key_quotas'), [id])).rows[0];
    return row ? quotasOf(row) : null;
  }

  async byHash(hash: string): Promise<{ id: string; is_admin: boolean; revoked_at: Date | null } | null> {
    return (await this.pool.query(sql('api_key_by_hash'), [hash])).rows[0] ?? null;
  }

  /** A key by id with its hash, which keys the links signed for it (services/use-cases/keys.ts signLink). */
  async signing(
    id: string,
  ): Promise<{ id: string; is_admin: boolean; revoked_at: Date | null; key_hash: string } | null> {
    return (await this.pool.query(sql('api_key_signing'), [id])).rows[0] ?? null;
  }

  async list(): Promise<ApiKeyRow[]> {
    return (await this.pool.query<ApiKeyRow>(sql('api_key_list'))).rows;
  }

  /** Keys whose id or display prefix is `idOrPrefix` (more than one only for a prefix two keys share). */
  async find(idOrPrefix: string): Promise<ApiKeyRow[]> {
    return (await this.pool.query<ApiKeyRow>(sql('api_key_find'), [idOrPrefix])).rows;
  }

  async revoke(id: string): Promise<ApiKeyRow | null> {
    return (await this.pool.query<ApiKeyRow>(sql('api_key_revoke'), [id])).rows[0] ?? null;
  }

  /** Whether a key not released by `trawl keys open` exists (revoked or not). */
  async holdClosed(): Promise<boolean> {
    return (await this.pool.query<{ closed: boolean }>(sql('api_keys_hold_closed'))).rows[0]!.closed;
  }

  /** Revokes and releases every key not yet released; the keys it released. */
  async releaseAll(): Promise<ApiKeyRow[]> {
    return (await this.pool.query<ApiKeyRow>(sql('api_keys_release'))).rows;
  }
}
