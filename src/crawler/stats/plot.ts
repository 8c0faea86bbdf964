// Plain-SVG charts for crawl statistics (docs/reference.md#word-statistics): the words' rank–frequency plot on log–log axes with
// Zipf's ideal f = 0.1·N/r beside it, and load-time / queue-wait distributions as histogram over ECDF on a log time axis.
// Hand-written SVG: two fixed chart types do not justify a plotting dependency.

export interface RankFrequency {
  rank: number;
  frequency: number;
}

export interface DistributionSeries {
  name: string;
  valuesMs: number[];
}

export interface DistributionPlotOptions {
  title: string;
  xLabel: string;
}

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf'];
const WIDTH = 680;

interface Frame {
  left: number;
  top: number;
  width: number;
  height: number;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function fmt(value: number): string {
  return Number(value.toFixed(2)).toString();
}

function svgDocument(height: number, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${height}" fill="#ffffff"/>`,
    ...body,
    '</svg>',
  ].join('\n');
}

function text(x: number, y: number, content: string, attributes = ''): string {
  return `<text x="${fmt(x)}" y="${fmt(y)}"${attributes ? ` ${attributes}` : ''}>${content}</text>`;
}

/** A y-axis title, turned upright, centred on the frame's height at the left edge of the plot. */
function yAxisLabel(frame: Frame, content: string): string {
  const y = frame.top + frame.height / 2;
  return text(20, y, content, `text-anchor="middle" transform="rotate(-90 20 ${fmt(y)})"`);
}

function frameRect(frame: Frame): string {
  return `<rect x="${fmt(frame.left)}" y="${fmt(frame.top)}" width="${fmt(frame.width)}" height="${fmt(frame.height)}" fill="none" stroke="#333333"/>`;
}

/** Label for 10^k: plain digits up to 1000 (and down to 0.001), a superscript power beyond. */
function decadeLabel(exponent: number): string {
  if (exponent >= 0 && exponent <= 3) return String(10 ** exponent);
  if (exponent < 0 && exponent >= -3) return (10 ** exponent).toFixed(-exponent);
  return `10<tspan dy="-6" font-size="9">${exponent}</tspan>`;
}

/** Ticks at 1, 2 or 5 × 10^k covering [min, max] with about `count` steps. */
function niceTicks(min: number, max: number, count: number): number[] {
  const span = max - min || Math.abs(max) || 1;
  const rough = span / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  // the last tick is at or above max: an axis that stopped below it would clip the highest bar or point
  const ticks: number[] = [];
  for (let value = Math.floor(min / step) * step; ; value += step) {
    ticks.push(Number(value.toPrecision(12)));
    if (value >= max - step * 1e-9) break;
  }
  return ticks;
}

