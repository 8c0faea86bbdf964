// The Chromium renderer on its own (no crawl, no database): the page gets only what the crawl answers, the
// channels interception cannot see (WebSockets, service workers, WebRTC) are closed, waitUntil waits as
// asked, and the browser is replaced after RENDER_RECYCLE_PAGES pages. One Chromium, closed after the file.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { ChromiumRenderer } from '../../src/crawler/render/chromium.js';
import type { PageRequest, RenderJob } from '../../src/crawler/render/port.js';
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
  const missing = await renderer.render({ ...page, waitUntil: { selector: '#never' }, timeoutMs: 1500 });
  assert.match(missing.problem ?? '', /did not settle within 1500 ms \(waitUntil selector #never\)/);
  assert.ok(missing.html !== null, 'the DOM as it stood is read');
});

test('the browser is replaced after recyclePages pages, and pages go on rendering', { skip }, async () => {
  for (let i = 0; i < 5; i++) {
    const output = await renderer.render(job(`<!doctype html><body><p>page ${i}</p></body>`));
    assert.match(output.html ?? '', new RegExp(`page ${i}`));
  }
  assert.ok(renderer.stats.browsers <= 2, `browsers alive: ${renderer.stats.browsers}`);
});

/** A page whose script the crawl is asked for and never answers: the render is in flight until it ends. */
function stalledPage(label: string) {
  let asked!: () => void;
  const askedForScript = new Promise<void>((resolve) => {
    asked = resolve;
  });
  const page = job(`<!doctype html><body><p>${label}</p><script src="/stall.js"></script></body>`, {
    timeoutMs: 30_000,
    answer: (request) => {
      if (request.url.endsWith('/stall.js')) asked();
      return new Promise((resolve) => setTimeout(() => resolve({ refused: 'too late' }), 40_000).unref());
    },
  });
  return { page, askedForScript };
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
    assert.deepEqual(crashing.stats, { rendering: 0, waiting: 0, browsers: 1 });
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
