// A crawl's pages as WARC 1.1 records (ISO 28500:2017; docs/reference.md#warc), built and serialized by
// webrecorder's warcio, each record its own gzip member (so a reader may seek to any record). Per fetched page:
// a request and a response record for each redirect hop, then for its own answer a request record and a
// response record, or a revisit record for a copy of another page's body. What trawl
// stores is written as it is, and said so: the body is kept with its Content-Encoding undone, so the header
// block is rewritten to describe the stored payload (the originals kept as X-Archive-Orig-*), WARC-Truncated
// marks a body cut at the crawl's byte cap ("length") or not kept ("unspecified"), and the payload digest is
// that of the stored bytes. Record ids are derived from the crawl, page and record kind: an export of a
// finished crawl is the same bytes every time.
import { createHash } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { WARC_1_1, WARCRecord, WARCSerializer } from 'warcio';
import type { NormalizedCrawlRequest } from '../../crawler/crawl-request.js';
import { REQUEST_HEADERS } from '../../crawler/fetch/index.js';
import type { PageRow, StoredResponseRow } from '../../db/crawls-repo.js';
import { storedBody, storedBodyBytes } from '../content/stored-body.js';

const gzip = promisify(gzipCallback);

/**
 * The kinds of record a crawl's WARC holds (a record id is derived from one of them): a page's own exchange,
 * or the nth redirect hop before it (`request@0`, `response@0`, …).
 */
export type WarcRecordKind = 'warcinfo' | 'request' | 'response' | `${'request' | 'response'}@${number}`;

/**
 * A record's id, `<urn:uuid:…>`: a name-based UUID (RFC 9562 §5.5, SHA-1) of the crawl, page and record
 * kind, so the same record of the same crawl has the same id in every export.
 */
export function warcRecordId(crawlId: string, pageId: number | null, kind: WarcRecordKind): string {
  const hash = createHash('sha1')
    .update(`trawl/${crawlId}/${pageId ?? ''}/${kind}`)
    .digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `<urn:uuid:${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}>`;
}

/** Headers describing the stored body rather than the wire: it is decoded (no Content-Encoding) and whole. */
const WIRE_HEADERS = new Set(['content-encoding', 'transfer-encoding', 'content-length']);

/**
 * The response's header block as written: the headers received, those that describe the wire moved to
 * X-Archive-Orig-* (unless they still hold for the stored payload) and Content-Length set to the payload's.
 * Without stored headers (a crawl that kept none for this page) a block rebuilt from the page row.
 */
export function storedHeaderBlock(
  headers: Array<[string, string]> | null,
  contentType: string | null,
  payloadBytes: number,
): Array<[string, string]> {
  const length = String(payloadBytes);
  if (headers === null) {
    return [
      ...(contentType !== null ? [['content-type', contentType] as [string, string]] : []),
      ['content-length', length],
    ];
  }
  const block: Array<[string, string]> = [];
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (lower === 'content-length' && value.trim() === length) continue;
    block.push(WIRE_HEADERS.has(lower) ? [`x-archive-orig-${lower}`, value] : [name, value]);
  }
  block.push(['content-length', length]);
  return block;
}

/** What every record of one export shares. */
export interface WarcExport {
  crawlId: string;
  request: NormalizedCrawlRequest;
  createdAt: Date;
  filename: string;
}

const EMPTY = Buffer.alloc(0);

/**
 * The record as bytes, one gzip member. warcio writes it; its block and payload digests (SHA-256, as warcio
 * computes them) are set beforehand with node's crypto and the member is gzipped by zlib on libuv's threads:
 * warcio's own hashers (a WASM instance per record) and CompressionStream cost several times as much, and on
 * the event loop.
 */
export async function serialized(record: WARCRecord, payload: Uint8Array = EMPTY): Promise<Buffer> {
  if (record.warcType !== 'warcinfo') {
    const headers = record.warcHeaders.headers;
    // in warcio's order: the payload's digest (a revisit carries its original's), then the block's
    if (record.warcType !== 'revisit') {
      headers.set('WARC-Payload-Digest', `sha256:${createHash('sha256').update(payload).digest('hex')}`);
    }
    const block = createHash('sha256');
    if (record.httpHeaders) block.update(`${record.httpHeaders.toString()}\r\n`);
    headers.set('WARC-Block-Digest', `sha256:${block.update(payload).digest('hex')}`);
  }
  return gzip(await WARCSerializer.serialize(record, { gzip: false }));
}

