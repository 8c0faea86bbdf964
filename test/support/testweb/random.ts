// Seeded randomness for the test web: every page derives its own generator from (seed, key), so pages can be
// rendered lazily in any order and still come out byte-identical run after run.

/** FNV-1a over the parts' text: a stable 32-bit key for seedFor. */
export function hashKey(...parts: Array<string | number>): number {
  let hash = 0x811c9dc5;
  for (const char of parts.join('\u0000')) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  static for(seed: number, ...key: Array<string | number>): Rng {
    return new Rng(hashKey(seed, ...key));
  }

  /** mulberry32: small, fast and good enough for picking words and links. */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }

  words(n: number): string[] {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(this.pick(VOCABULARY));
    return out;
  }
}

/** Plain English filler: enough variety for word statistics, no markup characters. */
export const VOCABULARY: readonly string[] = (
  'river mountain harbour signal lantern orchard meadow engine copper silver quiet morning evening market ' +
  'garden window letter station bridge forest valley island winter summer autumn spring timber stone castle ' +
  'village country journey compass anchor ribbon feather pebble thunder candle mirror shadow canvas marble ' +
  'velvet crystal saddle harvest blossom cottage ladder pocket basket kettle needle button carpet pillow ' +
  'painter sailor farmer doctor teacher baker weaver miller hunter keeper writer singer dancer builder ' +
  'travels gathers watches carries follows builds paints measures repairs collects remembers discovers ' +
  'ancient bright gentle narrow distant hollow golden silent steady humble curious patient careful ' +
  'north south eastern western coastal rural urban northern southern highland lowland central ' +
  'library museum theatre gallery archive chapter volume record history science music poetry ' +
  'railway canal highway airport factory workshop office kitchen cellar attic tower harbour lighthouse'
).split(' ');
