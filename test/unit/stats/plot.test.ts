import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  distributionPlotSvg,
  harvestPlotSvg,
  percentileCont,
  zipfPlotSvg,
} from '../../../src/crawler/stats/index.js';

/** Well-formed XML in the subset we emit: balanced tags, quoted attributes, no stray '<' or '&'. */
function assertWellFormed(svg: string): void {
  const stack: string[] = [];
  const tag = /<(\/?)([a-zA-Z][\w-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/y;
  let index = 0;
  while (index < svg.length) {
    const next = svg.indexOf('<', index);
    const text = svg.slice(index, next === -1 ? svg.length : next);
    assert.doesNotMatch(text, /&(?!(amp|lt|gt|quot);)|>/, `stray character in text ${JSON.stringify(text)}`);
    if (next === -1) break;
    tag.lastIndex = next;
    const match = tag.exec(svg);
    assert.ok(match, `malformed tag at ${next}: ${svg.slice(next, next + 60)}`);
    const [, closing, name, , selfClosing] = match;
    if (closing) assert.equal(stack.pop(), name, `unbalanced </${name}>`);
    else if (!selfClosing) stack.push(name!);
    index = tag.lastIndex;
  }
  assert.deepEqual(stack, []);
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
}

function coordinates(svg: string, pattern: RegExp): number[] {
  const match = svg.match(pattern);
  assert.ok(match, String(pattern));
  return match.slice(1).map(Number);
}

test('zipf plot: log–log axes with labels, decade ticks and the ideal line through 0.1·N/r', () => {
  // N = 1000: the ideal f = 100/r passes exactly through the observed (1, 100) and (10, 10).
  const svg = zipfPlotSvg(
    [
      { rank: 1, frequency: 100 },
      { rank: 2, frequency: 40 },
      { rank: 10, frequency: 10 },
      { rank: 50, frequency: 3 },
    ],
    1000,
  );
  assertWellFormed(svg);
  assert.match(svg, />rank r \(log scale\)</);
  assert.match(svg, />frequency f \(log scale\)</);
  assert.match(svg, />Zipf: f = 0\.1 · N \/ r</);
  assert.match(svg, />observed \(top 4 words\)</);
  for (const label of ['1', '10', '100']) assert.match(svg, new RegExp(`>${label}</text>`));
  const [x1, y1] = coordinates(svg, /<line x1="([\d.]+)" y1="([\d.]+)"[^>]*stroke-dasharray/);
  const [cx, cy] = coordinates(svg, /<circle cx="([\d.]+)" cy="([\d.]+)"/);
  assert.equal(x1, cx);
  assert.equal(y1, cy);
  assertWellFormed(zipfPlotSvg([], 0));
  assert.match(zipfPlotSvg([], 0), />no words</);
});

test('distribution plot: histogram and ECDF on a log time axis, legend and escaped names', () => {
  const svg = distributionPlotSvg(
    [
      { name: 'load <time>', valuesMs: [120, 150, 180, 200, 260, 900] },
      { name: 'queue wait', valuesMs: [0, 10, 2000, 3500] },
    ],
    { title: 'Crawl & timings', xLabel: 'duration' },
  );
  assertWellFormed(svg);
  assert.match(svg, />Crawl &amp; timings</);
  assert.match(svg, />duration \(log scale\)</);
  assert.match(svg, />share of values</);
  assert.match(svg, />cumulative share \(ECDF\)</);
  // percentile_cont: the median of six values lies halfway between the 3rd and the 4th
  assert.match(svg, />load &lt;time&gt;: n = 6, median 190 ms, p95 740 ms, max 900 ms</);
  assert.match(svg, />queue wait: n = 4, median 1,005 ms, p95 3,275 ms, max 3,500 ms</);
  // decades from 10 ms, the decade of the smallest positive value (the 0 ms wait sits on the left edge, as the
  // note says), to 10 s: every value drawn
  for (const tick of ['10 ms', '100 ms', '1 s', '10 s']) assert.match(svg, new RegExp(`>${tick}<`));
  assert.doesNotMatch(svg, />1 ms</);
  assert.match(svg, />1 value\(s\) under 10 ms drawn at 10 ms</);
  assert.doesNotMatch(svg, /not drawn/);
  assert.equal(svg.match(/<polyline/g)?.length, 2);
  // every mark stays inside its frame
  for (const mark of svg.match(/<(polygon|polyline) [^>]*>/g) ?? []) assert.match(mark, /clip-path="url\(#/);
  const empty = distributionPlotSvg([{ name: 'none', valuesMs: [] }], { title: 't', xLabel: 'x' });
  assertWellFormed(empty);
  assert.match(empty, />no data</);
});

test('distribution plot: the share axis reaches the highest bar, which is drawn whole', () => {
  // 7 of 20 values (35 %) in one bin: an axis of 0–30 % would cut that bar at its frame
  const valuesMs = [
    ...Array.from({ length: 7 }, () => 4),
    ...Array.from({ length: 13 }, (_, i) => 20 + i * 70),
  ];
  const svg = distributionPlotSvg([{ name: 'load', valuesMs }], { title: 't', xLabel: 'x' });
  const shareLabels = [...svg.matchAll(/>(\d+)%</g)].map((match) => Number(match[1]));
  assert.ok(Math.max(...shareLabels) >= 35, `share axis labels ${shareLabels.join(', ')}`);
});

test('harvest plot: the pages axis reaches the last page fetched', () => {
  const svg = harvestPlotSvg(
    [
      { pagesFetched: 10, harvestRate: 0.5 },
      { pagesFetched: 85, harvestRate: 0.4 },
    ],
    't',
  );
  const pageLabels = [...svg.matchAll(/text-anchor="middle"[^>]*>([\d,]+)</g)].map((match) =>
    Number(match[1]!.replace(',', '')),
  );
  assert.ok(Math.max(...pageLabels) >= 85, `pages axis labels ${pageLabels.join(', ')}`);
});

test('percentileCont interpolates between the closest ranks, as PostgreSQL does', () => {
  assert.equal(percentileCont([1, 2, 3, 4], 0.5), 2.5);
  assert.equal(percentileCont([5], 0.95), 5);
  assert.ok(Math.abs(percentileCont([0, 10, 20, 30, 40], 0.95) - 38) < 1e-9);
  assert.ok(Number.isNaN(percentileCont([], 0.5)));
});
