// The one place that makes text from the web storable in PostgreSQL. Its text type cannot hold U+0000 (the
// server answers `invalid byte sequence for encoding "UTF8": 0x00`), and json/jsonb reject the \u0000 escape
// and an unpaired surrogate escape, which is how JSON.stringify writes a lone surrogate. Text a crawl reads
// (titles, anchors, alt text, main text, headers, robots.txt) is cleaned here once, at the storage port: NUL
// is dropped, as an HTML5 parser drops it from body text, and a lone surrogate becomes U+FFFD, as a UTF-8
// encoder (node-postgres's included) would write it. Text from a client is refused instead (findUnsafeText).

// String.prototype.isWellFormed/toWellFormed (ES2024, in Node 20) are native, so much cheaper than a
// regular-expression scan of every link and anchor of a page. The ES2023 lib we compile against lacks them.
interface WellFormed {
  isWellFormed(): boolean;
  toWellFormed(): string;
}
const FIRST_UNSAFE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** `text` without NUL characters and with each lone surrogate replaced by U+FFFD; `text` itself when clean. */
export function pgSafeText(text: string): string {
  const withoutNul = text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
  const checked = withoutNul as unknown as WellFormed;
  return checked.isWellFormed() ? withoutNul : checked.toWellFormed();
}

/** pgSafeText for a nullable column. */
export function pgSafeNullable(text: string | null): string | null {
  return text === null ? null : pgSafeText(text);
}

/**
 * `value` as JSON.stringify would see it (toJSON applied, so a Date becomes its string), with every string in
 * it, keys included, passed through pgSafeText.
 */
export function pgSafeJson<T>(value: T): T {
  if (typeof value === 'string') return pgSafeText(value) as T;
  if (Array.isArray(value)) return value.map((item) => pgSafeJson(item)) as T;
  if (value !== null && typeof value === 'object') {
    const { toJSON } = value as { toJSON?: () => unknown };
    if (typeof toJSON === 'function') return pgSafeJson(toJSON.call(value)) as T;
    const clean: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) clean[pgSafeText(key)] = pgSafeJson(item);
    return clean as T;
  }
  return value;
}

/** Where `text` holds a character PostgreSQL cannot store, and which: for refusing client input by field. */
export function findUnsafeText(text: string): { index: number; character: 'NUL' | 'lone surrogate' } | null {
  const match = FIRST_UNSAFE.exec(text);
  if (match === null) return null;
  return { index: match.index, character: match[0] === '\u0000' ? 'NUL' : 'lone surrogate' };
}

/** Why `text` from a client cannot be stored, or null when it can: the one wording of findUnsafeText. */
export function unstorableText(text: string): string | null {
  const unsafe = findUnsafeText(text);
  if (unsafe === null) return null;
  return unsafe.character === 'NUL'
    ? 'must not contain a NUL character (\\u0000)'
    : 'must not contain a lone UTF-16 surrogate (invalid Unicode)';
}
