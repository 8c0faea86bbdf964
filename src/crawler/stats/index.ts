// Crawl statistics: word frequencies with Zipf's constant, and SVG plots for word ranks and timing distributions.
export {
  type DistributionPlotOptions,
  type DistributionSeries,
  distributionPlotSvg,
  type HarvestPoint,
  harvestPlotSvg,
  percentileCont,
  type RankFrequency,
  zipfPlotSvg,
} from './plot.js';
export { type RankedWord, WordCounter, type WordCounterJson } from './word-counter.js';
