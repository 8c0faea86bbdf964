// The feature modules in build order. A new generator (a "topical web", say) is one more module here.

import type { FeatureModule } from '../site.js';
import { bigBinary, binaries } from './binaries.js';
import { canonicalization } from './canonicalization.js';
import { charsets } from './charsets.js';
import { documents } from './documents.js';
import { duplicates } from './duplicates.js';
import { errors } from './errors.js';
import { hostile } from './hostile.js';
import { images } from './images.js';
import { malformed } from './malformed.js';
import { nofollow } from './nofollow.js';
import { oversize } from './oversize.js';
import { redirects } from './redirects.js';
import { scripted } from './scripted.js';
import { sitemaps } from './sitemaps.js';
import { slow } from './slow.js';
import { trap } from './trap.js';

export { plainPages } from './plain.js';
export { robots } from './robots.js';

/** Run after the plain page tree and the robots probes, each only when its feature is on. */
export const FEATURE_MODULES: FeatureModule[] = [
  sitemaps,
  redirects,
  errors,
  duplicates,
  binaries,
  bigBinary,
  documents,
  charsets,
  malformed,
  slow,
  oversize,
  trap,
  canonicalization,
  nofollow,
  hostile,
  images,
  scripted,
];
