import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LruMap } from '../../src/crawler/lru-map.js';

describe('LruMap', () => {
  it('forgets the least recently used entry beyond its capacity', () => {
    const map = new LruMap<string, number>(2);
    map.set('a', 1).set('b', 2);
    assert.equal(map.get('a'), 1); // a is now the most recently used
    map.set('c', 3);
    assert.equal(map.has('b'), false);
    assert.equal(map.get('a'), 1);
    assert.equal(map.get('c'), 3);
    assert.equal(map.size, 2);
  });

  it('re-setting a key refreshes it without growing', () => {
    const map = new LruMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('a', 10).set('c', 3);
    assert.deepEqual([map.get('a'), map.has('b'), map.get('c')], [10, false, 3]);
  });

  it('refuses a capacity that is not a positive integer', () => {
    assert.throws(() => new LruMap(0), RangeError);
    assert.throws(() => new LruMap(1.5), RangeError);
  });
});
