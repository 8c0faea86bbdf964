// The renderer pool's share of a worker's memory (RENDER_MEMORY_BUDGET_BYTES): Chromium's processes are not in
// the body budget's count, yet a page's renderer process takes tens to hundreds of MiB and a long-lived browser
// grows. Before a page starts, the pool's memory (PSS of every browser's process tree) is compared with the
// budget: under it, the page renders; over it while other pages render, it waits for one of them to end
// (their renderer processes go with their contexts); over it with nothing rendering, the browser itself is
// the bloat, and it is replaced by a fresh one. A fresh browser over the budget on its own still renders (a
// budget below Chromium's own footprint renders one page per browser rather than none).

export type MemoryVerdict = 'render' | 'wait' | 'recycle';

export interface PoolMemoryState {
  /** The pool's memory now; null when it could not be read (no browser yet, no /proc). */
  usedBytes: number | null;
  /** 0: no budget. */
  budgetBytes: number;
  /** Pages rendering now, on any browser of the pool (a retiring one included). */
  pagesRendering: number;
  /** Pages the browser a new page would get has started so far (0: freshly launched). */
  pagesOnBrowser: number;
}

export function memoryVerdict(state: PoolMemoryState): MemoryVerdict {
  if (state.budgetBytes <= 0 || state.usedBytes === null || state.usedBytes <= state.budgetBytes)
    return 'render';
  if (state.pagesRendering > 0) return 'wait';
  return state.pagesOnBrowser === 0 ? 'render' : 'recycle';
}
