import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import {
  isFinished,
  isHtmlBody,
  isHtmlMediaType,
  isTextualContentType,
} from '../../src/crawler/vocabulary.js';

const source = (path: string) => readFile(new URL(`../../src/crawler/${path}`, import.meta.url), 'utf8');
const imports = (text: string) => [...text.matchAll(/^import[^;]*?from '([^']+)'/gms)].map((m) => m[1]);

test('vocabulary.ts imports nothing, so the dashboard bundle and every client can import it', async () => {
  assert.deepEqual(imports(await source('vocabulary.ts')), []);
});

test('engine/ports.ts does not import crawl-request.ts, which imports it', async () => {
  assert.ok(imports(await source('crawl-request.ts')).includes('./engine/ports.js'));
  assert.ok(!imports(await source('engine/ports.ts')).some((from) => from?.endsWith('crawl-request.js')));
});

test('isFinished: completed, failed, cancelled and purging are final; queued and running are not', () => {
  assert.deepEqual(['queued', 'running', 'completed', 'failed', 'cancelled', 'purging'].map(isFinished), [
    false,
    false,
    true,
    true,
    true,
    true,
  ]);
});

test('isHtmlBody and isTextualContentType: the media-type tests the crawl and /v1 documents share', () => {
  assert.equal(isHtmlBody('text/html; charset=utf-8', ''), true);
  assert.equal(isHtmlBody('application/xhtml+xml', ''), true);
  assert.equal(isHtmlBody('text/plain', '<html>'), false);
  assert.equal(isHtmlBody(null, '  <!DOCTYPE html><p>x'), true);
  assert.equal(isHtmlBody(null, 'plain words'), false);
  assert.equal(isHtmlBody(null, null), false);
  assert.equal(isTextualContentType(null), true);
  assert.equal(isTextualContentType('text/csv'), true);
  assert.equal(isTextualContentType('application/pdf'), false);
});

test('isHtmlMediaType: HTML and XHTML media types, parameters and leading spaces aside', () => {
  assert.deepEqual(
    [
      'text/html',
      ' text/html; charset=utf-8',
      'application/xhtml+xml',
      'TEXT/HTML',
      'text/htmlx',
      'text/plain',
    ].map(isHtmlMediaType),
    [true, true, true, true, false, false],
  );
});
