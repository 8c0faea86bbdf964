// A small site that changes between two crawls, for what shows a recrawl's changes (the CLI, the report, the
// dashboard): `change()` turns it from its first state to its second, which has one page of each change class
// and more (an edited article, an edit of a number alone, pages now 404, 410 and redirected away, a page
// added), and answers conditional requests by ETag. `recrawlPair` crawls it, changes it and recrawls it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { crawlToEnd, textJobDone } from '../helper.js';
import { eventually } from './eventually.js';

type Answer =
  | { status: 200; body: string; etag?: string }
  | { status: 301; location: string }
  | { status: 404 | 410 };

function article(title: string, text: string, links: string[] = []): string {
  const anchors = links.map((href) => `<a href="${href}">${href}</a>`).join(' ');
  return `<!doctype html><html><head><title>${title}</title></head><body><nav>${anchors}</nav><article><h1>${title}</h1><p>${text}</p></article></body></html>`;
}

function firstSite(): Map<string, Answer> {
  return new Map<string, Answer>([
    [
      '/',
      {
        status: 200,
        body: article('Harbour news', 'All the news of the harbour.', [
          '/tides',
          '/ferry',
          '/weather',
          '/regatta',
          '/market',
          '/museum-old',
        ]),
        etag: '"home-1"',
      },
    ],
    [
      '/tides',
      {
        status: 200,
        body: article('Tides', 'The tide turns twice a day at the harbour mouth.'),
        etag: '"t-1"',
      },
    ],
    [
      '/ferry',
      {
        status: 200,
        body: article('Ferry', 'The ferry leaves the quay at dawn for the island. Tickets are sold aboard.'),
      },
    ],
    [
      '/weather',
      { status: 200, body: article('Weather', 'Visitors so far: 1041. Fair winds expected over the bay.') },
    ],
    ['/regatta', { status: 200, body: article('Regatta', 'The regatta starts at noon.') }],
    ['/market', { status: 200, body: article('Market', 'The fish market opens early.') }],
    ['/museum-old', { status: 200, body: article('Museum', 'The maritime museum shows old charts.') }],
  ]);
}

function secondSite(): Map<string, Answer> {
  const site = firstSite();
  site.set('/ferry', {
    status: 200,
    body: article(
      'Ferry',
      'The ferry leaves the quay at noon for the island. Tickets are sold at the kiosk.',
      ['/boats'],
    ),
  });
  site.set('/weather', {
    status: 200,
    body: article('Weather', 'Visitors so far: 2213. Fair winds expected over the bay.'),
  });
  site.set('/regatta', { status: 404 });
  site.set('/market', { status: 410 });
  site.set('/museum-old', { status: 301, location: '/museum' });
  site.set('/museum', { status: 200, body: article('Museum', 'The maritime museum shows old charts.') });
  site.set('/boats', { status: 200, body: article('Boats', 'Boats for hire by the hour.') });
  return site;
}

export interface ChangingSite {
  origin: string;
  /** Turns the site into its second state. */
  change(): void;
  close(): Promise<void>;
}

export async function startChangingSite(): Promise<ChangingSite> {
  let site = firstSite();
  const server = createServer((request, response) => {
    const answer = site.get(request.url ?? '/');
    if (!answer) response.writeHead(404).end();
    else if (answer.status === 301) response.writeHead(301, { location: answer.location }).end();
    else if (answer.status !== 200) response.writeHead(answer.status).end();
    else if (answer.etag && request.headers['if-none-match'] === answer.etag) {
      response.writeHead(304, { etag: answer.etag }).end();
    } else {
      const validators: Record<string, string> = answer.etag ? { etag: answer.etag } : {};
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...validators }).end(answer.body);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    change: () => {
      site = secondSite();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What the recrawl of the changing site classifies, by class. */
export const CHANGING_SITE_CHANGES = { new: 1, changed: 2, unchanged: 2, gone: 3 };

/**
 * Crawls the site, changes it and recrawls it; returns both crawls' ids once the recrawl's text job compared
 * its changed pages (textChanged and similarity set). The site must be in its first state.
 */
export async function recrawlPair(
  app: FastifyInstance,
  site: ChangingSite,
): Promise<{ first: string; second: string }> {
  const first = await crawlToEnd(app, {
    seeds: [`${site.origin}/`],
    politeness: { delayMs: 0, respectRobots: false },
  });
  // the earlier texts must exist for the text job to compare a changed page's texts
  await textJobDone(app, first.id);
  site.change();
  const second = await crawlToEnd(app, { recrawl: { of: first.id } });
  await textJobDone(app, second.id);
  await eventually(
    async () => {
      const listed = await app.inject({ method: 'GET', url: `/v1/crawls/${second.id}/pages?change=changed` });
      const items = listed.json().items as Array<{ textChanged: boolean | null }>;
      if (items.length === 0 || items.some((page) => page.textChanged === null)) throw new Error(listed.body);
      return true;
    },
    { message: 'the changed pages compared', timeoutMs: 60_000 },
  );
  return { first: first.id, second: second.id };
}
