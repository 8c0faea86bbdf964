// Opaque keyset cursors shared by every list endpoint: JSON in base64url, checked on the way back in, so a
// tampered cursor is a 400 naming the field rather than a cast error deep in PostgreSQL. paginate() is the
// one way a list endpoint pages: it reads one row past the page to know whether a next page exists, and
// writes the `next` link carrying the list's own query and the position of the page's last row.
import { InputError } from '../../errors.js';

export function encodeCursor(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export function decodeCursor<T>(cursor: string, accept: (value: unknown) => value is T, field = 'cursor'): T {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    value = undefined;
  }
  if (value === undefined || !accept(value))
    throw new InputError('cursor is not one this service issued', field);
  return value;
}

/** The cursor of lists ordered newest first by (created_at, id uuid). */
export interface CreatedAtCursor {
  createdAt: string;
  id: string;
}

// The form Date.toISOString() writes (and only that): PostgreSQL reads "2000" or "1" as something else or
// not at all, and a year past 9999 is out of timestamptz's range or toISOString's four digits.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An instant as this service writes it in a cursor, that reads back to itself. */
export function isIsoInstant(value: unknown): value is string {
  if (typeof value !== 'string' || !ISO_INSTANT.test(value)) return false;
  const time = Date.parse(value);
  return !value.startsWith('0000') && !Number.isNaN(time) && new Date(time).toISOString() === value;
}

/** A bigint id as a JSON number: a safe integer, so it reaches PostgreSQL unrounded. */
export function isRowId(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

export function isCreatedAtCursor(value: unknown): value is CreatedAtCursor {
  const { createdAt, id } = (value ?? {}) as Record<string, unknown>;
  return isIsoInstant(createdAt) && typeof id === 'string' && UUID.test(id);
}

/** The position of a row of a newest-first list. */
export function createdAtCursorOf(row: { created_at: Date; id: string }): CreatedAtCursor {
  return { createdAt: row.created_at.toISOString(), id: row.id };
}

/** The cursor of lists ordered by a bigint row id (pages, webhook deliveries), the score too when sorted by it. */
export interface RowIdCursor {
  after: number;
  score?: number | null;
}

export function isRowIdCursor(value: unknown): value is RowIdCursor {
  const { after, score } = (value ?? {}) as Record<string, unknown>;
  return isRowId(after) && (score === undefined || score === null || Number.isFinite(score));
}

export interface Paginated<Item> {
  items: Item[];
  /** The next page's URL, or null on the last page. */
  next: string | null;
}

/**
 * One page of a keyset-ordered list. `read` gets the decoded cursor (null: from the start) and how many rows
 * to read (one more than the page, so the last page is known without a count); `link` is the list's path and
 * the query its next page keeps (in that order, `cursor` last; undefined values are left out).
 */
export async function paginate<Row, Item, Position>(list: {
  limit: number;
  cursor: string | undefined;
  accept: (value: unknown) => value is Position;
  read: (after: Position | null, rows: number) => Promise<Row[]>;
  view: (row: Row) => Item;
  positionOf: (row: Row) => Position;
  link: { path: string; query: Record<string, string | number | boolean | undefined> };
}): Promise<Paginated<Item>> {
  // an empty cursor (`?cursor=`) is the first page, as it always was
  const after = list.cursor ? decodeCursor(list.cursor, list.accept) : null;
  const rows = await list.read(after, list.limit + 1);
  const page = rows.slice(0, list.limit);
  const last = page[page.length - 1];
  let next: string | null = null;
  if (rows.length > list.limit && last !== undefined) {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(list.link.query)) {
      if (value !== undefined) params.set(name, String(value));
    }
    params.set('cursor', encodeCursor(list.positionOf(last)));
    next = `${list.link.path}?${params}`;
  }
  return { items: page.map(list.view), next };
}

export function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

/** A page of a list newest first: its size, where it starts, and (admin keys) the one tenant asked for. */
export interface NewestFirstQuery {
  limit: number;
  cursor?: string | undefined;
  owner?: string | undefined;
}

/** A list newest first (crawls, corpora, rankings) at `path`, whose next page keeps its limit and owner. */
export function paginateNewestFirst<Row extends { created_at: Date; id: string }, Item>(
  path: string,
  page: NewestFirstQuery,
  read: (after: CreatedAtCursor | null, rows: number) => Promise<Row[]>,
  view: (row: Row) => Item,
): Promise<Paginated<Item>> {
  return paginate({
    limit: page.limit,
    cursor: page.cursor,
    accept: isCreatedAtCursor,
    read,
    view,
    positionOf: createdAtCursorOf,
    link: { path, query: { limit: page.limit, owner: page.owner } },
  });
}
