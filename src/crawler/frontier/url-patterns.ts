// User regular expressions over canonical URLs (a crawl's scope.include / scope.exclude). They run on RE2
// (re2js, a pure-JS port of Go's regexp): matching time is linear in the URL's length whatever the pattern,
// where V8's backtracking engine takes exponential time on "(a|a)+$" and polynomial time on ".*.*.*x$".
// RE2's linear factor is the compiled program's size, and counted repetitions multiply it ("(a|b){300}"
// is some 900 instructions), so all patterns of a crawl share one program-size budget. Compiling a large
// expansion is itself seconds of CPU, so an upper-bound estimate is checked before anything is compiled.
import { RE2JS, RE2JSException } from 're2js';
import { InputError } from '../../errors.js';

/** Longest accepted pattern source, in characters. */
export const MAX_PATTERN_LENGTH = 500;
/** Most patterns accepted in one include or exclude list. */
export const MAX_PATTERNS = 100;
/**
 * Most RE2 instructions all of a crawl's patterns may compile to, together. Matching one URL costs up to
 * about (program size × URL length) steps; typical patterns ("/blog/", "\.pdf$", "^https?://[^/]+/en/")
 * are 10–30 instructions each. With MAX_PATTERN_URL_LENGTH this bounds a URL's check on the worker's loop
 * to a short stall even for the worst pattern admitted (`npm run bench -- patterns` measures it).
 */
export const MAX_PATTERN_PROGRAM_SIZE = 300;
/**
 * Longest canonical URL the patterns are run on, in characters: with include or exclude patterns set, a
 * longer URL is out of scope ("too-long-for-patterns") rather than costing its length in matching time.
 * Real pages' URLs rarely pass a few hundred characters; those past a thousand are traps and trackers.
 */
export const MAX_PATTERN_URL_LENGTH = 1024;

/** What is left of a crawl's program-size budget; shared by its include and exclude lists. */
export interface PatternBudget {
  remaining: number;
}

export function patternBudget(): PatternBudget {
  return { remaining: MAX_PATTERN_PROGRAM_SIZE };
}

/** The end (index after "]") of the character class opening at `start`, in RE2 syntax. */
function classEnd(source: string, start: number): number {
  let i = start + 1;
  if (source[i] === '^') i++;
  if (source[i] === ']') i++; // a leading "]" is a literal
  while (i < source.length && source[i] !== ']') {
    if (source[i] === '\\') i += 2;
    else if (source[i] === '[' && source[i + 1] === ':') {
      const close = source.indexOf(':]', i + 2);
      i = close < 0 ? i + 1 : close + 2;
    } else i++;
  }
  return i + 1;
}

/**
 * An upper bound of the RE2 program size of `source`, after RE2's parser (Go's regexp/syntax calcSize):
 * every atom costs 1, groups and quantifiers a few more, and "{n,m}" repeats its operand m times. Flag
 * groups and names are counted as atoms, which overestimates by a few instructions.
 */
export function estimateProgramSize(source: string): number {
  interface Frame {
    /** Size of the finished items of this group. */
    done: number;
    /** Size of the last item, which a quantifier applies to. */
    last: number;
  }
  const stack: Frame[] = [{ done: 0, last: 0 }];
  let frame = stack[0] as Frame;
  const atom = (size: number): void => {
    frame.done += frame.last;
    frame.last = size;
  };
  let i = 0;
  while (i < source.length) {
    const char = source[i];
    if (char === '\\') {
      const next = source[i + 1];
      if (next === 'Q') {
        // \Q…\E: literal text, one instruction per character
        const end = source.indexOf('\\E', i + 2);
        const stop = end < 0 ? source.length : end;
        for (let k = i + 2; k < stop; k++) atom(1);
        i = end < 0 ? source.length : end + 2;
        continue;
      }
      if ((next === 'p' || next === 'P' || next === 'x') && source[i + 2] === '{') {
        const close = source.indexOf('}', i + 3);
        i = close < 0 ? source.length : close + 1;
      } else {
        i += next === 'p' || next === 'P' ? 3 : 2;
      }
      atom(1);
    } else if (char === '[') {
      i = classEnd(source, i);
      atom(1);
    } else if (char === '(') {
      frame = { done: 0, last: 0 };
      stack.push(frame);
      i++;
    } else if (char === ')') {
      if (stack.length > 1) {
        const group = stack.pop() as Frame;
        frame = stack.at(-1) as Frame;
        atom(group.done + group.last + 2);
      }
      i++;
    } else if (char === '|') {
      frame.done += frame.last + 1;
      frame.last = 0;
      i++;
    } else if (char === '*' || char === '+' || char === '?') {
      frame.last += 2;
      i++;
    } else if (char === '{') {
      const repeat = /^\{(\d{1,7})(,(\d{0,7}))?\}/.exec(source.slice(i, i + 18));
      if (repeat === null) {
        atom(1); // "{" that opens no repetition is a literal
        i++;
        continue;
      }
      const min = Number(repeat[1]);
      const max = repeat[2] === undefined ? min : repeat[3] === '' ? null : Number(repeat[3]);
      frame.last =
        max === null ? Math.max(min, 1) * frame.last + 2 : Math.max(max, 1) * frame.last + max - min + 1;
      i += repeat[0].length;
    } else {
      atom(1);
      i++;
    }
  }
  let size = 0;
  for (const open of stack) size += open.done + open.last + 2;
  return size;
}

