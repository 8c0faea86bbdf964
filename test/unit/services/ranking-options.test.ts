// The ranking options' defaults have one home (ANALYSIS_DEFAULTS and DEFAULT_EDGE_POLICY in crawler/rank):
// the schema shows them, normalizeRankingOptions fills them, and the analysis runs with them when not given.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Value } from 'typebox/value';
import { ANALYSIS_DEFAULTS, DEFAULT_EDGE_POLICY } from '../../../src/crawler/rank/index.js';
import { RankingOptions } from '../../../src/schemas/rankings.js';
import { normalizeRankingOptions } from '../../../src/services/use-cases/rankings.js';

test("the schema's defaults are the ones normalizeRankingOptions fills in", () => {
  const bySchema = Value.Default(RankingOptions, {}) as RankingOptions;
  assert.deepEqual(normalizeRankingOptions(bySchema), normalizeRankingOptions({}));
  assert.deepEqual(normalizeRankingOptions({}), {
    ...ANALYSIS_DEFAULTS,
    personalization: null,
    selfLoops: DEFAULT_EDGE_POLICY,
    duplicateEdges: DEFAULT_EDGE_POLICY,
  });
});
