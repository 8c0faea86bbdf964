// Which of many phrases (word sequences) occur as consecutive words of a document, in time linear in the
// document whatever the phrases: Aho–Corasick (CACM 18(6), 1975) over words instead of characters, one pass.
// One scan per phrase would cost O(document words × phrases), too slow for a large document and a long query.
// The cost here is O(document words + phrase words); a document word that is in no phrase resets the scan.
// A query of a few phrases (a crawl's usual) is found by one Knuth–Morris–Pratt scan per phrase instead (SIAM
// J. Comput. 6(2), 1977): linear too, and a word comparison per position is cheaper than a hash look-up.

/** Up to this many phrases, a KMP scan each; more, the automaton. */
const FEW_PHRASES = 4;

/** fail[j]: the length of the longest proper prefix of needle[0..j] that is also its suffix. */
function failureTable(needle: readonly string[]): Int32Array {
  const fail = new Int32Array(needle.length);
  let k = 0;
  for (let j = 1; j < needle.length; j++) {
    while (k > 0 && needle[j] !== needle[k]) k = fail[k - 1]!;
    if (needle[j] === needle[k]) k++;
    fail[j] = k;
  }
  return fail;
}

function kmpContains(haystack: readonly string[], needle: readonly string[], fail: Int32Array): boolean {
  if (needle.length === 0) return false;
  let j = 0;
  for (const word of haystack) {
    while (j > 0 && word !== needle[j]) j = fail[j - 1]!;
    if (word === needle[j]) j++;
    if (j === needle.length) return true;
  }
  return false;
}

export class PhraseMatcher {
  /** Words that occur in some phrase → small ids (the automaton's alphabet). */
  private readonly vocabulary = new Map<string, number>();
  /** Trie edges per node, by word id; node 0 is the root. */
  private readonly children: Array<Map<number, number>> = [new Map()];
  /** Failure link: the node of the longest proper suffix of this node's path that is also a trie path. */
  private readonly fail: number[] = [0];
  /** Phrases (indices) that end exactly at this node. */
  private readonly ends: number[][] = [[]];
  /** The nearest node on the failure chain where a phrase ends (0: none). */
  private readonly nextEnd: number[] = [0];
  private readonly phraseCount: number;
  private readonly nonEmptyPhrases: number;
  /** Few phrases: each with its KMP failure table, and no automaton. */
  private readonly few: Array<{ needle: readonly string[]; fail: Int32Array }> | null = null;

  /** `phrases`: normalised words, in order; an empty phrase never matches. */
  constructor(phrases: ReadonlyArray<readonly string[]>) {
    this.phraseCount = phrases.length;
    this.nonEmptyPhrases = phrases.filter((phrase) => phrase.length > 0).length;
    if (phrases.length <= FEW_PHRASES) {
      this.few = phrases.map((needle) => ({ needle, fail: failureTable(needle) }));
      return;
    }
    phrases.forEach((phrase, index) => {
      if (phrase.length === 0) return;
      let node = 0;
      for (const word of phrase) {
        let id = this.vocabulary.get(word);
        if (id === undefined) {
          id = this.vocabulary.size;
          this.vocabulary.set(word, id);
        }
        let next = this.children[node]!.get(id);
        if (next === undefined) {
          next = this.children.length;
          this.children.push(new Map());
          this.fail.push(0);
          this.ends.push([]);
          this.nextEnd.push(0);
          this.children[node]!.set(id, next);
        }
        node = next;
      }
      this.ends[node]!.push(index);
    });
    // Breadth first, so a node's failure link (a shorter path) is final before its children need it.
    const queue: number[] = [...this.children[0]!.values()];
    for (let head = 0; head < queue.length; head++) {
      const parent = queue[head]!;
      for (const [id, child] of this.children[parent]!) {
        const target = parent === 0 ? 0 : this.step(this.fail[parent]!, id);
        this.fail[child] = target;
        this.nextEnd[child] = this.ends[target]!.length > 0 ? target : this.nextEnd[target]!;
        queue.push(child);
      }
    }
  }

  /** The node reached from `node` on word `id`, following failure links where the trie has no edge. */
  private step(node: number, id: number): number {
    let at = node;
    for (;;) {
      const next = this.children[at]!.get(id);
      if (next !== undefined) return next;
      if (at === 0) return 0;
      at = this.fail[at]!;
    }
  }

  /** found[i]: phrase i occurs in `words`. Stops reading once every phrase was found. */
  findIn(words: readonly string[]): boolean[] {
    if (this.few) return this.few.map(({ needle, fail }) => kmpContains(words, needle, fail));
    const found = new Array<boolean>(this.phraseCount).fill(false);
    let missing = this.nonEmptyPhrases;
    if (missing === 0) return found;
    // A node reported once has had its whole failure chain reported: each node's phrases are visited once.
    const reported = new Uint8Array(this.children.length);
    let node = 0;
    for (const word of words) {
      const id = this.vocabulary.get(word);
      if (id === undefined) {
        node = 0;
        continue;
      }
      node = this.step(node, id);
      for (
        let at = this.ends[node]!.length > 0 ? node : this.nextEnd[node]!;
        at !== 0;
        at = this.nextEnd[at]!
      ) {
        if (reported[at] === 1) break;
        reported[at] = 1;
        for (const phrase of this.ends[at]!) {
          found[phrase] = true;
          missing--;
        }
      }
      if (missing === 0) break;
    }
    return found;
  }
}
