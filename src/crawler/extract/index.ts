// Main-content extraction (text density) and its evaluation; see extract.ts for the methods.
export { meanScore, shingleF1, type TokenScore, tokenF1 } from './evaluate.js';
export {
  DEFAULT_EXTRACTION_METHOD,
  DEFAULT_MAX_NODES,
  DEFAULT_TEXT_DENSITY_THRESHOLD,
  EXTRACTION_METHODS,
  type ExtractedContent,
  type ExtractionMethod,
  type ExtractOptions,
  extractMainContent,
  extractMainText,
  htmlToText,
  plainMainText,
} from './extract.js';
export { extractedMarkdown, htmlToMarkdown, pageMarkdown } from './markdown.js';
