// Serves the site model over node:http: one server per loopback address (127.0.0.2, 127.0.0.3, …), all on one
// port, keep-alive on. Every request is logged on arrival; its status, body bytes and whether the body was
// written whole are filled in as the answer goes out. Bodies are rendered once and cached.

import { createHash } from 'node:crypto';
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { canonicalUrl, requestTarget } from './canonical.js';
import { renderPage } from './html.js';
import { Rng } from './random.js';
import type { BinaryResource, Resource, Site } from './site.js';
import type { ConditionalRequests, RequestLogEntry } from './types.js';

const CHUNK_BYTES = 64 * 1024;

export interface ServerState {
  site: Site | null;
  log: RequestLogEntry[];
  /** Pages that already answered their one 503 in this run. */
  unavailableServed: Set<string>;
  timers: Set<NodeJS.Timeout>;
  /** Delay before every answer (0: none). */
  latencyMs: number;
  /** Whether pages carry ETag and Last-Modified, and a conditional request that matches them gets a 304. */
  conditional: ConditionalRequests;
}

/** A page's Last-Modified at revision 0; each edit (mutation.ts) moves it a day on. */
const FIRST_MODIFIED_MS = Date.UTC(2026, 2, 1, 12, 0, 0);
const DAY_MS = 24 * 3600 * 1000;

const etags = new WeakMap<Buffer, string>();

/** A page's validators (RFC 9110 §8.8): a strong ETag of its body, and Last-Modified by its revision. */
function pageValidators(resource: Resource & { kind: 'page' }, body: Buffer): Record<string, string> {
  let etag = etags.get(body);
  if (etag === undefined) {
    etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 20)}"`;
    etags.set(body, etag);
  }
  const lastModified = new Date(FIRST_MODIFIED_MS + (resource.revision ?? 0) * DAY_MS).toUTCString();
  return { ETag: etag, 'Last-Modified': lastModified };
}

/**
 * RFC 9110 §13.1.1–13.1.3: If-None-Match, when sent, decides (a list of tags, or *); else If-Modified-Since
 * holds when the page was not modified after that date.
 */
function notModified(req: IncomingMessage, validators: Record<string, string>): boolean {
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) {
    const tags = ifNoneMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
    return tags.includes('*') || tags.includes(validators.ETag ?? '');
  }
  const ifModifiedSince = req.headers['if-modified-since'];
  if (ifModifiedSince === undefined || validators['Last-Modified'] === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && Date.parse(validators['Last-Modified']) <= since;
}

const bodies = new WeakMap<Resource, Buffer>();

function noise(seed: number, key: string, size: number): Buffer {
  const rng = Rng.for(seed, 'binary', key);
  const bytes = Buffer.allocUnsafe(size);
  for (let i = 0; i < size; i++) bytes[i] = rng.int(256);
  return bytes;
}

function binaryChunk(site: Site, resource: BinaryResource, key: string): Buffer {
  const cached = bodies.get(resource);
  if (cached !== undefined) return cached;
  const size = Math.min(resource.size, CHUNK_BYTES);
  const body = noise(site.seed, key, size);
  resource.header.copy(body, 0, 0, Math.min(resource.header.length, size));
  bodies.set(resource, body);
  return body;
}

/** The body a page answers with (memoized; the trap's pages are made per request and not kept). */
export function pageBody(site: Site, resource: Resource): Buffer {
  if (resource.kind !== 'page') throw new Error('pageBody: not a page');
  const cached = bodies.get(resource);
  if (cached !== undefined) return cached;
  const body = renderPage(resource, site.seed);
  bodies.set(resource, body);
  return body;
}

