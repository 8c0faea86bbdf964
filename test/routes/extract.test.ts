import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { build } from '../helper.js';

const ARTICLE = [
  'The river otter spends most of its day in the water, hunting fish and crayfish along the banks.',
  'Otters have dense fur that traps air and keeps them warm in cold rivers through the whole winter, even under the n\u00e9v\u00e9.',
  'Young otters learn to swim from their mothers, who carry them into the water when they are two months old.',
];
const PAGE = `<!doctype html><html><head><title>River otters</title><style>p { color: red }</style></head><body>
<nav><a href="/">Home</a> | <a href="/animals">Animals</a> | <a href="/about">About us</a> | <a href="/contact">Contact</a></nav>
<div class="content"><h1>River otters</h1>${ARTICLE.map((p) => `<p>${p}</p>`).join('\n')}
<p>See the <a href="/otters/sea">sea otter</a> too.</p></div>
<footer>Copyright 2026 Zoo Inc. <a href="/privacy">Privacy</a></footer>
<script>trackVisitor('otters')</script></body></html>`;

let server: Server;
let origin: string;
before(async () => {
  server = createServer((request, response) => {
    if (request.url === '/robots.txt')
      response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n');
    else if (request.url === '/otters')
      response
        .writeHead(200, { 'content-type': 'text/html; charset=windows-1252' })
        .end(Buffer.from(PAGE, 'latin1'));
    else if (request.url === '/data.json')
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

type Extracted = {
  title: string;
  text: string;
  html: string;
  method: string;
  wordCount: number;
  truncated: boolean;
  url?: string;
};

function assertMainContent(body: Extracted) {
  assert.equal(body.title, 'River otters');
  for (const paragraph of ARTICLE)
    assert.ok(body.text.includes(paragraph), `kept: ${paragraph}\n---\n${body.text}`);
  for (const dropped of ['Home', 'About us', 'Contact', 'Copyright', 'trackVisitor', 'color: red']) {
    assert.ok(!body.text.includes(dropped), `dropped: ${dropped}\n---\n${body.text}`);
  }
  assert.ok(body.wordCount >= 50, String(body.wordCount));
  assert.equal(body.truncated, false);
}

test('POST /v1/extract keeps the main text of a hand-made page and drops nav, footer and scripts', async (t) => {
  const { app } = await build(t, { worker: false });
  for (const method of ['cetd', 'cetd-sum', 'auto', undefined]) {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/extract',
      payload: { html: PAGE, baseUrl: 'https://zoo.example/otters', ...(method ? { method } : {}) },
    });
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json() as Extracted;
    assertMainContent(body);
    assert.equal(body.method, method ?? 'auto');
    assert.ok(!body.html.includes('<script'), body.html);
    assert.ok(body.html.includes('<p>'), body.html);
    // cetd drops links with their text (docs/reference.md#text-density list); the others keep them, resolved on baseUrl
    if (body.method !== 'cetd')
      assert.ok(body.html.includes('href="https://zoo.example/otters/sea"'), body.html);
  }
  // a page with no main content is an empty result, not an error
  const empty = await app.inject({
    method: 'POST',
    url: '/v1/extract',
    payload: { html: '<nav><a href="/">Home</a></nav>' },
  });
  assert.equal(empty.statusCode, 200, empty.body);
  assert.equal(empty.json().text, '');
});

test('POST /v1/extract fetches a url (charset decoded, relative links resolved); faults are 422s on url', async (t) => {
  const { app } = await build(t, { worker: false });
  const response = await app.inject({
    method: 'POST',
    url: '/v1/extract',
    payload: { url: `${origin}/otters` },
  });
  assert.equal(response.statusCode, 200, response.body);
  const body = response.json() as Extracted;
  assertMainContent(body);
  assert.equal(body.url, `${origin}/otters`);
  assert.ok(body.html.includes(`href="${origin}/otters/sea"`), body.html);

  const faults: Array<[string, RegExp]> = [
    [`${origin}/private/otters`, /robots\.txt/],
    [`${origin}/gone`, /HTTP 404/],
    [`${origin}/data.json`, /not HTML/],
  ];
  for (const [url, detail] of faults) {
    const fault = await app.inject({ method: 'POST', url: '/v1/extract', payload: { url } });
    assert.equal(fault.statusCode, 422, fault.body);
    assert.match(fault.headers['content-type'] as string, /^application\/problem\+json/);
    assert.equal(fault.json().field, 'url');
    assert.match(fault.json().detail, detail);
  }
});

test('POST /v1/extract rejects bad input with problem+json naming the field', async (t) => {
  const { app } = await build(t, { worker: false });
  const cases: Array<[unknown, string]> = [
    [{}, 'url'],
    [{ url: `${origin}/otters`, html: PAGE }, 'html'],
    [{ url: `${origin}/otters`, baseUrl: 'https://zoo.example/' }, 'baseUrl'],
    [{ url: 'file:///etc/passwd' }, 'url'],
    [{ html: PAGE, method: 'readability' }, 'method'],
    [{ html: PAGE, threshold: -1 }, 'threshold'],
    [{ html: PAGE, baseUrl: 'not a url' }, 'baseUrl'],
    [{ html: PAGE, bogus: true }, 'bogus'],
    [{ html: 'x'.repeat(5 * 1024 * 1024 + 1) }, 'html'],
  ];
  for (const [payload, field] of cases) {
    const response = await app.inject({ method: 'POST', url: '/v1/extract', payload: payload as object });
    assert.equal(
      response.statusCode,
      400,
      `${JSON.stringify(payload).slice(0, 200)} → ${response.body.slice(0, 500)}`,
    );
    assert.match(response.headers['content-type'] as string, /^application\/problem\+json/);
    assert.equal(response.json().field, field, response.body.slice(0, 500));
  }
});

test('format markdown adds the main content as Markdown, links absolute; the other fields stay', async (t) => {
  const { app } = await build(t, { worker: false });
  const html =
    '<html><head><title>Tides</title></head><body><nav><a href="/">home</a></nav><article><h1>Tides</h1>' +
    '<p>The harbour fills twice a day, and the <a href="/maps/dover.html">Dover map</a> shows when, which matters to every sailor leaving port.</p>' +
    '<h2>Heights</h2><table><tr><th>port</th><th>metres</th></tr><tr><td>Dover</td><td>6.8</td></tr></table>' +
    '<p>Spring tides run higher than neap tides, and the difference can be several metres in a long estuary.</p></article></body></html>';
  const plain = await app.inject({
    method: 'POST',
    url: '/v1/extract',
    payload: { html, baseUrl: 'https://port.example/tides/' },
  });
  assert.equal(plain.statusCode, 200, plain.body);
  assert.equal(plain.json().markdown, undefined);
  const response = await app.inject({
    method: 'POST',
    url: '/v1/extract',
    payload: { html, baseUrl: 'https://port.example/tides/', format: 'markdown' },
  });
  assert.equal(response.statusCode, 200, response.body);
  const body = response.json();
  assert.equal(body.text, plain.json().text);
  assert.match(body.markdown, /\[Dover map\]\(https:\/\/port\.example\/maps\/dover\.html\)/);
  assert.match(body.markdown, /## Heights/);
  const bad = await app.inject({ method: 'POST', url: '/v1/extract', payload: { html, format: 'pdf' } });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().field, 'format');
});
