import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { readBody } from '../../../src/crawler/fetch/body.js';
import { BodyBudget } from '../../../src/crawler/fetch/body-budget.js';
import { Fetcher } from '../../../src/crawler/fetch/fetcher.js';
import { eventually } from '../../support/eventually.js';
import { startServer } from './local-server.js';

const settled = async <T>(promise: Promise<T>): Promise<'pending' | T> =>
  Promise.race([promise, new Promise<'pending'>((resolve) => setImmediate(() => resolve('pending')))]);

test('a hold that does not fit waits until bytes are given back, first come first served', async () => {
  const budget = new BodyBudget(100);
  const a = budget.hold();
  const b = budget.hold();
  const c = budget.hold();
  assert.equal(await a.grow(60), true);
  const bWaits = b.grow(50);
  const cWaits = c.grow(10); // would fit, but b asked first
  assert.equal(await settled(bWaits), 'pending');
  assert.equal(await settled(cWaits), 'pending');
  a.release();
  assert.equal(await bWaits, true);
  assert.equal(await cWaits, true);
  assert.equal(budget.usedBytes, 60);
});

test('when every holder waits, the one holding most is cut instead of deadlocking', async () => {
  const budget = new BodyBudget(100);
  const small = budget.hold();
  const big = budget.hold();
  assert.equal(await small.grow(30), true);
  assert.equal(await big.grow(60), true);
  const smallWaits = small.grow(20);
  assert.equal(await settled(smallWaits), 'pending');
  // big now waits too: nobody would give anything back, so big (60 held) stops growing
  assert.equal(await big.grow(20), false);
  assert.equal(big.heldBytes, 60);
  assert.equal(await settled(smallWaits), 'pending');
  big.release();
  assert.equal(await smallWaits, true);
  assert.equal(small.heldBytes, 50);
});

test('a hold never asks for more than the whole budget, and an abort ends a wait', async () => {
  const budget = new BodyBudget(100);
  const a = budget.hold();
  assert.equal(await a.grow(101), false);
  assert.equal(await a.grow(90), true);
  const b = budget.hold();
  const controller = new AbortController();
  const waiting = b.grow(50, controller.signal);
  controller.abort(new Error('stop'));
  await assert.rejects(waiting, /stop/);
  assert.equal(budget.waiting, 0);
  a.release();
  assert.equal(budget.usedBytes, 0);
});

test('readBody: a body the budget cannot cover waits, and is whole once covered', async () => {
  const budget = new BodyBudget(4 << 20);
  const other = budget.hold();
  assert.equal(await other.grow(3 << 20), true);
  const hold = budget.hold();
  const body = Buffer.alloc(2 << 20, 'a');
  let waits = 0;
  const reading = readBody(
    Readable.from([body.subarray(0, 1 << 20), body.subarray(1 << 20)]),
    undefined,
    8 << 20,
    {
      hold,
      contentLength: body.length,
      onBudgetWait: (waiting) => {
        if (waiting) waits++;
      },
    },
  );
  assert.equal(await settled(reading), 'pending');
  other.release();
  const read = await reading;
  assert.equal(read.body.length, body.length);
  assert.equal(read.truncated, false);
  assert.equal(read.budgetCut, false);
  assert.equal(hold.heldBytes, body.length, 'the hold covers the body until the caller releases it');
  assert.equal(waits, 1);
});

test('readBody: a body of unknown length is cut where the budget ends, and marked', async () => {
  const budget = new BodyBudget(3 << 20);
  const hold = budget.hold();
  const chunks = Array.from({ length: 8 }, () => Buffer.alloc(1 << 20, 'b'));
  const read = await readBody(Readable.from(chunks), undefined, 100 << 20, { hold });
  assert.equal(read.body.length, 3 << 20, 'never more than the whole budget');
  assert.equal(read.truncated, true);
  assert.equal(hold.heldBytes, 3 << 20);
  hold.release();
  // a short body gives back what it was granted beyond its size
  const small = budget.hold();
  const short = await readBody(Readable.from([Buffer.from('hello')]), undefined, 100 << 20, { hold: small });
  assert.equal(short.body.toString(), 'hello');
  assert.equal(small.heldBytes, 5);
});

test('Fetcher: time spent waiting for the budget does not count against timeoutMs', async (t) => {
  const body = Buffer.alloc(300_000, 'x');
  const server = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(body.length) });
    res.end(body);
  });
  const fetcher = new Fetcher({ allowPrivateNetworks: true });
  t.after(async () => {
    await fetcher.close();
    await server.close();
  });
  const budget = new BodyBudget(400_000);
  const other = budget.hold();
  assert.equal(await other.grow(200_000), true);
  const timeoutMs = 2000;
  const hold = budget.hold();
  const fetching = fetcher.fetch(`${server.origin}/`, {
    userAgent: 'trawl-test',
    timeoutMs,
    maxBytes: 1_000_000,
    budgetHold: hold,
  });
  // Once the body is seen waiting for `other`, it waits three times the fetch's timeout more: the deadline
  // must not count that wait. Waiting on the state, not a guessed delay, keeps a loaded machine from
  // spending the fetch's own timeout before the wait even begins.
  await eventually(() => budget.waiting === 1, { message: 'the body to wait for the budget' });
  await new Promise((resolve) => setTimeout(resolve, 3 * timeoutMs));
  other.release();
  const result = await fetching;
  assert.equal(result.error, null);
  assert.equal(result.bytes, body.length);
  assert.equal(result.truncated, false);
  assert.ok(result.loadMs >= 3 * timeoutMs, `waited ${result.loadMs} ms`);
  assert.equal(hold.heldBytes, body.length);
  hold.release();
});

test('Fetcher: a body larger than the whole budget is cut there and marked', async (t) => {
  const server = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }); // no Content-Length: chunked
    res.end(Buffer.alloc(3 << 20, 'y'));
  });
  const fetcher = new Fetcher({ allowPrivateNetworks: true });
  t.after(async () => {
    await fetcher.close();
    await server.close();
  });
  const hold = new BodyBudget(2 << 20).hold();
  const result = await fetcher.fetch(`${server.origin}/`, {
    userAgent: 'trawl-test',
    timeoutMs: 10_000,
    maxBytes: 10 << 20,
    budgetHold: hold,
    maxTextBytes: 1000,
  });
  assert.equal(result.bytes, 2 << 20);
  assert.equal(result.truncated, true);
  assert.equal(result.budgetCut, true);
  assert.equal(result.text?.length, 1000, 'only maxTextBytes are decoded');
  hold.release();
});
