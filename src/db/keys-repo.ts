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
}

export class KeysRepository {
  constructor(private readonly pool: pg.Pool) {}

  async create(key: {
    id: string;
    name: string;
    hash: string;
    prefix: string;
    isAdmin: boolean;
  }): Promise<ApiKeyRow> {
    const result = await this.pool.query<ApiKeyRow>(sql('api_key_insert'), [
      key.id,
      key.name,
      key.hash,
      key.prefix,
      key.isAdmin,
    ]);
    return result.rows[0]!;
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
