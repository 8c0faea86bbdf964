// The frontier's pure parts: ordering, URL identity, scope and link kind. The FrontierStore port and per-host
// politeness live beside them and are exported from here too when they land.
export {
  type CanonicalizeOptions,
  canonicalizeUrl,
  isTrackingParam,
  TRACKING_PARAM_PREFIX,
  TRACKING_PARAMS,
} from './canonicalize.js';
export {
  CrawlScope,
  type CrawlScopeSpec,
  type ScopeFields,
  type ScopeRejection,
  type ScopeVerdict,
  validateScope,
} from './scope.js';
export { classifyUrl, type DocumentType, documentTypeFor, pathExtension, type UrlKind } from './url-kind.js';
export {
  MAX_PATTERN_LENGTH,
  MAX_PATTERN_PROGRAM_SIZE,
  MAX_PATTERNS,
  UrlPatternList,
} from './url-patterns.js';
export { type WeightedItem, WeightedQueue } from './weighted-queue.js';
