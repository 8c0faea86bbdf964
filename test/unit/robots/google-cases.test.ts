// Every allow/disallow case of Google's robots.txt test suite (shared/data/robotstxt) through RobotsPolicy.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { RobotsPolicy, robotsUrlFor } from '../../../src/crawler/robots/policy.js';
import { sharedDataPath, skipWithoutSharedData } from '../../support/shared-data.js';

const casesPath = sharedDataPath('robotstxt/google-robots-cases.json');

interface RobotsCase {
  name: string;
  robotstxt: string;
  useragent: string;
  url: string;
  allowed: boolean;
}

/**
 * Cases where we knowingly differ from Google, with the reason. Only GoogleOnly_ cases may be here.
 */
const KNOWN_DEVIATIONS: Record<string, string> = {
  'RobotsUnittest.GoogleOnly_AcceptUserAgentUpToFirstSpace#2 (robots_test.cc:247)':
    'Google is handed the bare string "Foo Bar" and, as it is no valid product token, applies the global group. ' +
    'Our isAllowed takes a full User-Agent header by contract and matches by its product token ("Foo"), ' +
    'so the "Foo" group applies and /x/y is allowed.',
};

test('google/robotstxt cases: every ID_ case passes, GoogleOnly_ deviations are the documented ones', {
  skip: skipWithoutSharedData(['robotstxt/google-robots-cases.json']),
}, (t) => {
  const cases = JSON.parse(readFileSync(casesPath, 'utf8')) as RobotsCase[];
  assert.ok(cases.length >= 100, `expected the full case list, got ${cases.length}`);
  const tally = new Map<string, { pass: number; total: number }>();
  const failures: string[] = [];
  for (const c of cases) {
    const prefix = c.name.match(/\.(ID|GoogleOnly)_/)?.[1] ?? 'other';
    // Google's matcher looks at the path only; our policy is per origin, so each case gets its URL's file.
    const robotsUrl = URL.canParse(c.url) ? robotsUrlFor(c.url) : 'http://foo.bar/robots.txt';
    const allowed = RobotsPolicy.from(robotsUrl, { status: 200, body: c.robotstxt }).isAllowed(
      c.url,
      c.useragent,
    );
    const entry = tally.get(prefix) ?? { pass: 0, total: 0 };
    entry.total++;
    if (allowed === c.allowed) entry.pass++;
    else failures.push(c.name);
    tally.set(prefix, entry);
  }
  for (const [prefix, { pass, total }] of tally) t.diagnostic(`${prefix}_: ${pass}/${total} pass`);

  const idFailures = failures.filter((name) => name.includes('.ID_'));
  assert.deepEqual(idFailures, [], 'every RFC (ID_) case must pass');
  assert.deepEqual(
    failures.sort(),
    Object.keys(KNOWN_DEVIATIONS).sort(),
    'deviations must be exactly the documented ones',
  );
  assert.equal(tally.get('ID')?.total !== undefined && tally.get('ID')!.total > 0, true);
});
