// Turns at a host shared by runners through the store: one request per slot at a time, each at least the
// host's delay after the one before it, a slot this runner holds lent to its robots.txt read, and hops that
// trade one host's slot for another's without ever waiting while holding one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type HeldSlot, HostTurns } from '../../../src/crawler/engine/host-turns.js';
import { MemoryCrawlStore } from '../../support/memory-crawl-store.js';

const CRAWL = 'crawl-1';
const A = 'http://a.test';
const B = 'http://b.test';

function runner(store: MemoryCrawlStore, workerId: string, signal = new AbortController().signal) {
  return new HostTurns({ store, workerId, leaseSecs: 30, signal, minDelayMs: 0 });
}

/** A store whose sites have robots.txt stored (every slot usable), and the ids of A and B. */
async function storeWithSites(slots: number): Promise<{ store: MemoryCrawlStore; a: number; b: number }> {
  const store = new MemoryCrawlStore();
  const ids = await store.ensureSites(CRAWL, [A, B], slots);
  const a = ids.get(A) as number;
  const b = ids.get(B) as number;
  for (const id of [a, b]) {
    await store.saveRobots(id, { status: 404, body: '', error: null, fetchedAt: new Date() }, null, []);
  }
  return { store, a, b };
}

test('requests of two runners to one host never overlap and keep the delay between them', async () => {
  const { store, a } = await storeWithSites(1);
  const delayMs = 60;
  const spans: Array<{ start: number; end: number }> = [];
  let inFlight = 0;
  const request = async () => {
    inFlight++;
    assert.equal(inFlight, 1, 'two requests to the host at once');
    const start = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 5));
    spans.push({ start, end: performance.now() });
    inFlight--;
    return { value: null, delayMs };
  };
  const turns = [runner(store, 'w1'), runner(store, 'w2')];
  await Promise.all(turns.flatMap((turn) => Array.from({ length: 3 }, () => turn.withTurn(a, A, request))));
  assert.equal(spans.length, 6);
  spans.sort((x, y) => x.start - y.start);
  for (let i = 1; i < spans.length; i++) {
    const gap = (spans[i] as { start: number }).start - (spans[i - 1] as { end: number }).end;
    // a millisecond of slack: the store's clock (Date.now) and performance.now() round differently
    assert.ok(gap >= delayMs - 1, `request ${i} came ${gap.toFixed(1)} ms after the one before`);
  }
});

test('a slot this runner holds is lent to a request that shares it; others wait for it', async () => {
  const store = new MemoryCrawlStore();
  const a = (await store.ensureSites(CRAWL, [A], 2)).get(A) as number;
  // no robots.txt stored yet: only slot 0 may be leased, so whoever holds it is alone at the host
  const holder = runner(store, 'w1');
  const lease = await store.leaseHostSlot(a, 'w1', 30);
  assert.equal(lease.slot, 0);
  holder.hold(a);
  let shared = false;
  await holder.withTurn(
    a,
    A,
    async () => {
      shared = true;
      return { value: null, delayMs: 10 };
    },
    { shareHeld: true },
  );
  assert.equal(shared, true);
  // the slot is still the holder's: the shared request did not give it back
  assert.equal((await store.leaseHostSlot(a, 'w2', 30)).slot, null);

  const other = runner(store, 'w2');
  let waited = true;
  const waiting = other.withTurn(a, A, async () => {
    waited = false;
    return { value: null, delayMs: 0 };
  });
  await new Promise((resolve) => setTimeout(resolve, 80));
  assert.equal(waited, true, 'another runner went ahead while the slot was held');
  holder.unhold(a);
  await store.releaseHostSlot(a, 0, 0);
  await waiting;
  assert.equal(waited, false);
});

