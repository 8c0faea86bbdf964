import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

const source = (path: string) => readFile(new URL(`../../src/crawler/${path}`, import.meta.url), 'utf8');
const imports = (text: string) => [...text.matchAll(/^import[^;]*?from '([^']+)'/gms)].map((m) => m[1]);

test('vocabulary.ts imports nothing, so the dashboard bundle and every client can import it', async () => {
  assert.deepEqual(imports(await source('vocabulary.ts')), []);
});

test('engine/ports.ts does not import crawl-request.ts, which imports it', async () => {
  assert.ok(imports(await source('crawl-request.ts')).includes('./engine/ports.js'));
  assert.ok(!imports(await source('engine/ports.ts')).some((from) => from?.endsWith('crawl-request.js')));
});
