// Memory of a process, and of a process and every process it started, read from /proc (Linux only). Chromium's
// browser process forks zygotes, and they fork the renderer, GPU and utility processes, so the browser's own
// figure is a small part of what rendering costs. PSS (each shared page divided among its sharers) is what the tree costs the
// machine; RSS summed counts the pages Chromium's processes share once per process, two to three times over.

import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

export interface TreeMemory {
  /** The root first, then its descendants (those alive while they were read). */
  pids: number[];
  rssBytes: number;
  /** RSS where smaps_rollup cannot be read (an older kernel): never less than the tree holds. */
  pssBytes: number;
}

/**
 * `rootPid` and its descendants; empty when the root is gone. Read synchronously: procfs answers a task's
 * children from kernel memory at once, while a round trip through libuv's pool per task (a browser has
 * dozens of threads) queues behind other I/O, and on a loaded machine the waits add up.
 */
export function processTree(rootPid: number): number[] {
  const tree: number[] = [];
  const stack = [rootPid];
  const seen = new Set<number>();
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    const children = childrenOf(pid);
    if (children === null) continue;
    tree.push(pid);
    stack.push(...children);
  }
  return tree;
}

/**
 * The tree's memory; null when the root is gone (or /proc cannot be read). smaps_rollup is read off the event
 * loop: the kernel walks the process's page tables for it, a few milliseconds for each of Chromium's.
 */
export async function processTreeMemory(rootPid: number): Promise<TreeMemory | null> {
  const pids = processTree(rootPid);
  if (pids.length === 0) return null;
  let rssKiB = 0;
  let pssKiB = 0;
  await Promise.all(
    pids.map(async (pid) => {
      const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
      // a process that ended since the tree was read counts nothing
      const rss = kiB(status, 'VmRSS');
      rssKiB += rss;
      const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8').catch(() => null);
      pssKiB += rollup === null ? rss : kiB(rollup, 'Pss');
    }),
  );
  return { pids, rssBytes: rssKiB * 1024, pssBytes: pssKiB * 1024 };
}

/** The children of every thread of `pid` (a child belongs to the thread that forked it); null: gone. */
function childrenOf(pid: number): number[] | null {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  const children: number[] = [];
  for (const task of tasks) {
    let text = '';
    try {
      text = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    } catch {
      // the thread ended while it was read
    }
    for (const word of text.split(' ')) if (/^\d+$/.test(word)) children.push(Number(word));
  }
  return children;
}

/** One process's resident set now and at its peak (VmRSS, VmHWM); null once it is gone or where /proc is not. */
export function residentMemory(pid: number): { rssBytes: number; peakBytes: number } | null {
  let status: string;
  try {
    // read synchronously: procfs answers from kernel memory in microseconds (see processTree)
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  return { rssBytes: kiB(status, 'VmRSS') * 1024, peakBytes: kiB(status, 'VmHWM') * 1024 };
}

function kiB(text: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}
