// GET /v1/crawls/:id/stats/…: word statistics of a crawl's main text (docs/reference.md#word-statistics) and its SVG plots.
import { type Static, Type } from 'typebox';
import { Defaulted } from './common.js';

export const WordStatsQuery = Type.Object(
  {
    top: Defaulted(
      Type.Integer({ minimum: 0, maximum: 10_000, default: 100, description: 'how many words to list' }),
    ),
  },
  { additionalProperties: false },
);
export type WordStatsQuery = Static<typeof WordStatsQuery>;

export const WordPlotQuery = Type.Object(
  {
    top: Defaulted(
      Type.Integer({ minimum: 1, maximum: 10_000, default: 1000, description: 'how many ranks to plot' }),
    ),
  },
  { additionalProperties: false },
);
export type WordPlotQuery = Static<typeof WordPlotQuery>;

export const RankedWord = Type.Object({
  word: Type.String(),
  rank: Type.Integer({ minimum: 1, description: '1-based; equal frequencies ranked alphabetically' }),
  frequency: Type.Integer({ minimum: 1 }),
  zipf: Type.Number({ description: 'rank · frequency / totalWords (about 0.1 for English)' }),
});
export type RankedWord = Static<typeof RankedWord>;

export const WordStats = Type.Object(
  {
    totalWords: Type.Integer(),
    distinctWords: Type.Integer(),
    pagesCounted: Type.Integer({
      description: 'HTML pages and documents whose main text is counted so far',
    }),
    htmlPages: Type.Integer({ description: 'HTML pages of the crawl so far (text/plain pages among them)' }),
    documentPages: Type.Integer({
      description: 'documents (PDF, DOCX, PPTX, ODT) of the crawl whose text was read, so far',
    }),
    pagesFailed: Type.Integer({
      description: 'HTML pages that could not be counted (an unreadable body, an internal fault)',
    }),
    failedPages: Type.Array(Type.Object({ pageId: Type.Integer(), error: Type.String() }), {
      description: 'the first 100 of those pages by id, each with the reason',
    }),
    complete: Type.Boolean({
      description:
        'the crawl has ended and every stored HTML page is counted or failed; while false a job is counting the rest',
    }),
    method: Type.String({ description: 'the extraction method that produced the main text' }),
    words: Type.Array(RankedWord),
  },
  { $id: 'WordStats' },
);
export type WordStats = Static<typeof WordStats>;

export const SvgResponse = {
  200: {
    description: 'an SVG image',
    content: { 'image/svg+xml': { schema: Type.String() } },
  },
};
