// Whose turn it is to send a request to a host (docs/reference.md#politeness). Every request to a host (a
// page, each redirect hop, robots.txt, a sitemap) is sent holding one of the host's politeness slots, which
// every runner of the crawl shares through the store, and at least the host's delay after the request before
// it. A runner never waits for a slot while it holds one, so runners trading hosts cannot deadlock.
import { setTimeout as sleep } from 'node:timers/promises';
import type { CrawlStore } from './ports.js';

/** A politeness slot held for the request in progress, and the delay its host asks for. */
export interface HeldSlot {
  siteId: number;
  slot: number;
  delayMs: number;
}

export interface HostTurnsOptions {
  store: Pick<CrawlStore, 'leaseHostSlot' | 'releaseHostSlot'>;
  workerId: string;
  leaseSecs: number;
  /** Cuts every wait short: the runner halts. */
  signal: AbortSignal;
  /** The delay a host waits after a request whose own delay is not known (the crawl's politeness.delayMs). */
  minDelayMs: number;
  /** Told when a slot is freed, so the claim loop may look again. */
  onRelease?: () => void;
}

const POLL_MS = { min: 20, max: 1000, unknown: 100 };

export class HostTurns {
  readonly #options: HostTurnsOptions;
  /** Slots this runner holds now, counted by site. */
  readonly #held = new Map<number, number>();
  /** When this runner last sent a request to each origin (ms): the next one under the same slot waits after it. */
  readonly #lastRequestAtMs = new Map<string, number>();

  constructor(options: HostTurnsOptions) {
    this.#options = options;
  }

