// Debian's Chromium for the browser tests (report.html, the dashboard), driven by playwright-core with the
// flags this machine needs (no sandbox as root, no background networking on a closed network). A missing
// Chromium skips the test with the reason, except under CI=true, where it fails (.ci/run installs it).
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { CHROMIUM_BASE_ARGS } from '../../src/crawler/render/chromium.js';

export const CHROMIUM = '/usr/bin/chromium';

export function skipWithoutChromium(): string | false {
  if (existsSync(CHROMIUM)) return false;
  if (process.env.CI === 'true') throw new Error(`CI=true and ${CHROMIUM} is missing (.ci/run installs it)`);
  return `${CHROMIUM} not installed (apt-get install -y chromium)`;
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_BASE_ARGS],
  });
}
