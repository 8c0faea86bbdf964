import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WeightedQueue } from '../../../src/crawler/frontier/weighted-queue.js';
import { Rng } from '../../support/testweb/random.js';

function drain<K>(queue: WeightedQueue<K>): Array<[K, number]> {
  const out: Array<[K, number]> = [];
  for (let item = queue.extract(); item !== undefined; item = queue.extract())
    out.push([item.key, item.weight]);
  return out;
}

test('docs/reference.md#weighted-queue worked example, literally', () => {
  const queue = new WeightedQueue<number>();
  for (const [key, weight] of [
    [1, 5],
    [2, 3],
    [5, 7],
    [21, 5],
    [36, 4],
  ] as const) {
    assert.equal(queue.add(key, weight), true);
  }
  assert.deepEqual(queue.extract(), { key: 5, weight: 7 });
  assert.deepEqual(queue.extract(), { key: 1, weight: 5 });
  assert.equal(queue.add(21, 9), false, '21 is queued: the add is ignored');
  assert.equal(queue.size, 3);
  // The queue now holds (2,3) (21,5) (36,4); extraction order shows the weights kept.
  assert.deepEqual(drain(queue), [
    [21, 5],
    [36, 4],
    [2, 3],
  ]);
});

test('equal weights extract in exact FIFO order (BFS is the special case)', () => {
  const queue = new WeightedQueue<string>();
  const keys = Array.from({ length: 50 }, (_, i) => `u${(i * 37) % 50}`);
  for (const key of keys) queue.add(key, 0);
  assert.deepEqual(
    drain(queue).map(([key]) => key),
    keys,
  );
});

test('ties keep insertion order among mixed weights', () => {
  const queue = new WeightedQueue<string>();
  queue.add('a', 1);
  queue.add('b', 2);
  queue.add('c', 1);
  queue.add('d', 2);
  queue.add('e', 1);
  assert.deepEqual(
    drain(queue).map(([key]) => key),
    ['b', 'd', 'a', 'c', 'e'],
  );
});

test('closed set: an extracted key is never queued again, whatever its new weight', () => {
  const queue = new WeightedQueue<string>();
  queue.add('a', 1);
  assert.deepEqual(queue.extract(), { key: 'a', weight: 1 });
  assert.equal(queue.isVisited('a'), true);
  assert.equal(queue.add('a', 100), false);
  assert.equal(queue.has('a'), false);
  assert.equal(queue.size, 0);
  assert.equal(queue.extract(), undefined);
});

test('markVisited closes a key not yet seen, and removes a queued one', () => {
  const queue = new WeightedQueue<string>();
  queue.markVisited('x');
  assert.equal(queue.add('x', 5), false);
  queue.add('a', 3);
  queue.add('b', 2);
  queue.add('c', 1);
  queue.markVisited('a');
  assert.equal(queue.has('a'), false);
  assert.equal(queue.size, 2);
  assert.deepEqual(queue.peek(), { key: 'b', weight: 2 });
  assert.equal(queue.add('a', 9), false);
  assert.deepEqual(drain(queue), [
    ['b', 2],
    ['c', 1],
  ]);
  assert.equal(queue.visitedCount, 4);
});

test('peek does not remove; has reports queued keys only', () => {
  const queue = new WeightedQueue<string>();
  assert.equal(queue.peek(), undefined);
  queue.add('a', 1);
  queue.add('b', 4);
  assert.deepEqual(queue.peek(), { key: 'b', weight: 4 });
  assert.equal(queue.size, 2);
  assert.equal(queue.has('b'), true);
  assert.equal(queue.has('z'), false);
});

test('infinite weights order correctly; NaN is refused', () => {
  const queue = new WeightedQueue<string>();
  queue.add('low', Number.NEGATIVE_INFINITY);
  queue.add('mid', 0);
  queue.add('high', Number.POSITIVE_INFINITY);
  assert.deepEqual(
    drain(queue).map(([key]) => key),
    ['high', 'mid', 'low'],
  );
  assert.throws(() => queue.add('nan', Number.NaN), RangeError);
});

