// The outcome of fetching an HTML page, as tests hand it to a CrawlStore: a 200 text/html of 10 bytes with no
// body, links or score unless `fields` say otherwise.
import type { PageOutcome } from '../../src/crawler/engine/ports.js';

export function htmlPageOutcome(fields: Partial<PageOutcome> = {}): PageOutcome {
  return {
    type: 'HTML',
    status: 200,
    contentType: 'text/html',
    bytes: 10,
    truncated: false,
    sha256: null,
    loadMs: 1,
    fetchedAt: new Date(),
    finalUrl: null,
    title: null,
    error: null,
    redirects: null,
    duplicateOf: null,
    requested: true,
    score: null,
    relevant: false,
    body: null,
    response: null,
    links: [],
    images: [],
    queuedImages: [],
    skipped: [],
    document: null,
    text: null,
    ...fields,
  };
}
