// Word frequencies over a crawl's extracted text and Zipf's constant (docs/reference.md#word-statistics): for the top N words,
// rank r, frequency f and r·f / total words, about 0.1 for English. Stop words are counted: they are the top ranks
// of the rank–frequency curve, and dropping them would bend the law the statistic is meant to show.
import { InputError } from '../../errors.js';
import { tokenize } from '../text/tokenize.js';

export interface RankedWord {
  word: string;
  /** 1-based; equal frequencies are ranked alphabetically, so every word has its own rank. */
  rank: number;
  frequency: number;
  /** r·f / total words. */
  zipf: number;
}

/** Stored form: pairs, not an object keyed by word, so words like "constructor" or "__proto__" stay plain data. */
export interface WordCounterJson {
  version: 1;
  totalWords: number;
  words: Array<[string, number]>;
}

export class WordCounter {
  private readonly counts = new Map<string, number>();
  private total = 0;

  /** Counts already-tokenized words (use `tokenize` from src/crawler/text, or `addText`). */
  add(words: Iterable<string>): void {
    for (const word of words) {
      this.counts.set(word, (this.counts.get(word) ?? 0) + 1);
      this.total++;
    }
  }

  /** Counts the words of `text` by the shared tokenizer, stop words included. */
  addText(text: string): void {
    this.add(tokenize(text));
  }

  merge(other: WordCounter): void {
    for (const [word, count] of other.counts) this.counts.set(word, (this.counts.get(word) ?? 0) + count);
    this.total += other.total;
  }

  get totalWords(): number {
    return this.total;
  }

  get distinctWords(): number {
    return this.counts.size;
  }

  frequency(word: string): number {
    return this.counts.get(word) ?? 0;
  }

  /** The `n` most frequent words, most frequent first, with rank and Zipf's r·f/N. */
  top(n: number): RankedWord[] {
    if (!Number.isSafeInteger(n) || n < 0)
      throw new InputError('n must be a non-negative integer', 'n', { value: n });
    const sorted = [...this.counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return sorted.slice(0, n).map(([word, frequency], index) => ({
      word,
      rank: index + 1,
      frequency,
      zipf: ((index + 1) * frequency) / this.total,
    }));
  }

  toJSON(): WordCounterJson {
    return { version: 1, totalWords: this.total, words: [...this.counts] };
  }

  /** Rebuilds a counter from `toJSON()` output; InputError naming the faulty field otherwise. */
  static fromJSON(json: unknown): WordCounter {
    if (typeof json !== 'object' || json === null) throw new InputError('word counts must be an object', '');
    const { version, totalWords, words } = json as Partial<Record<keyof WordCounterJson, unknown>>;
    if (version !== 1) throw new InputError(`unsupported word counts version ${String(version)}`, '/version');
    if (!Array.isArray(words))
      throw new InputError('words must be an array of [word, count] pairs', '/words');
    const counter = new WordCounter();
    let sum = 0;
    words.forEach((pair: unknown, index) => {
      const [word, count] = Array.isArray(pair) ? pair : [];
      if (typeof word !== 'string' || !Number.isSafeInteger(count) || (count as number) < 1) {
        throw new InputError('each entry must be [word, positive integer count]', `/words/${index}`, {
          entry: pair,
        });
      }
      if (counter.counts.has(word)) throw new InputError(`duplicate word "${word}"`, `/words/${index}`);
      counter.counts.set(word, count as number);
      sum += count as number;
    });
    if (totalWords !== sum) {
      throw new InputError('totalWords does not equal the sum of the counts', '/totalWords', {
        totalWords,
        sum,
      });
    }
    counter.total = sum;
    return counter;
  }
}
