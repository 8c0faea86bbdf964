// The renderer pool's memory budget: when a page renders, waits, or gets a fresh browser (memory-budget.ts),
// and the /proc reading behind it (a process tree's memory, this test process and a child of its own).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test } from 'node:test';
import { memoryVerdict } from '../../../src/crawler/render/memory-budget.js';
import {
  processTree,
  processTreeMemory,
  residentMemory,
} from '../../../src/crawler/render/process-memory.js';

const MiB = 1024 * 1024;
const state = { budgetBytes: 512 * MiB, pagesRendering: 0, pagesOnBrowser: 10 };

test('under the budget, or with none, or nothing read, a page renders', () => {
  assert.equal(memoryVerdict({ ...state, usedBytes: 100 * MiB }), 'render');
  assert.equal(memoryVerdict({ ...state, usedBytes: 512 * MiB, pagesRendering: 3 }), 'render');
  assert.equal(
    memoryVerdict({ ...state, usedBytes: 4096 * MiB, budgetBytes: 0, pagesRendering: 3 }),
    'render',
  );
  assert.equal(memoryVerdict({ ...state, usedBytes: null, pagesRendering: 3 }), 'render');
});

test('over the budget, a page waits while others render: their renderers go with them', () => {
  assert.equal(memoryVerdict({ ...state, usedBytes: 513 * MiB, pagesRendering: 1 }), 'wait');
  assert.equal(
    memoryVerdict({ ...state, usedBytes: 900 * MiB, pagesRendering: 4, pagesOnBrowser: 0 }),
    'wait',
  );
});

test('over the budget with nothing rendering, the browser itself is the bloat: replaced, unless it is fresh', () => {
  assert.equal(memoryVerdict({ ...state, usedBytes: 513 * MiB }), 'recycle');
  // a budget below Chromium's own footprint: one page per fresh browser, never none
  assert.equal(memoryVerdict({ ...state, usedBytes: 513 * MiB, pagesOnBrowser: 0 }), 'render');
});

test("a process tree's memory counts its children; a gone process reads as null", async () => {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  try {
    await once(child, 'spawn');
    const tree = processTree(process.pid);
    assert.equal(tree[0], process.pid);
    assert.ok(child.pid !== undefined && tree.includes(child.pid), `tree: ${tree.join(', ')}`);
    const own = await processTreeMemory(child.pid!);
    const all = await processTreeMemory(process.pid);
    assert.ok(own !== null && all !== null);
    assert.ok(own.rssBytes > 0 && own.pssBytes > 0, JSON.stringify(own));
    assert.ok(all.rssBytes > own.rssBytes, 'the parent adds its own');
    assert.ok(all.pssBytes <= all.rssBytes, 'shared pages are divided, not counted twice');
  } finally {
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
  assert.equal(await processTreeMemory(child.pid!), null);
  assert.deepEqual(processTree(child.pid!), []);
});

test("one process's resident set, now and at its peak; a gone process reads as null", async () => {
  const memory = residentMemory(process.pid);
  assert.ok(memory !== null && memory.rssBytes > 1024 * 1024, 'this node process holds over a MiB');
  assert.ok(memory.peakBytes >= memory.rssBytes, 'the peak is at least what it holds now');
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await once(child, 'exit');
  assert.equal(residentMemory(child.pid!), null);
});
