// Opaque keyset cursors shared by every list endpoint: JSON in base64url, checked on the way back in, so a
// tampered cursor is a 400 naming the field rather than a cast error deep in PostgreSQL.
import { InputError } from '../errors.js';

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

export function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}
