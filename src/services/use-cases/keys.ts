// API keys: issue one (its text shown once), list, revoke, and authenticate a request's bearer key. A key is
// `trawl_` + 32 random bytes (base64url); the database holds its SHA-256 only.
// Why SHA-256 and not bcrypt: bcrypt slows down guessing low-entropy passwords; a 256-bit random key cannot
// be guessed, and a plain hash lets every request find its key by an indexed lookup, at once, without
// bcrypt's deliberate per-request cost. Timing of that lookup leaks nothing useful: it compares hashes,
// not keys.
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { type ApiKeyRow, type KeyQuotas, type KeysRepository, quotasOf } from '../../db/keys-repo.js';
import { InputError, TrawlError } from '../../errors.js';
import type { ApiKey, ApiKeyCreated } from '../../schemas/keys.js';

/** A key as the API shows it (schemas/keys.ts), named here too for the CLI's `trawl keys`. */
export type { ApiKey };

const KEY_PREFIX = 'trawl_';
/** Characters of a key shown in listings: `trawl_` and 8 of the random part (48 bits, enough to tell keys apart). */
const DISPLAY_CHARS = KEY_PREFIX.length + 8;

export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_CHARS);
}

function linkSignature(keyHash: string, path: string, expiresSecs: number): string {
  return createHmac('sha256', keyHash).update(`${path}\n${expiresSecs}`).digest('base64url');
}

/** Who a request is: the key's id and whether it may use the admin endpoints. */
export interface Principal {
  keyId: string;
  admin: boolean;
}

function apiKeyOf(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    admin: row.is_admin,
    createdAt: row.created_at.toISOString(),
    revokedAt: row.revoked_at ? row.revoked_at.toISOString() : null,
    limits: quotasOf(row),
  };
}

export class KeyService {
  constructor(private readonly repository: KeysRepository) {}

  /** Issues a key; the returned `key` is the only time its text exists outside the caller. */
  async create(options: {
    name: string;
    admin?: boolean;
    limits?: Partial<KeyQuotas>;
  }): Promise<ApiKeyCreated> {
    const name = options.name.trim();
    if (!name || name.length > 200) throw new InputError('name must be 1 to 200 characters', 'name');
    const key = generateKey();
    const row = await this.repository.create({
      id: randomUUID(),
      name,
      hash: hashKey(key),
      prefix: displayPrefix(key),
      isAdmin: options.admin ?? false,
      quotas: {
        runningCrawls: options.limits?.runningCrawls ?? null,
        pagesPerMonth: options.limits?.pagesPerMonth ?? null,
        storedBytes: options.limits?.storedBytes ?? null,
      },
    });
    return { ...apiKeyOf(row), key };
  }

  /** PATCH /v1/keys/:id: its name and the limits given (null removes one); the others stay as they are. */
  async update(idOrPrefix: string, change: { name?: string; limits?: Partial<KeyQuotas> }): Promise<ApiKey> {
    const id = await this.#resolve(idOrPrefix);
    const name = change.name?.trim();
    if (name !== undefined && (!name || name.length > 200))
      throw new InputError('name must be 1 to 200 characters', 'name');
    const row = await this.repository.update(id, {
      ...(name !== undefined ? { name } : {}),
      ...(change.limits ? { quotas: change.limits } : {}),
    });
    if (!row) throw new TrawlError('not_found', `no API key with id or prefix ${idOrPrefix}`);
    return apiKeyOf(row);
  }

  /** The quotas of key `id` (null: no such key). */
  quotas(id: string): Promise<KeyQuotas | null> {
    return this.repository.quotas(id);
  }

  async list(): Promise<ApiKey[]> {
    return (await this.repository.list()).map(apiKeyOf);
  }

  /** Revokes the key named by its id or display prefix; effective at the next request (nothing is cached). */
  async revoke(idOrPrefix: string): Promise<ApiKey> {
    const row = await this.repository.revoke(await this.#resolve(idOrPrefix));
    if (!row) throw new TrawlError('not_found', `no API key with id or prefix ${idOrPrefix}`);
    return apiKeyOf(row);
  }

  /** The id of the one key named by its id or display prefix. */
  async #resolve(idOrPrefix: string): Promise<string> {
    const matches = await this.repository.find(idOrPrefix.trim());
    if (matches.length === 0) throw new TrawlError('not_found', `no API key with id or prefix ${idOrPrefix}`);
    if (matches.length > 1) {
      throw new InputError(
        `${matches.length} keys share the prefix ${idOrPrefix}; name the key by id`,
        'id',
        {
          ids: matches.map((row) => row.id),
        },
      );
    }
    return matches[0]!.id;
  }

  /** The key's principal; null for a key that is unknown or revoked. Looked up on every call. */
  async authenticate(key: string): Promise<Principal | null> {
    const row = await this.repository.byHash(hashKey(key));
    if (!row || row.revoked_at) return null;
    return { keyId: row.id, admin: row.is_admin };
  }

  /**
   * A link to `path` that works without the key for `ttlSecs`: for a page a browser opens itself (a report in a
   * new tab), which cannot send an authorization header. `token` is the key's id, the expiry and an HMAC of
   * both with the path, keyed with the key's stored hash (a secret that never leaves the server): never the key,
   * good for that path only, and dead once the key is revoked.
   */
  async signLink(
    principal: Principal,
    path: string,
    ttlSecs: number,
  ): Promise<{ token: string; expiresAt: Date }> {
    const row = await this.repository.signing(principal.keyId);
    if (!row || row.revoked_at) throw new TrawlError('unauthorized', 'the API key is unknown or revoked');
    const expiresSecs = Math.floor(Date.now() / 1000) + ttlSecs;
    const token = `${row.id}.${expiresSecs}.${linkSignature(row.key_hash, path, expiresSecs)}`;
    return { token, expiresAt: new Date(expiresSecs * 1000) };
  }

  /** The principal a link signed by signLink stands for; null when it is malformed, expired, for another path or its key revoked. */
  async verifyLink(path: string, token: string): Promise<Principal | null> {
    const match = /^([0-9a-f-]{36})\.(\d{1,12})\.([\w-]{43})$/.exec(token);
    if (!match) return null;
    const [, keyId, expires, signature] = match as unknown as [string, string, string, string];
    const expiresSecs = Number(expires);
    if (expiresSecs * 1000 < Date.now()) return null;
    const row = await this.repository.signing(keyId);
    if (!row || row.revoked_at) return null;
    const expected = Buffer.from(linkSignature(row.key_hash, path, expiresSecs));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    return { keyId: row.id, admin: row.is_admin };
  }

  /**
   * Whether a key holds the service closed: any key issued (revoked ones included) and not released by
   * `trawl keys open`. With none the service may run open. Asked on every keyless request, as keys are looked
   * up on every keyed one, so that `trawl keys open` (another process) holds at once.
   */
  async closedByKeys(): Promise<boolean> {
    return this.repository.holdClosed();
  }

  /**
   * Returns the service to open mode: revokes every key and releases it, so that none holds the service
   * closed. The keys' resources stay theirs (admin keys see them once the service is closed again).
   */
  async openService(): Promise<ApiKey[]> {
    return (await this.repository.releaseAll()).map(apiKeyOf);
  }
}
