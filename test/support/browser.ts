// Debian's Chromium for the browser tests (report.html, the dashboard), driven by playwright-core with the
// flags this machine needs (no sandbox as root, no background networking on a closed network). A missing
// Chromium skips the test with the reason, except under CI=true, where it fails (.ci/run installs it).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM_BASE_ARGS } from '../../src/crawler/render/chromium.js';
import { processTree } from '../../src/crawler/render/process-memory.js';

export const CHROMIUM = '/usr/bin/chromium';

export function skipWithoutChromium(): string | false {
  if (existsSync(CHROMIUM)) return false;
  if (process.env.CI === 'true') throw new Error(`CI=true and ${CHROMIUM} is missing (.ci/run installs it)`);
  return `${CHROMIUM} not installed (apt-get install -y chromium)`;
}

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * Runs axe-core on what `page` shows and fails on any serious or critical violation, naming `view`. The page's
 * context needs `bypassCSP` for the script to be injected; the page itself runs under its own CSP.
 */
export async function assertAccessible(page: Page, view: string): Promise<void> {
  await page.addScriptTag({ path: AXE });
  const result = (await page.evaluate(() =>
    (
      globalThis as unknown as {
        axe: { run(): Promise<{ violations: Array<{ id: string; impact: string }> }> };
      }
    ).axe.run(),
  )) as { violations: Array<{ id: string; impact: string }> };
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    serious.map((v) => v.id),
    [],
    `${view}: accessibility violations`,
  );
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [...CHROMIUM_BASE_ARGS],
  });
}

/**
 * Chromium's processes under `rootPid` (this test process: the browsers its worker launched), of the type given:
 * `browser` for the browser processes themselves, else Chromium's --type (renderer, gpu-process, …). A child
 * Chromium forks rewrites its command line with spaces between its arguments.
 */
export async function chromiumProcesses(rootPid: number, type: string): Promise<number[]> {
  const found: number[] = [];
  for (const pid of processTree(rootPid)) {
    const args = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split(/[\0 ]/);
    if (!/chrom/.test(args[0] ?? '')) continue;
    const typeArg = args.find((arg) => arg.startsWith('--type='));
    if (type === 'browser' ? typeArg === undefined : typeArg === `--type=${type}`) found.push(pid);
  }
  return found;
}
