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

export function isCreatedAtCursor(value: unknown): value is CreatedAtCursor {
  const { createdAt, id } = (value ?? {}) as Record<string, unknown>;
  return (
    typeof createdAt === 'string' &&
    !Number.isNaN(Date.parse(createdAt)) &&
    typeof id === 'string' &&
    /^[0-9a-f-]{36}$/i.test(id)
  );
}

export function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}
