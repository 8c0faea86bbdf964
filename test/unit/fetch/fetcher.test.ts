import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import zlib from 'node:zlib';
import iconv from 'iconv-lite';
import type { FetchOptions } from '../../../src/crawler/fetch/fetcher.js';
import { Fetcher, retryAfterMs } from '../../../src/crawler/fetch/fetcher.js';
import { type LocalServer, startServer } from './local-server.js';

const PAGE = '<!doctype html><html><head><title>Hello</title></head><body><p>Grüße, world</p></body></html>';
const BASE: FetchOptions = { userAgent: 'trawl-test/0.1', timeoutMs: 5_000, maxBytes: 1_000_000 };

let server: LocalServer;
let fetcher: Fetcher;
let flakyCalls = 0;
let flakyDateCalls = 0;
let resetCalls = 0;
let userAgentSeen = '';

before(async () => {
  fetcher = new Fetcher({ allowPrivateNetworks: true });
  server = await startServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = url.pathname;
    const redirect = (to: string, status = 302) => {
      res.writeHead(status, { location: to });
      res.end();
    };
    const html = (body: Buffer | string, headers: Record<string, string> = {}) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(body);
    };
    if (path.startsWith('/chain/')) {
      const n = Number(path.slice('/chain/'.length));
      if (n < 3) return redirect(`/chain/${n + 1}`, [301, 302, 307][n]);
      return html(PAGE);
    }
    if (path === '/loop/a') return redirect('/loop/b');
    if (path === '/loop/b') return redirect(`http://127.0.0.1:${server.port}/loop/a#frag`, 301);
    if (path.startsWith('/many/')) return redirect(`/many/${Number(path.slice(6)) + 1}`);
    if (path === '/elsewhere') return redirect('/forbidden', 308);
    if (path === '/mailto') return redirect('mailto:someone@example.com');
    if (path === '/gzip') return html(zlib.gzipSync(PAGE), { 'content-encoding': 'gzip' });
    if (path === '/deflate') return html(zlib.deflateSync(PAGE), { 'content-encoding': 'deflate' });
    if (path === '/deflate-raw') return html(zlib.deflateRawSync(PAGE), { 'content-encoding': 'deflate' });
    if (path === '/br') return html(zlib.brotliCompressSync(PAGE), { 'content-encoding': 'br' });
    if (path === '/zstd') return html(PAGE, { 'content-encoding': 'zstd' });
    if (path === '/latin1') {
      res.writeHead(200, { 'content-type': 'text/html; charset=ISO-8859-1' });
      return res.end(iconv.encode('<p>café – 5 € “quoted”</p>', 'windows-1252'));
    }
    if (path === '/cp1251-meta' || path === '/cp1251-http-equiv') {
      const meta =
        path === '/cp1251-meta'
          ? '<meta charset="windows-1251">'
          : '<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">';
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(
        iconv.encode(`<html><head>${meta}</head><body>Привет, мир</body></html>`, 'windows-1251'),
      );
    }
    if (path === '/bom') {
      res.writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' });
      return res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>Grüße</p>')]));
    }
    if (path === '/utf8-default') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end('naïve');
    }
    if (path === '/big') return html('x'.repeat(100_000));
    if (path === '/bomb') {
      return html(zlib.gzipSync(Buffer.alloc(4_000_000)), { 'content-encoding': 'gzip' });
    }
    if (path === '/pdf') {
      // An endless document: only a client that stops after the headers finishes this request.
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': String(50_000_000) });
      res.write(Buffer.alloc(1024));
      const timer = setInterval(() => res.write(Buffer.alloc(1024)), 20);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (path === '/png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]));
    }
    if (path === '/slow') return; // never answers
    if (path === '/flaky') {
      flakyCalls++;
      if (flakyCalls === 1) {
        res.writeHead(503, { 'retry-after': '1' });
        return res.end('busy');
      }
      return html(PAGE);
    }
    if (path === '/flaky-date') {
      flakyDateCalls++;
      if (flakyDateCalls === 1) {
        res.writeHead(429, { 'retry-after': new Date(Date.now() + 3_600_000).toUTCString() });
        return res.end();
      }
      return html(PAGE);
    }
    if (path === '/always-503') {
      res.writeHead(503, { 'content-type': 'text/plain' });
      return res.end('down');
    }
    if (path === '/reset') {
      resetCalls++;
      return req.socket.destroy();
    }
    if (path === '/ua') {
      userAgentSeen = req.headers['user-agent'] ?? '';
      return html(PAGE);
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
});

after(async () => {
  await fetcher.close();
  await server.close();
});

