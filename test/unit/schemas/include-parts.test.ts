import assert from 'node:assert/strict';
import { test } from 'node:test';
import { commaListPattern, INCLUDE_PARTS } from '../../../src/schemas/common.js';
import { PAGE_DETAIL_INCLUDES, PAGE_LIST_INCLUDES } from '../../../src/schemas/crawls.js';
import { EXPORT_INCLUDES } from '../../../src/schemas/export.js';

test('commaListPattern: one or more of the values, comma-separated, nothing else', () => {
  const pattern = new RegExp(commaListPattern(['text', 'markdown']));
  for (const good of ['text', 'markdown', 'text,markdown', 'markdown,text,text']) {
    assert.ok(pattern.test(good), good);
  }
  for (const bad of ['', 'html', 'text,', ',text', 'text,,markdown', 'texts', 'text markdown', 'TEXT']) {
    assert.ok(!pattern.test(bad), bad);
  }
});

test("every endpoint's include parts come from INCLUDE_PARTS, in its order", () => {
  for (const parts of [PAGE_LIST_INCLUDES, PAGE_DETAIL_INCLUDES, EXPORT_INCLUDES]) {
    const ordered = INCLUDE_PARTS.filter((part) => (parts as readonly string[]).includes(part));
    assert.deepEqual([...parts], ordered);
  }
});
