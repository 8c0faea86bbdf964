// The document's `words` under a request's text settings (docs/reference.md#document-model): the reference
// tokens without stop words — the Snowball English list by default, none, or the request's own list — and,
// when asked, reduced to their Porter stems (so "cats" and "cat" are one term). TF-IDF vectors and corpora are
// built through one WordModel; a stored corpus records the settings it was built with (`describe()`), and
// scoring compares them before using it.
import { stemmer } from 'stemmer';
import { InputError } from '../../errors.js';
import { SNOWBALL_ENGLISH_STOP_WORDS } from './stop-words.js';
import { referenceTokens } from './tokenize.js';

export type StopWordsSetting = 'default' | 'none' | readonly string[];

export interface TextSettings {
  stopWords: StopWordsSetting;
  stem: boolean;
}

export const DEFAULT_TEXT_SETTINGS: TextSettings = { stopWords: 'default', stem: false };

/** The settings as a stored corpus records them: the tokenizer's version too, and a custom list sorted. */
export interface TextSettingsRecord {
  tokenizer: 'reference-v1';
  stopWords: 'default' | 'none' | string[];
  stem: boolean;
}

export class WordModel {
  static readonly default = new WordModel(DEFAULT_TEXT_SETTINGS);

  readonly #stopWords: ReadonlySet<string>;
  readonly #stem: boolean;
  readonly #stems = new Map<string, string>();

  constructor(readonly settings: TextSettings) {
    const list =
      settings.stopWords === 'default'
        ? SNOWBALL_ENGLISH_STOP_WORDS
        : settings.stopWords === 'none'
          ? []
          : settings.stopWords.map((word) => word.toLowerCase());
    this.#stopWords = new Set(list);
    this.#stem = settings.stem;
  }

  /** `tokens` (referenceTokens of a text) as words: stop words out, stemmed when asked. */
  words(tokens: readonly string[]): string[] {
    const words: string[] = [];
    for (const token of tokens) {
      if (this.#stopWords.has(token)) continue;
      words.push(this.#stem ? this.#stemOf(token) : token);
    }
    return words;
  }

  /** The words of a short text (a title, a heading). */
  wordsOf(text: string): string[] {
    return this.words(referenceTokens(text));
  }

  /** The model of a request's optional `stopWords` and `stem` (a crawl's relevance, /v1/score, a corpus). */
  static of(options: { stopWords?: StopWordsSetting; stem?: boolean }): WordModel {
    const stopWords = options.stopWords ?? DEFAULT_TEXT_SETTINGS.stopWords;
    const stem = options.stem ?? DEFAULT_TEXT_SETTINGS.stem;
    return stopWords === 'default' && !stem ? WordModel.default : new WordModel({ stopWords, stem });
  }

  /** The model a stored corpus was built with; its settings before the reference tokenizer read as default. */
  static fromRecord(record: TextSettingsRecord | null): WordModel {
    return record ? new WordModel({ stopWords: record.stopWords, stem: record.stem }) : WordModel.default;
  }

  describe(): TextSettingsRecord {
    const stopWords = this.settings.stopWords;
    return {
      tokenizer: 'reference-v1',
      stopWords:
        typeof stopWords === 'string'
          ? stopWords
          : [...new Set(stopWords.map((w) => w.toLowerCase()))].sort(),
      stem: this.#stem,
    };
  }

  #stemOf(word: string): string {
    let stem = this.#stems.get(word);
    if (stem === undefined) {
      stem = stemmer(word);
      // a crawl meets a bounded vocabulary, but a hostile one could grow this: keep the memo small
      if (this.#stems.size > 100_000) this.#stems.clear();
      this.#stems.set(word, stem);
    }
    return stem;
  }
}

/** Where two recorded settings differ, in words for a 409; null when they agree. */
export function settingsMismatch(corpus: TextSettingsRecord, request: TextSettingsRecord): string | null {
  const differences: string[] = [];
  if (corpus.tokenizer !== request.tokenizer) {
    differences.push(
      `tokenizer ${corpus.tokenizer ?? 'letter runs (before reference-v1)'} ≠ ${request.tokenizer}`,
    );
  }
  if (JSON.stringify(corpus.stopWords) !== JSON.stringify(request.stopWords)) {
    differences.push(`stopWords ${JSON.stringify(corpus.stopWords)} ≠ ${JSON.stringify(request.stopWords)}`);
  }
  if (corpus.stem !== request.stem) differences.push(`stem ${corpus.stem} ≠ ${request.stem}`);
  return differences.length ? differences.join('; ') : null;
}

/**
 * stopWords and stem shape TF-IDF's words; keyword matching reads the page as it is (it matches stop-word
 * terms too), so with a query they would silently do nothing: a 400 on `<prefix>stopWords` / `<prefix>stem`.
 */
export function rejectTextSettingsWithQuery(
  options: { stopWords?: StopWordsSetting; stem?: boolean },
  prefix: string,
): void {
  for (const field of ['stopWords', 'stem'] as const) {
    if (options[field] !== undefined) {
      throw new InputError(
        `${field} applies to TF-IDF (similarTo), not to a keyword query`,
        `${prefix}${field}`,
      );
    }
  }
}