describe('redirects', () => {
  test('follows a chain of three redirects and records every hop', async () => {
    const r = await fetcher.fetch(`${server.origin}/chain/0`, BASE);
    assert.equal(r.error, null);
    assert.equal(r.status, 200);
    assert.equal(r.finalUrl, `${server.origin}/chain/3`);
    assert.deepEqual(
      r.redirects.map((h) => [h.url, h.status, h.location]),
      [
        [`${server.origin}/chain/0`, 301, `${server.origin}/chain/1`],
        [`${server.origin}/chain/1`, 302, `${server.origin}/chain/2`],
        [`${server.origin}/chain/2`, 307, `${server.origin}/chain/3`],
      ],
    );
    assert.match(r.text ?? '', /Grüße/);
  });

  test('detects a loop (fragments ignored)', async () => {
    const r = await fetcher.fetch(`${server.origin}/loop/a`, BASE);
    assert.equal(r.error?.code, 'redirect-loop');
    assert.equal(r.redirects.length, 2);
    assert.equal(r.status, 301);
  });

  test('stops after maxRedirects', async () => {
    const r = await fetcher.fetch(`${server.origin}/many/0`, BASE);
    assert.equal(r.error?.code, 'too-many-redirects');
    assert.equal(r.redirects.length, 6);
    const shorter = await fetcher.fetch(`${server.origin}/many/0`, { ...BASE, maxRedirects: 2 });
    assert.equal(shorter.error?.code, 'too-many-redirects');
    assert.equal(shorter.redirects.length, 3);
  });

  test('beforeRedirect can refuse a hop; the reason is kept', async () => {
    const asked: Array<[string, string, number]> = [];
    const r = await fetcher.fetch(`${server.origin}/elsewhere`, {
      ...BASE,
      beforeRedirect: async (from, to, status) => {
        asked.push([from, to, status]);
        return { follow: false, reason: 'disallowed by robots.txt' };
      },
    });
    assert.deepEqual(asked, [[`${server.origin}/elsewhere`, `${server.origin}/forbidden`, 308]]);
    assert.deepEqual(r.error, { code: 'redirect-refused', message: 'disallowed by robots.txt' });
    assert.equal(r.status, 308);
    assert.equal(r.finalUrl, `${server.origin}/elsewhere`);
    assert.deepEqual(
      server.hits.filter((h) => h === '/forbidden'),
      [],
    );
  });

  test("a hop's wait in beforeRedirect (its host's turn) does not count against timeoutMs", async () => {
    const r = await fetcher.fetch(`${server.origin}/chain/0`, {
      ...BASE,
      timeoutMs: 300,
      beforeRedirect: async () => {
        await new Promise((resolve) => setTimeout(resolve, 250));
        return { follow: true };
      },
    });
    // three hops of 250 ms each: well past 300 ms in all, and none of it the server's
    assert.equal(r.error, null, JSON.stringify(r.error));
    assert.equal(r.status, 200);
    assert.equal(r.redirects.length, 3);
  });

  test('a redirect to a non-HTTP scheme is refused', async () => {
    const r = await fetcher.fetch(`${server.origin}/mailto`, BASE);
    assert.equal(r.error?.code, 'redirect-refused');
  });
});

describe('content codings', () => {
  for (const path of ['/gzip', '/deflate', '/deflate-raw', '/br']) {
    test(`decodes ${path.slice(1)}`, async () => {
      const r = await fetcher.fetch(server.origin + path, BASE);
      assert.equal(r.error, null);
      assert.equal(r.text, PAGE);
      assert.equal(r.bytes, Buffer.byteLength(PAGE));
    });
  }

  test('an unsupported coding is a protocol fault', async () => {
    const r = await fetcher.fetch(`${server.origin}/zstd`, BASE);
    assert.equal(r.error?.code, 'protocol');
    assert.equal(r.status, 200);
  });

  test('a decompression bomb stops at maxBytes', async () => {
    const r = await fetcher.fetch(`${server.origin}/bomb`, { ...BASE, maxBytes: 65_536 });
    assert.equal(r.error, null);
    assert.equal(r.truncated, true);
    assert.equal(r.bytes, 65_536);
  });
});

describe('charsets', () => {
  test('ISO-8859-1 in the header decodes as windows-1252 (WHATWG)', async () => {
    const r = await fetcher.fetch(`${server.origin}/latin1`, BASE);
    assert.equal(r.charset, 'windows-1252');
    assert.equal(r.text, '<p>café – 5 € “quoted”</p>');
  });

  test('windows-1251 from <meta charset>', async () => {
    const r = await fetcher.fetch(`${server.origin}/cp1251-meta`, BASE);
    assert.equal(r.charset, 'windows-1251');
    assert.match(r.text ?? '', /Привет, мир/);
  });

  test('windows-1251 from <meta http-equiv>', async () => {
    const r = await fetcher.fetch(`${server.origin}/cp1251-http-equiv`, BASE);
    assert.equal(r.charset, 'windows-1251');
    assert.match(r.text ?? '', /Привет, мир/);
  });

  test('a byte order mark wins over the header and is stripped', async () => {
    const r = await fetcher.fetch(`${server.origin}/bom`, BASE);
    assert.equal(r.charset, 'utf-8');
    assert.equal(r.text, '<p>Grüße</p>');
  });

  test('no declaration means UTF-8', async () => {
    const r = await fetcher.fetch(`${server.origin}/utf8-default`, BASE);
    assert.equal(r.charset, 'utf-8');
    assert.equal(r.text, 'naïve');
  });

  test('binary types get no text', async () => {
    const r = await fetcher.fetch(`${server.origin}/png`, BASE);
    assert.equal(r.text, null);
    assert.equal(r.body?.length, 7);
  });
});

