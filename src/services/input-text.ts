// Text a client sends that PostgreSQL cannot store: a NUL (text and jsonb refuse U+0000) or a lone UTF-16
// surrogate (JSON lets "\ud800" through; it has no UTF-8 form). Such input is a 400 naming the field, found
// once for every route by a walk over the parsed request (plugins/problems.ts), never a cast error later.
// What is unstorable is decided in one place, beside the cleaning of text from the web (crawler/text/pg-safe).
import { findUnsafeText } from '../crawler/text/pg-safe.js';

/** Why `text` cannot be stored, or null when it can. */
export function unstorableText(text: string): string | null {
  const unsafe = findUnsafeText(text);
  if (unsafe === null) return null;
  return unsafe.character === 'NUL'
    ? 'must not contain a NUL character (\\u0000)'
    : 'must not contain a lone UTF-16 surrogate (invalid Unicode)';
}

/** The first string in a parsed JSON value (keys included) that cannot be stored: its path and the reason. */
export function findUnstorableText(value: unknown): { path: Array<string | number>; message: string } | null {
  // one path array pushed and popped: a ranking upload holds hundreds of thousands of strings
  const path: Array<string | number> = [];
  const walk = (item: unknown): string | null => {
    if (typeof item === 'string') return unstorableText(item);
    if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) {
        path.push(i);
        const message = walk(item[i]);
        if (message) return message;
        path.pop();
      }
    } else if (item !== null && typeof item === 'object') {
      for (const key of Object.keys(item)) {
        path.push(key);
        const keyMessage = unstorableText(key);
        if (keyMessage) return `name ${keyMessage}`;
        const message = walk((item as Record<string, unknown>)[key]);
        if (message) return message;
        path.pop();
      }
    }
    return null;
  };
  const message = walk(value);
  return message ? { path, message } : null;
}
