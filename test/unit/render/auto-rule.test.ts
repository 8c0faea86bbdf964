import assert from 'node:assert/strict';
import { test } from 'node:test';
import { autoRenderRule } from '../../../src/crawler/render/auto-rule.js';

const prose =
  '<p>The harbour wall keeps the winter sea out of the town, and the boats wait for the tide.</p>';

test('an empty application root is script-built', () => {
  for (const id of ['root', 'app', '__next', '__nuxt']) {
    assert.equal(
      autoRenderRule(`<html><body><div id="${id}"></div>${prose.repeat(20)}</body></html>`),
      'app-root',
    );
  }
  assert.equal(autoRenderRule(`<body><div id='root'>  <!-- filled later --> </div></body>`), 'app-root');
});

test('an application root with text in it is not', () => {
  const html = `<body><div id="root"><h1>Served rendered</h1>${prose.repeat(20)}</div><script src="a.js"></script></body>`;
  assert.equal(autoRenderRule(html), 'static');
});

test('little visible text with a script is script-built; without a script it is just a short page', () => {
  assert.equal(
    autoRenderRule('<body><p>Loading…</p><script src="/bundle.js"></script></body>'),
    'little-text',
  );
  assert.equal(autoRenderRule('<body><p>A short page.</p></body>'), 'static');
  // script and style text is not visible text
  const hidden = `<head><title>t</title></head><body><script>${'var x = 1;'.repeat(500)}</script><p>Hi</p></body>`;
  assert.equal(autoRenderRule(hidden), 'little-text');
});

test('many scripts and modest text are script-built; a long article with many scripts is not', () => {
  const scripts = '<script src="/s.js"></script>'.repeat(8);
  assert.equal(autoRenderRule(`<body>${prose.repeat(5)}${scripts}</body>`), 'many-scripts');
  assert.equal(autoRenderRule(`<body>${prose.repeat(40)}${scripts}</body>`), 'static');
});
