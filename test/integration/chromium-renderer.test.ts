// The Chromium renderer on its own (no crawl, no database): the page gets only what the crawl answers, the
// channels interception cannot see (WebSockets, service workers, WebRTC) are closed, waitUntil waits as
// asked, and the browser is replaced after RENDER_RECYCLE_PAGES pages. One Chromium, closed after the file.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import {
  ChromiumRenderer,
  type LaunchCause,
  type RenderObserver,
} from '../../src/crawler/render/chromium.js';
import type { PageRequest, PageRequestAnswer, RenderJob } from '../../src/crawler/render/port.js';
import { eventually } from '../helper.js';
import { CHROMIUM, chromiumProcesses, skipWithoutChromium } from '../support/browser.js';

const skip = skipWithoutChromium();
const renderer = new ChromiumRenderer({ executablePath: CHROMIUM, concurrency: 1, recyclePages: 2 });
after(() => renderer.close());

function job(body: string, overrides: Partial<RenderJob> = {}): RenderJob & { asked: PageRequest[] } {
  const asked: PageRequest[] = [];
  return {
    url: 'http://127.0.0.2:1/page.html',
    document: {
      status: 200,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: Buffer.from(body),
    },
    userAgent: 'trawl-test/1.0',
    waitUntil: 'load',
    timeoutMs: 10_000,
    block: new Set(['image']),
    screenshot: false,
    signal: new AbortController().signal,
    answer: async (request) => {
      asked.push(request);
      return { refused: 'nothing is served in this test' };
    },
    asked,
    ...overrides,
  };
}

test('WebSockets, service workers and WebRTC are closed to the page; refused requests fail in it', {
  skip,
}, async () => {
  const page = job(`<!doctype html><body><div id="out"></div><script>
const out = document.getElementById('out');
const note = (text) => out.insertAdjacentHTML('beforeend', '<p>' + text + '</p>');
note('webrtc:' + typeof window.RTCPeerConnection);
if (!navigator.serviceWorker) note('sw:absent');
// Playwright's 'block' stubs register(): it settles, and nothing is registered
else navigator.serviceWorker.register('/sw.js').catch(() => null)
  .then(() => navigator.serviceWorker.getRegistrations())
  .then((registrations) => note('sw:' + registrations.length + ' registered'), () => note('sw:refused'));
const socket = new WebSocket('ws://127.0.0.3:9/socket');
socket.onclose = () => note('ws:closed');
fetch('/data.json').then(() => note('fetch:answered'), () => note('fetch:failed'));
</script><img src="/pixel.png"></body>`);
  const output = await renderer.render({
    ...page,
    waitUntil: { selector: 'p:nth-of-type(4)' },
    timeoutMs: 5000,
  });
  assert.equal(output.problem, null, output.problem ?? '');
  assert.match(output.html ?? '', /webrtc:undefined/);
  assert.match(output.html ?? '', /ws:closed/);
  assert.match(output.html ?? '', /fetch:failed/);
  assert.match(output.html ?? '', /sw:(absent|refused|0 registered)/);
  // the fetch was asked of the crawl; the image was blocked by type; the WebSocket never reached `answer`
  assert.deepEqual(
    page.asked.map((request) => [request.kind, request.url]),
    [['fetch', 'http://127.0.0.2:1/data.json']],
  );
  assert.equal(output.requests.blocked, 1);
  assert.equal(output.requests.refused, 1);
});

