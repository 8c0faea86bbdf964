// Latency probes for benchmarks that load the API and watch how it answers meanwhile: round trips of a GET,
// a short pause apart, and the summary every such bench prints.

/** Pause between two round trips of a probe. */
export const PROBE_EVERY_MS = 20;

/** Round trips of GET `url`, PROBE_EVERY_MS apart, until `stop` resolves; each one's ms and last JSON body. */
export async function probe<T>(
  url: string,
  stop: Promise<unknown>,
  onBody?: (body: T) => void,
): Promise<number[]> {
  const times: number[] = [];
  let done = false;
  void stop.finally(() => {
    done = true;
  });
  while (!done) {
    const started = performance.now();
    const response = await fetch(url);
    const body = await response.text();
    times.push(performance.now() - started);
    if (onBody && response.ok) onBody(JSON.parse(body) as T);
    await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
  }
  return times;
}

/** The value at percentile `p` (0–100) of ascending `sorted`; 0 for none. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** p50, p99 and the worst of round-trip times, as the benches print them. */
export function latencySummary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(1)}  p99 ${percentile(sorted, 99).toFixed(1)}  worst ${(sorted.at(-1) ?? 0).toFixed(0)} ms`;
}
