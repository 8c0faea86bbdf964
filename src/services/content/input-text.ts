// Text a client sends that PostgreSQL cannot store: a NUL (text and jsonb refuse U+0000) or a lone UTF-16
// surrogate (JSON lets "\ud800" through; it has no UTF-8 form). Such input is a 400 naming the field, found
// once for every route by a walk over the parsed request (plugins/problems.ts), never a cast error later.
// What is unstorable is decided in one place, beside the cleaning of text from the web (crawler/text/pg-safe).
import { unstorableText } from '../../crawler/text/pg-safe.js';

export { unstorableText };

/** An array or object being walked: its keys (null for an array) and the next entry to visit. */
interface Frame {
  container: unknown[] | Record<string, unknown>;
  keys: string[] | null;
  next: number;
}

const frameOf = (item: unknown): Frame | null => {
  if (Array.isArray(item)) return { container: item, keys: null, next: 0 };
  if (item !== null && typeof item === 'object')
    return { container: item as Record<string, unknown>, keys: Object.keys(item), next: 0 };
  return null;
};

/**
 * The first string in a parsed JSON value (keys included) that cannot be stored: its path and the reason.
 * Walked with a stack of its own, not by recursion: how deep a value nests is the client's to choose.
 */
export function findUnstorableText(value: unknown): { path: Array<string | number>; message: string } | null {
  if (typeof value === 'string') {
    const message = unstorableText(value);
    return message ? { path: [], message } : null;
  }
  const root = frameOf(value);
  if (!root) return null;
  const frames = [root];
  // the path to the frame on top (one array pushed and popped: a ranking upload holds hundreds of thousands of strings)
  const path: Array<string | number> = [];
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!;
    const { container, keys } = frame;
    if (frame.next === (keys ?? (container as unknown[])).length) {
      frames.pop();
      path.pop();
      continue;
    }
    const index = frame.next++;
    let segment: string | number = index;
    if (keys) {
      segment = keys[index]!;
      const keyMessage = unstorableText(segment);
      if (keyMessage) return { path: [...path, segment], message: `name ${keyMessage}` };
    }
    const item = (container as Record<string | number, unknown>)[segment];
    if (typeof item === 'string') {
      const message = unstorableText(item);
      if (message) return { path: [...path, segment], message };
      continue;
    }
    const inner = frameOf(item);
    if (inner) {
      frames.push(inner);
      path.push(segment);
    }
  }
  return null;
}