test('waitUntil a selector waits for the element a script adds later', { skip }, async () => {
  const page = job(`<!doctype html><body><script>
setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<a id="late" href="/late">late</a>'), 300);
</script></body>`);
  const waited = await renderer.render({ ...page, waitUntil: { selector: '#late' } });
  assert.match(waited.html ?? '', /id="late"/);
  // Opening the page has a deadline of its own, as long as the page's: it must be long enough that a loaded
  // machine (a browser relaunched after recyclePages, other test files beside) opens the page within it.
  const missing = await renderer.render({ ...page, waitUntil: { selector: '#never' }, timeoutMs: 6000 });
  assert.match(missing.problem ?? '', /did not settle within 6000 ms \(waitUntil selector #never\)/);
  assert.ok(missing.html !== null, 'the DOM as it stood is read');
});

test('a handler that throws fails its render with the fault, and the process goes on', { skip }, async () => {
  // the crawl's answer is called inside the route handler: its throw is the handler's
  const page = job('<!doctype html><body><p>asks</p><script src="/app.js"></script></body>', {
    answer: async () => {
      throw new Error('the crawl could not answer');
    },
  });
  const output = await renderer.render(page);
  assert.equal(output.html, null);
  assert.equal(output.problem, 'render failed: the route handler threw: the crawl could not answer');
  const next = await renderer.render(job('<!doctype html><body><p>the next page</p></body>'));
  assert.match(next.html ?? '', /the next page/);
});

test('the browser is replaced after recyclePages pages, and pages go on rendering', { skip }, async () => {
  for (let i = 0; i < 5; i++) {
    const output = await renderer.render(job(`<!doctype html><body><p>page ${i}</p></body>`));
    assert.match(output.html ?? '', new RegExp(`page ${i}`));
  }
  assert.ok(renderer.stats.browsers <= 2, `browsers alive: ${renderer.stats.browsers}`);
});

/**
 * A page whose script the crawl is asked for and answers only when released (refused, after 40 s unless
 * released before): the render is in flight until then.
 */
function stalledPage(label: string) {
  let asked!: () => void;
  const askedForScript = new Promise<void>((resolve) => {
    asked = resolve;
  });
  let release!: () => void;
  const released = new Promise<PageRequestAnswer>((resolve) => {
    release = () => resolve({ refused: 'released' });
    setTimeout(() => resolve({ refused: 'too late' }), 40_000).unref();
  });
  const page = job(`<!doctype html><body><p>${label}</p><script src="/stall.js"></script></body>`, {
    timeoutMs: 30_000,
    answer: (request) => {
      if (request.url.endsWith('/stall.js')) asked();
      return released;
    },
  });
  return { page, askedForScript, release };
}

test('a browser killed mid-render fails the pages in flight, and the next page launches a new one', {
  skip,
  timeout: 120_000,
}, async () => {
  const crashing = new ChromiumRenderer({ executablePath: CHROMIUM, concurrency: 2, recyclePages: 100 });
  try {
    const warm = await crashing.render(job('<!doctype html><body><p>warm</p></body>'));
    assert.match(warm.html ?? '', /warm/);
    const [pid] = crashing.browserPids;
    assert.ok(pid !== undefined, 'the browser says its process id');
    const first = stalledPage('first');
    const second = stalledPage('second');
    const rendering = [crashing.render(first.page), crashing.render(second.page)];
    await Promise.all([first.askedForScript, second.askedForScript]);
    process.kill(pid, 'SIGKILL');
    const outputs = await Promise.all(rendering);
    for (const output of outputs) {
      assert.equal(output.html, null);
      assert.equal(output.problem, 'render failed: Chromium exited mid-render; the DOM could not be read');
    }
    const after = await crashing.render(job('<!doctype html><body><p>after the crash</p></body>'));
    assert.match(after.html ?? '', /after the crash/);
    assert.deepEqual(crashing.stats, { rendering: 0, waiting: 0, waitingForMemory: 0, browsers: 1 });
    assert.notEqual(crashing.browserPids[0], pid, 'a new browser');
  } finally {
    await crashing.close();
  }
});

test('a renderer process that dies fails its page only; the browser renders the next', {
  skip,
  timeout: 120_000,
}, async () => {
  const crashing = new ChromiumRenderer({ executablePath: CHROMIUM, concurrency: 1, recyclePages: 100 });
  try {
    await crashing.ready();
    const [pid] = crashing.browserPids;
    assert.ok(pid !== undefined);
    const stalled = stalledPage('crashing');
    const rendering = crashing.render(stalled.page);
    await stalled.askedForScript;
    const renderers = await chromiumProcesses(pid, 'renderer');
    assert.ok(renderers.length > 0, 'the page has a renderer process');
    for (const renderer of renderers) process.kill(renderer, 'SIGKILL');
    const output = await rendering;
    assert.equal(output.html, null);
    assert.equal(
      output.problem,
      "render failed: the page's renderer process crashed; the DOM could not be read",
    );
    const after = await crashing.render(job('<!doctype html><body><p>next page</p></body>'));
    assert.match(after.html ?? '', /next page/);
    assert.deepEqual(crashing.browserPids, [pid], 'the same browser');
  } finally {
    await crashing.close();
  }
});

/** What a renderer's observer was told: launches by cause, pages held back for memory. */
function observed(): RenderObserver & { launches: LaunchCause[]; memoryWaits: number } {
  const seen = {
    launches: [] as LaunchCause[],
    memoryWaits: 0,
    launched(cause: LaunchCause) {
      seen.launches.push(cause);
    },
    waitedForMemory() {
      seen.memoryWaits++;
    },
    rendered() {},
  };
  return seen;
}

test('over its memory budget the pool holds a new page back while another renders, then replaces the browser', {
  skip,
  timeout: 120_000,
}, async () => {
  const MiB = 1024 * 1024;
  let poolBytes = 10 * MiB;
  const observer = observed();
  const budgeted = new ChromiumRenderer({
    executablePath: CHROMIUM,
    concurrency: 2,
    recyclePages: 100,
    memoryBudgetBytes: 100 * MiB,
    sampleMemory: async () => poolBytes,
    observer,
  });
  try {
    const first = stalledPage('first');
    const rendering = budgeted.render(first.page);
    await first.askedForScript;
    poolBytes = 1024 * MiB;
    const second = budgeted.render(job('<!doctype html><body><p>second</p></body>'));
    await eventually(() => budgeted.stats.waitingForMemory === 1, {
      message: 'the second page to wait for memory',
    });
    assert.deepEqual(observer.launches, ['first'], 'held back, not started');
    first.release();
    assert.match((await rendering).html ?? '', /first/);
    // nothing rendering, still over: the browser is the bloat, and the page gets a fresh one
    assert.match((await second).html ?? '', /second/);
    assert.deepEqual(observer.launches, ['first', 'memory']);
    assert.equal(observer.memoryWaits, 1);
    assert.equal(budgeted.stats.browsers, 1);
  } finally {
    await budgeted.close();
  }
});

test("the pool's memory is read from its browsers' process trees", { skip, timeout: 120_000 }, async () => {
  const observer = observed();
  // a budget no browser fits: each page after the first finds the browser over it, with nothing rendering
  const tiny = new ChromiumRenderer({
    executablePath: CHROMIUM,
    concurrency: 1,
    recyclePages: 100,
    memoryBudgetBytes: 1,
    observer,
  });
  try {
    assert.equal(await tiny.memoryBytes(), null, 'no browser yet');
    for (const label of ['one', 'two']) {
      assert.match(
        (await tiny.render(job(`<!doctype html><body><p>${label}</p></body>`))).html ?? '',
        /one|two/,
      );
    }
    assert.deepEqual(observer.launches, ['first', 'memory']);
    const bytes = await tiny.memoryBytes();
    // Chromium's browser, GPU, utility and zygote processes: tens of MiB at the least
    assert.ok(bytes !== null && bytes > 20 * 1024 * 1024, `pool memory: ${bytes}`);
  } finally {
    await tiny.close();
  }
});

test('a hung browser fails its page at the deadline, is killed, and the next page gets a new one', {
  skip,
  timeout: 120_000,
}, async () => {
  const observer = observed();
  const hung = new ChromiumRenderer({
    executablePath: CHROMIUM,
    concurrency: 1,
    recyclePages: 100,
    unresponsiveAfterMs: 3000,
    observer,
  });
  let pid: number | undefined;
  try {
    await hung.ready();
    [pid] = hung.browserPids;
    assert.ok(pid !== undefined);
    // stopped: connected, answering nothing
    process.kill(pid, 'SIGSTOP');
    const output = await hung.render(job('<!doctype html><body><p>never</p></body>', { timeoutMs: 1000 }));
    assert.equal(output.html, null);
    assert.equal(output.problem, 'render failed: Chromium did not open the page within 1000 ms');
    // unresponsiveAfterMs after it was asked to open the page, the browser is killed
    await eventually(() => hung.stats.browsers === 0, { message: 'the hung browser to be killed' });
    const after = await hung.render(job('<!doctype html><body><p>on a new browser</p></body>'));
    assert.match(after.html ?? '', /on a new browser/);
    assert.deepEqual(observer.launches, ['first', 'unresponsive']);
    assert.ok(!hung.browserPids.includes(pid), 'the hung browser is gone');
  } finally {
    // whatever happened above, no stopped Chromium outlives the test
    if (pid !== undefined) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already killed
      }
    }
    await hung.close();
  }
});