describe('size limits', () => {
  test('a body over maxBytes is cut and marked truncated', async () => {
    const r = await fetcher.fetch(`${server.origin}/big`, { ...BASE, maxBytes: 10_240 });
    assert.equal(r.error, null);
    assert.equal(r.truncated, true);
    assert.equal(r.bytes, 10_240);
    assert.equal(r.body?.length, 10_240);
    assert.equal(r.contentLength, null);
  });

  test('acceptBody=false does not download an endless PDF', async () => {
    const seen: Array<[string | null, number | null]> = [];
    const r = await fetcher.fetch(`${server.origin}/pdf`, {
      ...BASE,
      timeoutMs: 30_000,
      acceptBody: (type, length) => {
        seen.push([type, length]);
        return type?.startsWith('text/') ?? false;
      },
    });
    assert.deepEqual(seen, [['application/pdf', 50_000_000]]);
    assert.equal(r.error, null);
    assert.equal(r.status, 200);
    assert.equal(r.body, null);
    assert.equal(r.bytes, 0);
    assert.equal(r.contentLength, 50_000_000);
  });
});

describe('faults', () => {
  test('a server that never answers times out', async () => {
    const r = await fetcher.fetch(`${server.origin}/slow`, { ...BASE, timeoutMs: 300 });
    assert.equal(r.error?.code, 'timeout');
    assert.equal(r.status, null);
  });

  test('headersTimeoutMs alone also ends it', async () => {
    const r = await fetcher.fetch(`${server.origin}/slow`, { ...BASE, headersTimeoutMs: 200 });
    assert.equal(r.error?.code, 'timeout');
  });

  test('503 then 200 is retried, Retry-After capped by maxDelayMs', async () => {
    const r = await fetcher.fetch(`${server.origin}/flaky`, {
      ...BASE,
      retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 40 },
    });
    assert.equal(r.error, null);
    assert.equal(r.status, 200);
    assert.equal(r.attempts, 2);
    assert.deepEqual(r.retryDelaysMs, [40]); // Retry-After: 1 s, capped at 40 ms
  });

  test('429 with an HTTP-date Retry-After is retried', async () => {
    const r = await fetcher.fetch(`${server.origin}/flaky-date`, {
      ...BASE,
      retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 25 },
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.retryDelaysMs, [25]);
  });

  test('retries exhausted: the last 503 is the result, not a fault', async () => {
    const r = await fetcher.fetch(`${server.origin}/always-503`, {
      ...BASE,
      retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 100 },
    });
    assert.equal(r.error, null);
    assert.equal(r.status, 503);
    assert.equal(r.attempts, 3);
    assert.deepEqual(r.retryDelaysMs, [5, 10]); // exponential backoff without Retry-After
    assert.equal(r.text, 'down');
  });

  test('no retry comes sooner than minDelayMs (the host’s politeness delay), Retry-After or backoff alike', async () => {
    const r = await fetcher.fetch(`${server.origin}/always-503`, {
      ...BASE,
      retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 100, minDelayMs: 30 },
    });
    assert.equal(r.status, 503);
    assert.deepEqual(r.retryDelaysMs, [30, 30]);
  });

  test('a connection reset is recorded, and retried when asked', async () => {
    resetCalls = 0;
    const r = await fetcher.fetch(`${server.origin}/reset`, BASE);
    assert.equal(r.error?.code, 'reset');
    assert.equal(r.status, null);
    assert.equal(resetCalls, 1);
    const retried = await fetcher.fetch(`${server.origin}/reset`, {
      ...BASE,
      retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
    });
    assert.equal(retried.error?.code, 'reset');
    assert.equal(retried.attempts, 2);
  });

  test('connection refused is a connect fault', async () => {
    const closed = await startServer(() => {});
    const origin = closed.origin;
    await closed.close();
    const r = await fetcher.fetch(`${origin}/`, BASE);
    assert.equal(r.error?.code, 'connect');
  });

  test('bad URLs and schemes', async () => {
    assert.equal((await fetcher.fetch('not a url', BASE)).error?.code, 'bad-url');
    assert.equal((await fetcher.fetch('ftp://example.com/x', BASE)).error?.code, 'bad-url');
  });

  test("the caller's signal aborts", async () => {
    const controller = new AbortController();
    const pending = fetcher.fetch(`${server.origin}/slow`, { ...BASE, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const r = await pending;
    assert.equal(r.error?.code, 'aborted');
  });

  test('sends the user agent', async () => {
    await fetcher.fetch(`${server.origin}/ua`, BASE);
    assert.equal(userAgentSeen, 'trawl-test/0.1');
  });
});

test('retryAfterMs reads seconds and HTTP dates', () => {
  assert.equal(retryAfterMs('120'), 120_000);
  assert.equal(
    retryAfterMs('Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('Wed, 21 Oct 2015 07:28:00 GMT')),
    10_000,
  );
  assert.equal(retryAfterMs('soon'), undefined);
  assert.equal(retryAfterMs(undefined), undefined);
});