/** A number with thousands grouped, to one decimal: milliseconds as the crawl status gives them, page counts. */
function formatNumber(value: number): string {
  return value.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

/**
 * Rank–frequency on log–log axes: the observed words as points, Zipf's ideal f = 0.1·N/r as a dashed line,
 * decade ticks with grid lines, labelled axes and a legend.
 */
export function zipfPlotSvg(top: RankFrequency[], totalWords: number): string {
  const height = 460;
  const frame: Frame = { left: 78, top: 48, width: WIDTH - 78 - 24, height: height - 48 - 62 };
  const points = top.filter((p) => p.rank >= 1 && p.frequency >= 1);
  const maxRank = Math.max(10, ...points.map((p) => p.rank));
  const ideal = (rank: number) => (0.1 * totalWords) / rank;
  const xMaxExp = Math.ceil(Math.log10(maxRank));
  const frequencies = points.map((p) => p.frequency);
  const highest = Math.max(10, ideal(1), ...frequencies);
  const lowest = Math.min(...frequencies, totalWords > 0 ? ideal(10 ** xMaxExp) : 1);
  const yMaxExp = Math.ceil(Math.log10(highest));
  const yMinExp = Math.min(Math.floor(Math.log10(lowest)), yMaxExp - 1);
  const x = (rank: number) => frame.left + (Math.log10(rank) / xMaxExp) * frame.width;
  const y = (frequency: number) =>
    frame.top + frame.height - ((Math.log10(frequency) - yMinExp) / (yMaxExp - yMinExp)) * frame.height;

  const body: string[] = [];
  body.push(
    text(
      WIDTH / 2,
      26,
      `Word rank–frequency (N = ${totalWords.toLocaleString('en-US')} words)`,
      'text-anchor="middle" font-size="15" font-weight="bold"',
    ),
  );
  // Decade grid and ticks, with unlabelled minor ticks at 2…9 × 10^k.
  for (let k = 0; k <= xMaxExp; k++) {
    const px = x(10 ** k);
    body.push(
      `<line x1="${fmt(px)}" y1="${frame.top}" x2="${fmt(px)}" y2="${frame.top + frame.height}" stroke="#e3e3e3"/>`,
    );
    body.push(
      `<line x1="${fmt(px)}" y1="${frame.top + frame.height}" x2="${fmt(px)}" y2="${frame.top + frame.height + 6}" stroke="#333333"/>`,
    );
    body.push(text(px, frame.top + frame.height + 20, decadeLabel(k), 'text-anchor="middle"'));
    for (let m = 2; m <= 9 && k < xMaxExp; m++) {
      const mx = x(m * 10 ** k);
      body.push(
        `<line x1="${fmt(mx)}" y1="${frame.top + frame.height}" x2="${fmt(mx)}" y2="${frame.top + frame.height + 3}" stroke="#333333"/>`,
      );
    }
  }
  for (let k = yMinExp; k <= yMaxExp; k++) {
    const py = y(10 ** k);
    body.push(
      `<line x1="${frame.left}" y1="${fmt(py)}" x2="${frame.left + frame.width}" y2="${fmt(py)}" stroke="#e3e3e3"/>`,
    );
    body.push(
      `<line x1="${frame.left - 6}" y1="${fmt(py)}" x2="${frame.left}" y2="${fmt(py)}" stroke="#333333"/>`,
    );
    body.push(text(frame.left - 9, py + 4, decadeLabel(k), 'text-anchor="end"'));
    for (let m = 2; m <= 9 && k < yMaxExp; m++) {
      const my = y(m * 10 ** k);
      body.push(
        `<line x1="${frame.left - 3}" y1="${fmt(my)}" x2="${frame.left}" y2="${fmt(my)}" stroke="#333333"/>`,
      );
    }
  }
  body.push(frameRect(frame));
  body.push(text(frame.left + frame.width / 2, height - 14, 'rank r (log scale)', 'text-anchor="middle"'));
  body.push(yAxisLabel(frame, 'frequency f (log scale)'));

  if (totalWords > 0) {
    const rEnd = 10 ** xMaxExp;
    body.push(
      `<line x1="${fmt(x(1))}" y1="${fmt(y(ideal(1)))}" x2="${fmt(x(rEnd))}" y2="${fmt(y(ideal(rEnd)))}" stroke="#d62728" stroke-width="1.5" stroke-dasharray="6 4"/>`,
    );
  }
  if (points.length > 0) {
    body.push(
      `<polyline fill="none" stroke="#1f77b4" stroke-opacity="0.5" points="${points.map((p) => `${fmt(x(p.rank))},${fmt(y(p.frequency))}`).join(' ')}"/>`,
    );
    if (points.length <= 1000) {
      for (const p of points) {
        body.push(`<circle cx="${fmt(x(p.rank))}" cy="${fmt(y(p.frequency))}" r="2.5" fill="#1f77b4"/>`);
      }
    }
  } else {
    body.push(
      text(
        frame.left + frame.width / 2,
        frame.top + frame.height / 2,
        'no words',
        'text-anchor="middle" fill="#777777"',
      ),
    );
  }

  // Legend in the top-right corner, where a falling curve leaves room.
  const lx = frame.left + frame.width - 210;
  const ly = frame.top + 12;
  body.push(
    `<rect x="${lx - 10}" y="${ly - 4}" width="208" height="46" fill="#ffffff" fill-opacity="0.9" stroke="#bbbbbb"/>`,
  );
  body.push(`<circle cx="${lx + 12}" cy="${ly + 9}" r="3" fill="#1f77b4"/>`);
  body.push(text(lx + 30, ly + 13, `observed (top ${points.length} words)`));
  body.push(
    `<line x1="${lx}" y1="${ly + 29}" x2="${lx + 24}" y2="${ly + 29}" stroke="#d62728" stroke-width="1.5" stroke-dasharray="6 4"/>`,
  );
  body.push(text(lx + 30, ly + 33, 'Zipf: f = 0.1 · N / r'));
  return svgDocument(height, body);
}

/**
 * Percentile of sorted values with linear interpolation between the closest ranks: PostgreSQL's
 * percentile_cont, which the crawl status uses, so a plot's median is the status endpoint's median.
 */
export function percentileCont(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = q * (sorted.length - 1);
  const below = Math.floor(position);
  const above = Math.ceil(position);
  return sorted[below]! + (position - below) * (sorted[above]! - sorted[below]!);
}

/** A duration for a log axis' decade tick: ms below a second, s below 10,000 s, then h. */
function durationLabel(ms: number): string {
  if (ms < 1000) return `${formatNumber(ms)} ms`;
  if (ms < 10_000_000) return `${formatNumber(ms / 1000)} s`;
  return `${formatNumber(ms / 3_600_000)} h`;
}

function clipPath(id: string, frame: Frame): string {
  return `<clipPath id="${id}"><rect x="${fmt(frame.left)}" y="${fmt(frame.top)}" width="${fmt(frame.width)}" height="${fmt(frame.height)}"/></clipPath>`;
}

/**
 * Distributions of durations: a histogram (share of each series per bin) above the ECDF, on one logarithmic
 * time axis, because crawl timings span decades (loads of a few ms beside queue waits of minutes) and a linear
 * axis draws the short ones as one invisible bar at zero. Every value is drawn: the axis runs from the decade
 * below the smallest positive value (at least 1 ms; smaller values, 0 ms included, sit on its left edge, as
 * the legend says) to the decade above the largest. Bins are equal on the log scale; marks are clipped to
 * their frame. The legend's median and p95 follow percentileCont, the status endpoint's rule.
 */
export function distributionPlotSvg(series: DistributionSeries[], options: DistributionPlotOptions): string {
  const legendRows = Math.max(1, series.length);
  const histogramTop = 52 + legendRows * 18 + 12;
  const height = histogramTop + 190 + 40 + 220 + 64;
  const left = 78;
  const width = WIDTH - left - 24;
  const histogram: Frame = { left, top: histogramTop, width, height: 190 };
  const ecdf: Frame = { left, top: histogramTop + 190 + 40, width, height: 220 };
  const sortedSeries = series.map((s) => ({
    name: s.name,
    sorted: s.valuesMs.filter((v) => Number.isFinite(v) && v >= 0).sort((a, b) => a - b),
  }));
  const all = sortedSeries.filter((s) => s.sorted.length > 0);
  const values = all.flatMap((s) => s.sorted);
  const smallestPositive = Math.min(...values.filter((v) => v > 0), Number.POSITIVE_INFINITY);
  const minExp = Math.floor(
    Math.log10(Number.isFinite(smallestPositive) ? Math.max(1, smallestPositive) : 1),
  );
  const maxExp = Math.max(minExp + 1, Math.ceil(Math.log10(Math.max(1, ...values))));
  const axisMin = 10 ** minExp;
  const logX = (value: number) => (Math.log10(Math.max(value, axisMin)) - minExp) / (maxExp - minExp);
  const x = (value: number) => left + logX(value) * width;

  const body: string[] = [];
  body.push(`<defs>${clipPath('histogram-frame', histogram)}${clipPath('ecdf-frame', ecdf)}</defs>`);
  body.push(
    text(WIDTH / 2, 26, escapeXml(options.title), 'text-anchor="middle" font-size="15" font-weight="bold"'),
  );

  // Histogram: bins equal in log(time), 5 per decade (fewer when the range is wide), each series as a share
  // of its own count.
  const binsPerDecade = maxExp - minExp > 6 ? 2 : 5;
  const binCount = (maxExp - minExp) * binsPerDecade;
  const shares = all.map((s) => {
    const bins = new Array<number>(binCount).fill(0);
    for (const value of s.sorted) {
      bins[Math.min(binCount - 1, Math.floor(logX(value) * binCount))]! += 1;
    }
    return bins.map((count) => count / s.sorted.length);
  });
  const maxShare = Math.max(0.01, ...shares.flat());
  const shareTicks = niceTicks(0, maxShare, 4);
  const shareTop = shareTicks[shareTicks.length - 1]!;
  const yHist = (share: number) => histogram.top + histogram.height - (share / shareTop) * histogram.height;
  const yEcdf = (p: number) => ecdf.top + ecdf.height - p * ecdf.height;
  const binEdge = (bin: number) => left + (bin / binCount) * width;

  for (const frame of [histogram, ecdf]) {
    for (let k = minExp; k <= maxExp; k++) {
      const px = x(10 ** k);
      body.push(
        `<line x1="${fmt(px)}" y1="${frame.top}" x2="${fmt(px)}" y2="${frame.top + frame.height}" stroke="#e3e3e3"/>`,
      );
      body.push(
        `<line x1="${fmt(px)}" y1="${frame.top + frame.height}" x2="${fmt(px)}" y2="${frame.top + frame.height + 5}" stroke="#333333"/>`,
      );
      body.push(text(px, frame.top + frame.height + 18, durationLabel(10 ** k), 'text-anchor="middle"'));
      for (let m = 2; m <= 9 && k < maxExp; m++) {
        const mx = x(m * 10 ** k);
        body.push(
          `<line x1="${fmt(mx)}" y1="${frame.top + frame.height}" x2="${fmt(mx)}" y2="${frame.top + frame.height + 3}" stroke="#333333"/>`,
        );
      }
    }
  }
  for (const tick of shareTicks) {
    const py = yHist(tick);
    body.push(`<line x1="${left}" y1="${fmt(py)}" x2="${left + width}" y2="${fmt(py)}" stroke="#e3e3e3"/>`);
    body.push(text(left - 8, py + 4, `${fmt(tick * 100)}%`, 'text-anchor="end"'));
  }
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    const py = yEcdf(tick);
    body.push(`<line x1="${left}" y1="${fmt(py)}" x2="${left + width}" y2="${fmt(py)}" stroke="#e3e3e3"/>`);
    body.push(text(left - 8, py + 4, fmt(tick), 'text-anchor="end"'));
  }

  all.forEach((s, index) => {
    const color = PALETTE[index % PALETTE.length]!;
    const outline: string[] = [`${fmt(left)},${fmt(yHist(0))}`];
    shares[index]!.forEach((share, bin) => {
      outline.push(`${fmt(binEdge(bin))},${fmt(yHist(share))}`);
      outline.push(`${fmt(binEdge(bin + 1))},${fmt(yHist(share))}`);
    });
    outline.push(`${fmt(left + width)},${fmt(yHist(0))}`);
    body.push(
      `<polygon clip-path="url(#histogram-frame)" points="${outline.join(' ')}" fill="${color}" fill-opacity="0.18" stroke="${color}" stroke-width="1.5"/>`,
    );
    const steps: string[] = [`${fmt(left)},${fmt(yEcdf(0))}`];
    s.sorted.forEach((value, i) => {
      steps.push(`${fmt(x(value))},${fmt(yEcdf(i / s.sorted.length))}`);
      steps.push(`${fmt(x(value))},${fmt(yEcdf((i + 1) / s.sorted.length))}`);
    });
    steps.push(`${fmt(left + width)},${fmt(yEcdf(1))}`);
    body.push(
      `<polyline clip-path="url(#ecdf-frame)" points="${steps.join(' ')}" fill="none" stroke="${color}" stroke-width="1.8"/>`,
    );
    // the median, where the ECDF crosses one half
    const median = x(percentileCont(s.sorted, 0.5));
    body.push(
      `<line x1="${fmt(median)}" y1="${fmt(yEcdf(0.5))}" x2="${fmt(median)}" y2="${fmt(ecdf.top + ecdf.height)}" stroke="${color}" stroke-dasharray="3 3"/>`,
    );
  });

  body.push(frameRect(histogram), frameRect(ecdf));
  body.push(yAxisLabel(histogram, 'share of values'));
  body.push(yAxisLabel(ecdf, 'cumulative share (ECDF)'));
  body.push(
    text(left + width / 2, height - 22, `${escapeXml(options.xLabel)} (log scale)`, 'text-anchor="middle"'),
  );
  const belowAxis = values.filter((v) => v < axisMin).length;
  if (belowAxis > 0) {
    body.push(
      text(
        left + width,
        height - 6,
        `${belowAxis} value(s) under ${durationLabel(axisMin)} drawn at ${durationLabel(axisMin)}`,
        'text-anchor="end" fill="#555555" font-size="10"',
      ),
    );
  }
  if (all.length === 0) {
    body.push(
      text(left + width / 2, ecdf.top + ecdf.height / 2, 'no data', 'text-anchor="middle" fill="#777777"'),
    );
  }

  // Legend above the histogram, one row per series.
  sortedSeries.forEach((s, index) => {
    const color = PALETTE[index % PALETTE.length]!;
    const lx = left;
    const ly = 56 + index * 18;
    const summary =
      s.sorted.length === 0
        ? 'n = 0'
        : `n = ${s.sorted.length}, median ${formatNumber(percentileCont(s.sorted, 0.5))} ms, p95 ${formatNumber(percentileCont(s.sorted, 0.95))} ms, max ${formatNumber(s.sorted.at(-1)!)} ms`;
    body.push(`<rect x="${fmt(lx)}" y="${ly - 9}" width="14" height="10" fill="${color}"/>`);
    body.push(text(lx + 20, ly, `${escapeXml(s.name)}: ${summary}`));
  });
  return svgDocument(height, body);
}