test('a hop to another host frees the slot held before it waits for one there, and paces after robots.txt', async () => {
  const { store, a, b } = await storeWithSites(1);
  const turns = runner(store, 'w1');
  const first = await store.leaseHostSlot(a, 'w1', 30);
  assert.equal(first.slot, 0);
  turns.hold(a);
  const held: { current: HeldSlot | null } = { current: { siteId: a, slot: 0, delayMs: 40 } };
  // another runner holds b's only slot until a's is free: a runner waiting for b while holding a would deadlock
  const blocker = await store.leaseHostSlot(b, 'w2', 30);
  assert.equal(blocker.slot, 0);
  const freedA = (async () => {
    for (;;) {
      const lease = await store.leaseHostSlot(a, 'w2', 30);
      if (lease.slot !== null) {
        await store.releaseHostSlot(b, 0, 0);
        await store.releaseHostSlot(a, lease.slot, 0);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  let robotsAt = 0;
  let asked = 0;
  await turns.awaitHopTurn(held, b, B, async () => {
    asked++;
    // the new host's robots.txt read under its slot: a request, which the hop then waits after
    turns.requestSent(B);
    robotsAt = performance.now();
    return 50;
  });
  const hopAt = performance.now();
  await freedA;
  assert.equal(asked, 1);
  assert.deepEqual(held.current, { siteId: b, slot: 0, delayMs: 50 });
  assert.equal(turns.holds(b), true);
  assert.equal(turns.holds(a), false);
  assert.ok(hopAt - robotsAt >= 49, `the hop came ${(hopAt - robotsAt).toFixed(1)} ms after robots.txt`);

  // a hop within the same host keeps its slot and waits its delay
  const before = performance.now();
  await turns.awaitHopTurn(held, b, B, async () => assert.fail('same host: its delay is known'));
  assert.ok(performance.now() - before >= 49);
  assert.deepEqual(held.current, { siteId: b, slot: 0, delayMs: 50 });
});

test('a runner halted while waiting for a turn sends nothing and holds no slot', async () => {
  const { store, a } = await storeWithSites(1);
  await store.leaseHostSlot(a, 'w2', 30);
  const halt = new AbortController();
  const turns = runner(store, 'w1', halt.signal);
  let sent = false;
  const waiting = turns.withTurn(a, A, async () => {
    sent = true;
    return { value: null, delayMs: 0 };
  });
  setTimeout(() => halt.abort(), 30);
  await assert.rejects(waiting, /aborted/);
  assert.equal(sent, false);
  assert.equal(turns.holds(a), false);
});

test('while every slot is taken, what another runner stored meanwhile makes the request needless', async () => {
  const { store, a } = await storeWithSites(1);
  assert.equal((await store.leaseHostSlot(a, 'w2', 30)).slot, 0);
  const turns = runner(store, 'w1');
  let stored: string | null = null;
  setTimeout(() => {
    stored = 'robots.txt of a.test';
  }, 30);
  const value = await turns.withTurn(
    a,
    A,
    async () => assert.fail('the slot is still w2’s; the stored file should have been taken'),
    { meanwhile: async () => stored },
  );
  assert.equal(value, 'robots.txt of a.test');
  assert.equal(turns.holds(a), false);
});

test('a hop taken while holding a slot waits a bounded time for the other host’s, then gives up', async () => {
  const { store, a, b } = await storeWithSites(1);
  const turns = runner(store, 'w1');
  assert.equal((await store.leaseHostSlot(b, 'w2', 30)).slot, 0);
  // w2 holds b's only slot (and might be waiting for ours): the wait ends, with no slot
  assert.equal(await turns.leaseWithin(b, 60), null);
  assert.equal(turns.holds(b), false);
  // a free slot is leased, held, and given back with its delay
  const slot = await turns.leaseWithin(a, 60);
  assert.equal(slot, 0);
  assert.equal(turns.holds(a), true);
  await turns.release(a, 0, 10_000);
  assert.equal(turns.holds(a), false);
  const next = await store.leaseHostSlot(a, 'w2', 30);
  assert.equal(next.slot, null, 'the delay after the hop is kept');
});