/** The first record: what the file is, what made it, and what of the responses was kept. */
export async function warcinfoRecord(warc: WarcExport): Promise<Buffer> {
  const { request } = warc;
  const kept = request.store.warc
    ? "every response's headers and body as read; documents the crawl does not download (PDF, images) are headers only"
    : "every response's headers and the bodies of HTML pages (store.html); other responses' bodies were not kept";
  const record = WARCRecord.createWARCInfo(
    {
      filename: warc.filename,
      date: warc.createdAt.toISOString(),
      warcVersion: WARC_1_1,
      warcHeaders: { 'WARC-Record-ID': warcRecordId(warc.crawlId, null, 'warcinfo') },
    },
    {
      software: 'trawl',
      format: 'WARC File Format 1.1',
      conformsTo: 'http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/',
      isPartOf: `trawl crawl ${warc.crawlId}`,
      robots: request.politeness.respectRobots ? 'obey' : 'ignore',
      'http-header-user-agent': request.politeness.userAgent,
      'trawl-stored': kept,
      'trawl-payload':
        'bodies are stored with their Content-Encoding undone: Content-Encoding, Transfer-Encoding and a differing Content-Length are moved to X-Archive-Orig-*, Content-Length is the payload\'s, and WARC-Payload-Digest is that of the stored bytes; WARC-Truncated "length" marks a body cut at fetch.maxBytes, "unspecified" one not kept; a response whose headers were not kept has a block rebuilt from the page record (Content-Type, Content-Length)',
      'trawl-redirects':
        "a redirected page is written at its final URL; each hop before it is a request and a response record at its own URL whose header block is rebuilt from the page record (Location and Content-Length: 0; the hop's other headers were not kept)",
    },
  );
  return serialized(record);
}

/** WARC 1.1 §6.7.2: a revisit record of a 304 answer to a conditional request. */
const SERVER_NOT_MODIFIED_PROFILE = 'http://netpreserve.org/warc/1.1/revisit/server-not-modified';

/**
 * A fetched page's records, serialized and gzipped: its request, then its response (or, for a copy of an
 * earlier page's body, a revisit of that page's response; for a recrawl's 304, a server-not-modified revisit of
 * the earlier response). A page without an HTTP answer has none.
 */