  /** Whether this runner holds one of the site's slots now. */
  holds(siteId: number): boolean {
    return (this.#held.get(siteId) ?? 0) > 0;
  }

  /** A slot of the site is held by this runner (a claimed page's, or one leased here). */
  hold(siteId: number): void {
    this.#held.set(siteId, (this.#held.get(siteId) ?? 0) + 1);
  }

  /** A slot of the site this runner held is given back. */
  unhold(siteId: number): void {
    const count = (this.#held.get(siteId) ?? 0) - 1;
    if (count > 0) this.#held.set(siteId, count);
    else this.#held.delete(siteId);
  }

  /** A request to `origin` was just answered. */
  requestSent(origin: string): void {
    this.#lastRequestAtMs.set(origin, Date.now());
  }

  /** Waits until `delayMs` after this runner's last request to `origin` (none: no wait). */
  async paceAfterLastRequest(origin: string, delayMs: number): Promise<void> {
    await this.pause((this.#lastRequestAtMs.get(origin) ?? 0) + delayMs - Date.now());
  }

  /** Sleeps `ms` (nothing when ≤ 0); cut short when the runner halts. */
  async pause(ms: number): Promise<void> {
    if (ms <= 0) return;
    await sleep(ms, undefined, { signal: this.#options.signal }).catch(() => {});
  }

  /**
   * Sends `request` in a turn of the site's: with one of its slots leased (waiting until one is free and its
   * delay has passed), then frees the slot for the delay `request` reports (null: no request was sent).
   * `shareHeld`: a slot this runner already holds will do; robots.txt is read under the slot of the page
   * that waits for it. `meanwhile`, asked while no slot is free: a value that makes the request needless
   * (robots.txt another runner stored). Throws when the runner halts before its turn.
   */
  async withTurn<T>(
    siteId: number,
    origin: string,
    request: () => Promise<{ value: T; delayMs: number | null }>,
    { shareHeld = false, meanwhile }: { shareHeld?: boolean; meanwhile?: () => Promise<T | null> } = {},
  ): Promise<T> {
    const slot = await this.#lease(siteId, shareHeld, meanwhile);
    if (typeof slot === 'object') return slot.value;
    if (slot === 'held') {
      const { value, delayMs } = await request();
      if (delayMs !== null) this.requestSent(origin);
      return value;
    }
    this.hold(siteId);
    let delayMs: number | null = this.#options.minDelayMs;
    try {
      const answered = await request();
      delayMs = answered.delayMs;
      if (delayMs !== null) this.requestSent(origin);
      return answered.value;
    } finally {
      await this.#release(siteId, slot, delayMs ?? 0);
    }
  }

  /**
   * A redirect hop is a request like any other. To the same host, the slot held is kept and the hop waits
   * the delay after the response that redirected; to another host, the slot held is freed first and a slot
   * of the new host is leased when its delay has passed. `delayOf` is the new host's delay, asked once its
   * slot is held (its robots.txt may be read under it); the hop then waits that long after this runner's
   * last request there. When the runner halts first, no slot is held.
   */
  async awaitHopTurn(
    held: { current: HeldSlot | null },
    siteId: number,
    origin: string,
    delayOf: () => Promise<number>,
  ): Promise<void> {
    const current = held.current;
    if (current && current.siteId === siteId) {
      await this.pause(current.delayMs);
      return;
    }
    if (current) {
      held.current = null;
      await this.#release(current.siteId, current.slot, current.delayMs);
    }
    const slot = await this.#lease(siteId, false).catch(() => null);
    if (typeof slot !== 'number') return;
    this.hold(siteId);
    held.current = { siteId, slot, delayMs: this.#options.minDelayMs };
    const delayMs = await delayOf();
    held.current.delayMs = delayMs;
    await this.paceAfterLastRequest(origin, delayMs);
  }

  /**
   * A turn of another host for a redirect hop taken while a slot is already held (robots.txt moving from
   * http to https): waits at most `maxWaitMs`, since whoever holds that host's slot might be waiting for
   * ours. Returns the slot leased (give it back with `release` once the request is over), or null.
   */
  async leaseWithin(siteId: number, maxWaitMs: number): Promise<number | null> {
    const { store, workerId, leaseSecs } = this.#options;
    const giveUpAtMs = Date.now() + maxWaitMs;
    while (!this.#options.signal.aborted) {
      const lease = await store.leaseHostSlot(siteId, workerId, leaseSecs);
      if (lease.slot !== null) {
        this.hold(siteId);
        return lease.slot;
      }
      const waitMs = Math.min(POLL_MS.max, Math.max(POLL_MS.min, lease.retryInMs ?? POLL_MS.unknown));
      if (Date.now() + waitMs > giveUpAtMs) return null;
      await this.pause(waitMs);
    }
    return null;
  }

  /** Gives back a slot leased with `leaseWithin`: the host may be asked again after `delayMs`. */
  async release(siteId: number, slot: number, delayMs: number): Promise<void> {
    await this.#release(siteId, slot, delayMs);
  }

  /**
   * A slot of the site, once one is free and its delay has passed ('held': one this runner holds will do),
   * or what `meanwhile` found while waiting.
   */
  async #lease<T>(
    siteId: number,
    shareHeld: boolean,
    meanwhile?: () => Promise<T | null>,
  ): Promise<number | 'held' | { value: T }> {
    const { store, workerId, leaseSecs, signal } = this.#options;
    if (siteId < 0) throw new Error('no site row for the host');
    for (;;) {
      if (signal.aborted) throw new Error('aborted while waiting for the host’s turn');
      if (shareHeld && this.holds(siteId)) return 'held';
      const lease = await store.leaseHostSlot(siteId, workerId, leaseSecs);
      if (lease.slot !== null) return lease.slot;
      const found = meanwhile ? await meanwhile() : null;
      if (found !== null) return { value: found };
      await this.pause(Math.min(POLL_MS.max, Math.max(POLL_MS.min, lease.retryInMs ?? POLL_MS.unknown)));
    }
  }

  async #release(siteId: number, slot: number, delayMs: number): Promise<void> {
    this.unhold(siteId);
    await this.#options.store.releaseHostSlot(siteId, slot, delayMs);
    this.#options.onRelease?.();
  }
}
