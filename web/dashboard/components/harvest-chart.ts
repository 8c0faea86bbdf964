// The harvest rate of a focused crawl over time (relevant pages / pages fetched,
// docs/guide.md#focused-crawling): the report's series (GET /v1/crawls/:id/report, focused.harvestOverTime)
// to start from, then one point per progress event while the crawl runs. Drawn as SVG built with the DOM (no
// inline style: the CSP allows none).
import type { HarvestPoint } from '../../../src/crawler/stats/plot.js';
import { h, number } from '../dom.js';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 640;
const HEIGHT = 220;
const LEFT = 48;
const RIGHT = 16;
const TOP = 12;
const BOTTOM = 34;

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/** A chart that keeps its points (in order of pages fetched, one per count) and redraws when one is added. */
export class HarvestChart {
  readonly element: HTMLElement;
  readonly #figure: HTMLElement;
  #points: HarvestPoint[] = [];

  constructor() {
    this.#figure = h('div', { class: 'harvest-plot' });
    this.element = h(
      'section',
      { class: 'harvest', 'aria-label': 'harvest rate over time' },
      h('h3', {}, 'Harvest rate over time'),
      h('p', { class: 'muted' }, 'Relevant pages among the pages fetched so far.'),
      this.#figure,
    );
  }

  set(points: HarvestPoint[]): void {
    this.#points = [];
    for (const point of points) this.#insert(point);
    this.#draw();
  }

  add(point: HarvestPoint): void {
    if (this.#insert(point)) this.#draw();
  }

  #insert(point: HarvestPoint): boolean {
    if (point.pagesFetched <= 0) return false;
    const at = this.#points.findIndex((p) => p.pagesFetched >= point.pagesFetched);
    if (at >= 0 && this.#points[at]!.pagesFetched === point.pagesFetched) return false;
    if (at < 0) this.#points.push(point);
    else this.#points.splice(at, 0, point);
    return true;
  }

  #draw(): void {
    const points = this.#points;
    const last = points.at(-1);
    if (!last) {
      this.#figure.replaceChildren(h('p', { class: 'muted' }, 'No page fetched yet.'));
      return;
    }
    const maxPages = Math.max(last.pagesFetched, 1);
    const x = (pages: number) => LEFT + ((WIDTH - LEFT - RIGHT) * pages) / maxPages;
    const y = (rate: number) => TOP + (HEIGHT - TOP - BOTTOM) * (1 - rate);
    const chart = svg('svg', {
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      role: 'img',
      'aria-label': `harvest rate ${number(last.harvestRate * 100, 1)} % after ${number(last.pagesFetched)} pages fetched`,
    });
    for (const rate of [0, 0.25, 0.5, 0.75, 1]) {
      chart.append(
        svg('line', { class: 'grid', x1: LEFT, x2: WIDTH - RIGHT, y1: y(rate), y2: y(rate) }),
        svg('text', { class: 'tick', x: LEFT - 6, y: y(rate) + 4, 'text-anchor': 'end' }, `${rate * 100} %`),
      );
    }
    for (const pages of [0, Math.round(maxPages / 2), maxPages]) {
      chart.append(
        svg(
          'text',
          { class: 'tick', x: x(pages), y: HEIGHT - BOTTOM + 16, 'text-anchor': 'middle' },
          number(pages),
        ),
      );
    }
    chart.append(
      svg(
        'text',
        { class: 'tick', x: (LEFT + WIDTH - RIGHT) / 2, y: HEIGHT - 2, 'text-anchor': 'middle' },
        'pages fetched',
      ),
      svg('polyline', {
        class: 'series',
        points: points.map((p) => `${x(p.pagesFetched).toFixed(1)},${y(p.harvestRate).toFixed(1)}`).join(' '),
      }),
      svg('circle', { class: 'series-end', cx: x(last.pagesFetched), cy: y(last.harvestRate), r: 3.5 }),
    );
    this.#figure.replaceChildren(chart);
    this.#figure.dataset.points = String(points.length);
  }
}