export async function pageRecords(
  warc: WarcExport,
  row: PageRow,
  stored: StoredResponseRow | undefined,
): Promise<Buffer[]> {
  if (row.status === null || row.fetched_at === null) return [];
  const target = row.final_url ?? row.url;
  const date = row.fetched_at.toISOString();
  const warcinfoId = warcRecordId(warc.crawlId, null, 'warcinfo');
  const responseId = warcRecordId(warc.crawlId, row.id, 'response');
  const records: Buffer[] = [];
  const hops = redirectHops(stored?.redirects ?? null, target);
  for (const [index, hop] of hops.entries()) {
    const hopResponseId = warcRecordId(warc.crawlId, row.id, `response@${index}`);
    records.push(
      await serialized(
        requestRecord(
          warc,
          hop.url,
          date,
          warcRecordId(warc.crawlId, row.id, `request@${index}`),
          hopResponseId,
        ),
      ),
      await serialized(
        WARCRecord.create(
          {
            url: hop.url,
            date,
            type: 'response',
            warcVersion: WARC_1_1,
            warcHeaders: { 'WARC-Record-ID': hopResponseId, 'WARC-Warcinfo-ID': warcinfoId },
            statusline: statusLine(hop.status),
            httpHeaders: [
              ['location', hops[index + 1]?.url ?? target],
              ['content-length', '0'],
            ],
          },
          [],
        ),
      ),
    );
  }
  const request = requestRecord(
    warc,
    target,
    date,
    warcRecordId(warc.crawlId, row.id, 'request'),
    responseId,
  );
  const statusline = statusLine(row.status);
  const headers = stored?.headers ?? null;
  let response: WARCRecord;
  let payload: Buffer | null = null;
  if (stored?.body_of != null && row.status === 304) {
    // a recrawl's 304 (server-not-modified profile): the answer's headers, the earlier response named, no payload
    response = WARCRecord.create({
      url: target,
      date,
      type: 'revisit',
      warcVersion: WARC_1_1,
      refersToUrl: stored.body_of_url!,
      refersToDate: stored.body_of_fetched_at!.toISOString(),
      warcHeaders: {
        'WARC-Record-ID': responseId,
        ...(row.sha256 ? { 'WARC-Payload-Digest': `sha256:${row.sha256}` } : {}),
        'WARC-Warcinfo-ID': warcinfoId,
      },
      statusline,
      httpHeaders: storedHeaderBlock(headers, row.content_type, 0),
    });
    response.warcHeaders.headers.set('WARC-Profile', SERVER_NOT_MODIFIED_PROFILE);
  } else if (stored?.original_id != null && row.sha256 !== null) {
    // the same body as an earlier page (identical-payload-digest profile): the headers, no payload
    response = WARCRecord.create({
      url: target,
      date,
      type: 'revisit',
      warcVersion: WARC_1_1,
      refersToUrl: stored.original_url!,
      refersToDate: stored.original_fetched_at!.toISOString(),
      warcHeaders: {
        'WARC-Record-ID': responseId,
        'WARC-Refers-To': warcRecordId(warc.crawlId, Number(stored.original_id), 'response'),
        'WARC-Payload-Digest': `sha256:${row.sha256}`,
        'WARC-Warcinfo-ID': warcinfoId,
      },
      statusline,
      httpHeaders: storedHeaderBlock(headers, row.content_type, row.bytes ?? 0),
    });
  } else {
    const body = storedBody(stored?.body, stored?.body_gzip);
    payload = body ? await storedBodyBytes(body) : null;
    const bodySent = (row.bytes ?? 0) > 0;
    const truncated =
      payload === null ? (bodySent ? 'unspecified' : null) : stored?.truncated ? 'length' : null;
    response = WARCRecord.create(
      {
        url: target,
        date,
        type: 'response',
        warcVersion: WARC_1_1,
        warcHeaders: {
          'WARC-Record-ID': responseId,
          'WARC-Warcinfo-ID': warcinfoId,
          ...(truncated ? { 'WARC-Truncated': truncated } : {}),
        },
        statusline,
        httpHeaders: storedHeaderBlock(headers, row.content_type, payload?.length ?? 0),
      },
      payload ? [payload] : [],
    );
  }
  records.push(await serialized(request), await serialized(response, payload ?? EMPTY));
  return records;
}

/**
 * The redirect hops answered before the page's own exchange at `target`. A refused redirect is the page's own
 * answer (its 3xx is the response at `target`), so a last hop at `target` is not one of them.
 */
export function redirectHops(
  redirects: Array<{ url: string; status: number }> | null,
  target: string,
): Array<{ url: string; status: number }> {
  if (!redirects) return [];
  return redirects.at(-1)?.url === target ? redirects.slice(0, -1) : redirects;
}

function statusLine(status: number): string {
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd();
}

/** What the fetcher sent for `target` (fetch/fetcher.ts): GET, Host, the crawl's User-Agent, Accept*. */
function requestRecord(
  warc: WarcExport,
  target: string,
  date: string,
  id: string,
  responseId: string,
): WARCRecord {
  const url = new URL(target);
  return WARCRecord.create(
    {
      url: target,
      date,
      type: 'request',
      warcVersion: WARC_1_1,
      warcHeaders: {
        'WARC-Record-ID': id,
        'WARC-Concurrent-To': responseId,
        'WARC-Warcinfo-ID': warcRecordId(warc.crawlId, null, 'warcinfo'),
      },
      statusline: `GET ${url.pathname}${url.search} HTTP/1.1`,
      httpHeaders: [
        ['host', url.host],
        ['user-agent', warc.request.politeness.userAgent],
        ...Object.entries(REQUEST_HEADERS),
      ],
    },
    [],
  );
}