async function streamBinary(res: ServerResponse, entry: RequestLogEntry, chunk: Buffer, size: number) {
  // The first chunk carries the signature; later ones repeat its tail, so the file costs one chunk of memory.
  const filler = chunk.subarray(Math.min(64, chunk.length));
  let written = 0;
  while (written < size && !res.destroyed) {
    const piece = written === 0 ? chunk : filler;
    const part = piece.subarray(0, Math.min(piece.length, size - written));
    written += part.length;
    entry.bytes = written;
    if (!res.write(part)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
  if (!res.destroyed) res.end();
}

function send(
  req: IncomingMessage,
  res: ServerResponse,
  entry: RequestLogEntry,
  status: number,
  headers: Record<string, string>,
  body: Buffer,
): void {
  entry.status = status;
  res.writeHead(status, { ...headers, 'Content-Length': String(body.length) });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  entry.bytes = body.length;
  res.end(body);
}

export function handleRequest(state: ServerState, req: IncomingMessage, res: ServerResponse): void {
  const address = req.socket.localAddress?.replace(/^::ffff:/, '') ?? '';
  const origin = `http://${address}:${req.socket.localPort}`;
  const target = req.url ?? '/';
  const entry: RequestLogEntry = {
    url: `${origin}${target}`,
    method: req.method ?? 'GET',
    status: 0,
    at: Date.now(),
    host: origin,
    bytes: 0,
    completed: false,
    from: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '',
  };
  state.log.push(entry);
  res.on('finish', () => {
    entry.completed = true;
  });
  if (state.latencyMs > 0) {
    // every answer after a round trip's worth of time, as a remote web gives it (logged on arrival)
    const timer = setTimeout(() => {
      state.timers.delete(timer);
      if (!res.destroyed) answer(state, req, res, entry, origin, target);
    }, state.latencyMs);
    state.timers.add(timer);
    return;
  }
  answer(state, req, res, entry, origin, target);
}

function answer(
  state: ServerState,
  req: IncomingMessage,
  res: ServerResponse,
  entry: RequestLogEntry,
  origin: string,
  target: string,
): void {
  const site = state.site;
  const host = site?.hostOfOrigin(origin);
  if (site === null || host === undefined) {
    send(req, res, entry, 503, { 'Content-Type': 'text/plain' }, Buffer.from('test web not ready\n'));
    return;
  }
  if (target === '/robots.txt') {
    const { status, body } = host.robots;
    send(req, res, entry, status, { 'Content-Type': 'text/plain; charset=utf-8' }, Buffer.from(body));
    return;
  }
  // A crawler that does not canonicalize gets the same resource under the variant spelling.
  let resource = site.resolve(host, target);
  if (resource === undefined) {
    const canonical = canonicalUrl(target, origin);
    if (canonical !== null) resource = site.resolve(host, requestTarget(canonical));
  }
  const notFound = Buffer.from(
    '<!DOCTYPE html><html><head><title>Not found</title></head><body>404</body></html>\n',
  );
  if (resource === undefined) {
    send(req, res, entry, 404, { 'Content-Type': 'text/html; charset=utf-8' }, notFound);
    return;
  }
  switch (resource.kind) {
    case 'redirect':
      send(
        req,
        res,
        entry,
        resource.status,
        { Location: resource.location, 'Content-Type': 'text/plain' },
        Buffer.from(''),
      );
      return;
    case 'status':
      send(
        req,
        res,
        entry,
        resource.status,
        { 'Content-Type': 'text/html; charset=utf-8' },
        Buffer.from(`<!DOCTYPE html><html><body>${resource.status}</body></html>\n`),
      );
      return;
    case 'file': {
      const headers = { 'Content-Type': resource.contentType };
      if (resource.delayMs === undefined || resource.delayMs <= 0) {
        send(req, res, entry, 200, headers, resource.body);
        return;
      }
      const timer = setTimeout(() => {
        state.timers.delete(timer);
        if (!res.destroyed) send(req, res, entry, 200, headers, resource.body);
      }, resource.delayMs);
      state.timers.add(timer);
      return;
    }
    case 'binary': {
      const chunk = binaryChunk(site, resource, `${host.index}${target}`);
      entry.status = 200;
      res.writeHead(200, { 'Content-Type': resource.contentType, 'Content-Length': String(resource.size) });
      if (req.method === 'HEAD') res.end();
      else void streamBinary(res, entry, chunk, resource.size);
      return;
    }
    case 'page': {
      const key = `${origin}${target}`;
      if (resource.unavailableOnce && !state.unavailableServed.has(key)) {
        state.unavailableServed.add(key);
        send(
          req,
          res,
          entry,
          503,
          { 'Retry-After': '1', 'Content-Type': 'text/plain' },
          Buffer.from('try again\n'),
        );
        return;
      }
      const body = pageBody(site, resource);
      const validators = state.conditional === 'none' ? {} : pageValidators(resource, body);
      if (state.conditional === 'honour' && req.method === 'GET' && notModified(req, validators)) {
        entry.status = 304;
        res.writeHead(304, validators);
        res.end();
        return;
      }
      const headers = { 'Content-Type': resource.contentType ?? 'text/html; charset=utf-8', ...validators };
      if (resource.delayMs === undefined || resource.delayMs <= 0) {
        send(req, res, entry, 200, headers, body);
        return;
      }
      const timer = setTimeout(() => {
        state.timers.delete(timer);
        if (!res.destroyed) send(req, res, entry, 200, headers, body);
      }, resource.delayMs);
      state.timers.add(timer);
      return;
    }
  }
}

/** Listens on each of `addresses`, all on one port (an ephemeral one when port is 0). */
export async function listenAll(
  addresses: readonly string[],
  port: number,
  state: ServerState,
): Promise<{ servers: Server[]; port: number }> {
  return listenLoopback(addresses, port, (req, res) => handleRequest(state, req, res));
}

/** listenAll with any request handler: other loopback webs (test/support/topicweb) serve through it too. */
export async function listenLoopback(
  addresses: readonly string[],
  port: number,
  handler: RequestListener,
): Promise<{ servers: Server[]; port: number }> {
  for (let attempt = 0; ; attempt++) {
    const servers: Server[] = [];
    try {
      let shared = port;
      for (const [index, host] of addresses.entries()) {
        const server = createServer({ keepAlive: true }, handler);
        servers.push(server);
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(shared, host, () => {
            server.off('error', reject);
            resolve();
          });
        });
        const address = server.address();
        if (index === 0 && typeof address === 'object' && address !== null) shared = address.port;
      }
      return { servers, port: shared };
    } catch (error) {
      await closeAll(servers);
      // The ephemeral port of 127.0.0.2 may be taken on another address: try a fresh one.
      if (port !== 0 || attempt >= 10 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
}

export async function closeAll(servers: Server[]): Promise<void> {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          if (!server.listening) {
            resolve();
            return;
          }
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    ),
  );
}