export interface HarvestPoint {
  pagesFetched: number;
  harvestRate: number;
}

/**
 * Harvest rate (relevant pages / pages fetched) as the crawl went on: the measure of a focused crawler
 * (Chakrabarti et al.), a line over pages fetched with the threshold's meaning in the title.
 */
export function harvestPlotSvg(points: HarvestPoint[], title: string): string {
  const height = 300;
  const frame: Frame = { left: 78, top: 44, width: WIDTH - 78 - 24, height: height - 44 - 56 };
  const maxPages = Math.max(1, ...points.map((p) => p.pagesFetched));
  const xTicks = niceTicks(0, maxPages, 6);
  const xMax = xTicks[xTicks.length - 1]!;
  const x = (pages: number) => frame.left + (pages / xMax) * frame.width;
  const y = (rate: number) => frame.top + frame.height - rate * frame.height;
  const body: string[] = [
    `<defs>${clipPath('harvest-frame', frame)}</defs>`,
    text(WIDTH / 2, 26, escapeXml(title), 'text-anchor="middle" font-size="15" font-weight="bold"'),
  ];
  for (const tick of xTicks) {
    const px = x(tick);
    body.push(
      `<line x1="${fmt(px)}" y1="${frame.top}" x2="${fmt(px)}" y2="${frame.top + frame.height}" stroke="#e3e3e3"/>`,
    );
    body.push(text(px, frame.top + frame.height + 18, formatNumber(tick), 'text-anchor="middle"'));
  }
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    const py = y(tick);
    body.push(
      `<line x1="${frame.left}" y1="${fmt(py)}" x2="${frame.left + frame.width}" y2="${fmt(py)}" stroke="#e3e3e3"/>`,
    );
    body.push(text(frame.left - 8, py + 4, `${fmt(tick * 100)}%`, 'text-anchor="end"'));
  }
  if (points.length > 0) {
    body.push(
      `<polyline clip-path="url(#harvest-frame)" fill="none" stroke="#2ca02c" stroke-width="2" points="${points
        .map((p) => `${fmt(x(p.pagesFetched))},${fmt(y(p.harvestRate))}`)
        .join(' ')}"/>`,
    );
  } else {
    body.push(
      text(
        frame.left + frame.width / 2,
        frame.top + frame.height / 2,
        'no pages fetched',
        'text-anchor="middle" fill="#777777"',
      ),
    );
  }
  body.push(frameRect(frame));
  body.push(yAxisLabel(frame, 'harvest rate'));
  body.push(text(frame.left + frame.width / 2, height - 14, 'pages fetched', 'text-anchor="middle"'));
  return svgDocument(height, body);
}