/** The specification as a linear scan: obviously right, O(n) per extract. */
class NaiveQueue {
  items: Array<{ key: number; weight: number; seq: number }> = [];
  visited = new Set<number>();
  seq = 0;
  add(key: number, weight: number): boolean {
    if (this.visited.has(key) || this.items.some((item) => item.key === key)) return false;
    this.items.push({ key, weight, seq: this.seq++ });
    return true;
  }
  extract(): { key: number; weight: number } | undefined {
    if (this.items.length === 0) return undefined;
    let best = 0;
    for (let i = 1; i < this.items.length; i++) {
      if (this.items[i]!.weight > this.items[best]!.weight) best = i; // strict: the earliest wins ties
    }
    const [item] = this.items.splice(best, 1);
    this.visited.add(item!.key);
    return { key: item!.key, weight: item!.weight };
  }
  markVisited(key: number): void {
    this.visited.add(key);
    this.items = this.items.filter((item) => item.key !== key);
  }
}

test('randomized operations agree with a naive reference implementation', () => {
  for (const seed of [1, 2, 3, 42, 2024]) {
    const rng = new Rng(seed); // mulberry32, replayable from the seed
    const random = () => rng.next();
    const queue = new WeightedQueue<number>();
    const naive = new NaiveQueue();
    for (let step = 0; step < 3000; step++) {
      const roll = random();
      const key = Math.floor(random() * 400);
      if (roll < 0.55) {
        const weight = Math.floor(random() * 6); // few distinct weights: many ties
        assert.equal(queue.add(key, weight), naive.add(key, weight), `seed ${seed} step ${step}: add`);
      } else if (roll < 0.93) {
        assert.deepEqual(queue.extract(), naive.extract(), `seed ${seed} step ${step}: extract`);
      } else {
        queue.markVisited(key);
        naive.markVisited(key);
      }
      assert.equal(queue.size, naive.items.length, `seed ${seed} step ${step}: size`);
      assert.equal(
        queue.has(key),
        naive.items.some((item) => item.key === key),
      );
    }
    for (;;) {
      const expected = naive.extract();
      assert.deepEqual(queue.extract(), expected);
      if (expected === undefined) break;
    }
  }
});

test('addOrRaise: a queued key takes a higher weight and keeps its first place among equals', () => {
  const queue = new WeightedQueue<number>();
  for (const [key, weight] of [
    [1, 5],
    [2, 3],
    [21, 5],
    [36, 4],
    [40, 9],
  ] as const) {
    queue.add(key, weight);
  }
  assert.equal(queue.addOrRaise(21, 9), true, '21 is raised from 5 to 9');
  assert.equal(queue.addOrRaise(2, 3), false, 'an equal weight changes nothing');
  assert.equal(queue.addOrRaise(36, 1), false, 'a lower weight does not lower 36');
  assert.equal(queue.addOrRaise(7, 4), true, 'a new key is queued as add() queues it');
  assert.equal(queue.size, 6);
  // 21 now weighs 9 like 40, but was added before 40; 36 and 7 weigh 4, 36 first
  assert.deepEqual(drain(queue), [
    [21, 9],
    [40, 9],
    [1, 5],
    [36, 4],
    [7, 4],
    [2, 3],
  ]);
  assert.equal(queue.addOrRaise(21, 100), false, 'an extracted key is never queued again');
  assert.equal(queue.size, 0);
});

test('addOrRaise keeps the heap ordered over many random raises (checked against a sorted list)', () => {
  const rng = Rng.for(11, 'weighted-queue-raise');
  const queue = new WeightedQueue<number>();
  const best = new Map<number, { weight: number; seq: number }>();
  let seq = 0;
  for (let i = 0; i < 2000; i++) {
    const key = rng.int(300);
    const weight = rng.int(20);
    queue.addOrRaise(key, weight);
    const known = best.get(key);
    if (known === undefined) best.set(key, { weight, seq: seq++ });
    else known.weight = Math.max(known.weight, weight);
  }
  const expected = [...best]
    .sort(([, a], [, b]) => b.weight - a.weight || a.seq - b.seq)
    .map(([key, { weight }]) => [key, weight]);
  assert.deepEqual(drain(queue), expected);
});