/** Why RE2 refused a pattern, in the user's terms. */
function explainRefusal(error: RE2JSException): string {
  const message = error.message.replace(/^error parsing regexp: /, '');
  const syntax = 'scope patterns use RE2 syntax, which matches in linear time';
  if (/`\(\?<[=!]/.test(message)) return `lookbehind is not supported: ${syntax} (${message})`;
  if (/`\(\?[=!]/.test(message)) return `lookahead is not supported: ${syntax} (${message})`;
  if (/`\\(?:[1-9]|k)/.test(message)) return `backreferences are not supported: ${syntax} (${message})`;
  return message;
}

/**
 * One include or exclude list, compiled into a single RE2 program (the patterns as alternatives), so a URL
 * is scanned once per list and the list shares one lazily built DFA.
 */
export class UrlPatternList {
  readonly #program: RE2JS | null;

  private constructor(program: RE2JS | null) {
    this.#program = program;
  }

  /**
   * Validates and compiles `sources`; every fault is an InputError naming `field` or `field[index]`, and
   * what the patterns compile to is taken from `budget`.
   */
  static compile(sources: unknown, field: string, budget: PatternBudget): UrlPatternList {
    if (sources === undefined) return new UrlPatternList(null);
    if (!Array.isArray(sources))
      throw new InputError(`${field} must be an array of regular expressions`, field);
    if (sources.length > MAX_PATTERNS) {
      throw new InputError(
        `${field} has ${sources.length} patterns; at most ${MAX_PATTERNS} are accepted`,
        field,
      );
    }
    const valid = sources.map((source: unknown, index) => {
      const itemField = `${field}[${index}]`;
      if (typeof source !== 'string' || source === '') {
        throw new InputError(`${itemField} must be a non-empty string`, itemField);
      }
      if (source.length > MAX_PATTERN_LENGTH) {
        throw new InputError(
          `${itemField} is ${source.length} characters long; at most ${MAX_PATTERN_LENGTH} are accepted`,
          itemField,
        );
      }
      const tooLarge = (size: string) =>
        new InputError(
          `${itemField} is too large for the linear-time matcher: it compiles to ${size} RE2 instructions, and all scope patterns together may use at most ${MAX_PATTERN_PROGRAM_SIZE} (${budget.remaining} were left); counted repetitions such as {100} repeat their operand`,
          itemField,
          { pattern: source },
        );
      // The estimate is an upper bound, with slack for its rough edges; the exact size is checked below.
      const estimate = estimateProgramSize(source);
      if (estimate > 4 * MAX_PATTERN_PROGRAM_SIZE) throw tooLarge(`about ${estimate}`);
      let compiled: RE2JS;
      try {
        compiled = RE2JS.compile(source);
      } catch (error) {
        if (!(error instanceof RE2JSException)) throw error;
        throw new InputError(
          `${itemField} is not a valid RE2 regular expression: ${explainRefusal(error)}`,
          itemField,
          { pattern: source },
        );
      }
      const size = compiled.programSize();
      if (size > budget.remaining) throw tooLarge(String(size));
      budget.remaining -= size;
      return source;
    });
    if (valid.length === 0) return new UrlPatternList(null);
    // Each pattern in a non-capturing group: its own flags, "(?i)", stay inside it.
    return new UrlPatternList(RE2JS.compile(valid.map((source) => `(?:${source})`).join('|')));
  }

  /** Whether the list has patterns at all. */
  get isEmpty(): boolean {
    return this.#program === null;
  }

  /** Whether any pattern matches somewhere in `url` (an unanchored search, as RegExp.prototype.test). */
  matches(url: string): boolean {
    return this.#program?.test(url) ?? false;
  }
}
