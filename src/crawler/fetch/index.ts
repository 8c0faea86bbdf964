// The crawler's fetch layer: one undici-based Fetcher, its SSRF guard and the charset decoding it uses.

export type { AddressGuard, AddressVerdict, LookupFunction } from './address-guard.js';
export {
  BlockedAddressError,
  createGuardedLookup,
  guardAllowing,
  guardedLookup,
  isBlockedAddress,
} from './address-guard.js';
export { BodyBudget, BudgetHold } from './body-budget.js';
export {
  charsetFromContentType,
  charsetFromDocument,
  decodeBody,
  encodeText,
  isDecodedAsText,
  mediaType,
} from './charset.js';
export type {
  FetchError,
  FetchErrorCode,
  FetcherOptions,
  FetchOptions,
  FetchResult,
  RedirectDecision,
  RetryOptions,
} from './fetcher.js';
export {
  blankFetchResult,
  classifyFault,
  Fetcher,
  fetcherGuard,
  REQUEST_HEADERS,
  retryAfterMs,
} from './fetcher.js';
