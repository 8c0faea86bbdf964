// What the two evaluation webs share: pages that carry hidden labels (a topic, or Wikipedia categories) that
// only the ground truth sees, looked up by URL whatever its spelling (percent-encoding, fragment), and served
// on loopback hosts through the test web's listenLoopback. robots.txt allows everything.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { closeAll, listenLoopback } from '../testweb/server.js';
import { loopbackAddresses } from '../testweb/site.js';

export interface PageLink {
  /** Absolute URL of the target. */
  url: string;
  /** Anchor text. */
  text: string;
}

export interface LabelledPage {
  /** Absolute URL, as the other pages link it. */
  url: string;
  title: string;
  /** The hidden ground truth: the page's topic, or its Wikipedia categories; never in the markup. */
  labels: readonly string[];
  links: readonly PageLink[];
}

/** A built web before it is served: pages, their HTML, and what "relevant" means for a label. */
export interface LabelledModel {
  pages: readonly LabelledPage[];
  render(page: LabelledPage): string;
  matches(labels: readonly string[], target: string): boolean;
}

export interface LabelledWeb {
  /** Origins, http://127.0.0.2:port … */
  hosts: readonly string[];
  port: number;
  pages: readonly LabelledPage[];
  /** The page a URL names (any spelling the server would answer), or undefined. */
  page(url: string): LabelledPage | undefined;
  /** The relevance oracle: does the page at `url` belong to `target`? False for URLs that are no page. */
  isRelevant(url: string, target: string): boolean;
  /** GET requests answered with a page since the start (robots.txt and 404s not counted). */
  pageRequests(): number;
  close(): Promise<void>;
}

/** origin + percent-decoded path: `/wiki/%C3%85land` and `/wiki/Åland` name one page; query and fragment do not. */
export function pageKey(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  try {
    return `${parsed.origin}${decodeURIComponent(parsed.pathname)}`;
  } catch {
    return `${parsed.origin}${parsed.pathname}`;
  }
}

/** Indexes a model's pages by pageKey, for the oracle and the server. */
export function indexPages(pages: readonly LabelledPage[]): Map<string, LabelledPage> {
  const byKey = new Map<string, LabelledPage>();
  for (const page of pages) {
    const key = pageKey(page.url);
    if (key !== null) byKey.set(key, page);
  }
  return byKey;
}

export function origins(port: number, count: number): string[] {
  return Array.from({ length: count }, (_, index) => `http://127.0.0.${index + 2}:${port}`);
}

/** Listens on `hostCount` loopback hosts, then builds the model for their origins and serves it. */
export async function serveLabelledWeb<Model extends LabelledModel>(
  hostCount: number,
  port: number,
  build: (hosts: string[]) => Model,
): Promise<{ web: LabelledWeb; model: Model }> {
  let byKey: Map<string, LabelledPage> | null = null;
  let model: Model | null = null;
  const bodies = new Map<LabelledPage, Buffer>();
  let pageRequests = 0;

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const address = req.socket.localAddress?.replace(/^::ffff:/, '') ?? '';
    const target = req.url ?? '/';
    const send = (status: number, type: string, body: Buffer) => {
      res.writeHead(status, { 'Content-Type': type, 'Content-Length': String(body.length) });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (target === '/robots.txt') {
      send(200, 'text/plain; charset=utf-8', Buffer.from('User-agent: *\nDisallow:\n'));
      return;
    }
    const key = pageKey(`http://${address}:${req.socket.localPort}${target}`);
    const page = key === null ? undefined : byKey?.get(key);
    if (page === undefined || model === null) {
      send(404, 'text/html; charset=utf-8', Buffer.from('<!DOCTYPE html><title>Not found</title>404\n'));
      return;
    }
    let body = bodies.get(page);
    if (body === undefined) {
      body = Buffer.from(model.render(page), 'utf8');
      bodies.set(page, body);
    }
    if (req.method === 'GET') pageRequests++;
    send(200, 'text/html; charset=utf-8', body);
  };

  const { servers, port: listening } = await listenLoopback(loopbackAddresses(hostCount), port, handler);
  const hosts = origins(listening, hostCount);
  try {
    model = build(hosts);
  } catch (error) {
    await closeAll(servers);
    throw error;
  }
  const built: Model = model;
  const index = indexPages(built.pages);
  byKey = index;
  const lookup = (url: string) => {
    const key = pageKey(url);
    return key === null ? undefined : index.get(key);
  };
  const web: LabelledWeb = {
    hosts,
    port: listening,
    pages: built.pages,
    page: lookup,
    isRelevant(url, target) {
      const page = lookup(url);
      return page !== undefined && built.matches(page.labels, target);
    },
    pageRequests: () => pageRequests,
    close: () => closeAll(servers),
  };
  return { web, model: built };
}
