// A stored page body (gzip) back to text, decoded the way the crawl decoded it when it fetched the page
// (BOM, then the Content-Type charset, then <meta charset>, else UTF-8), so ISO-8859-1 or windows-1251
// pages read the same in ?include=html, the word statistics and corpora.
import { promisify } from 'node:util';
import { gunzip as gunzipCallback } from 'node:zlib';
import { decodeBody } from '../crawler/fetch/index.js';

const gunzip = promisify(gunzipCallback);

export async function storedBodyText(htmlGzip: Buffer, contentType: string | null): Promise<string> {
  return decodeBody(await gunzip(htmlGzip), contentType).text;
}
