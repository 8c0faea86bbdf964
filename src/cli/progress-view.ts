// How a running crawl or a download looks: on a terminal a progress bar redrawn in place (cli-progress), when
// piped or with --json one JSON line per progress event, so scripts read the same numbers people see.
import cliProgress from 'cli-progress';
import type { ProgressEvent } from '../schemas/live.js';
import type { CliOutput } from './io.js';

// a CommonJS package: its named exports are read off the default one
const { Format, SingleBar } = cliProgress;

export interface ProgressView {
  update(progress: ProgressEvent): void;
  stop(): void;
}

/**
 * Pages fetched against the crawl's page budget (`maxPages`), pages/s, frontier and, for focused crawls,
 * the harvest rate. The ETA is shown only where it is knowable: a rate above zero and a budget; a crawl
 * whose frontier runs dry ends sooner than the budget says.
 */
export function crawlProgressView(
  options: { tty: boolean; maxPages: number | undefined; stream: CliOutput },
  write: (line: string) => void,
): ProgressView {
  if (!options.tty) {
    return { update: (progress) => write(JSON.stringify({ event: 'progress', ...progress })), stop() {} };
  }
  const total = options.maxPages ?? 0;
  const bar = new SingleBar({
    format: (settings, params, payload: Payload) => {
      const bar = total ? `${Format.BarFormat(params.progress, settings)} ` : '';
      const pages = total ? `${params.value}/${total}` : `${params.value}`;
      const harvest = payload.harvest ? ` · harvest ${payload.harvest}` : '';
      const eta =
        total && params.eta > 0 && Number.isFinite(params.eta)
          ? ` · ETA ${Format.TimeFormat(params.eta, settings, 1)}`
          : '';
      return `${bar}${pages} pages · ${payload.rate} p/s · frontier ${payload.frontier}${harvest} · ${payload.status}${eta}`;
    },
    barsize: 24,
    barCompleteChar: '\u2588',
    barIncompleteChar: '\u2591',
    hideCursor: true,
    clearOnComplete: false,
    etaBuffer: 20,
    stream: options.stream,
  });
  let started = false;
  return {
    update(progress) {
      const payload: Payload = {
        rate: progress.pagesPerSecond.toFixed(1),
        frontier: progress.frontier,
        harvest:
          progress.harvestRate === undefined
            ? ''
            : `${(progress.harvestRate * 100).toFixed(0)}% (${progress.relevantPages ?? 0})`,
        status: progress.status,
      };
      if (!started) {
        bar.start(Math.max(total, progress.pagesFetched), progress.pagesFetched, payload);
        started = true;
      } else {
        if (progress.pagesFetched > bar.getTotal()) bar.setTotal(progress.pagesFetched);
        bar.update(progress.pagesFetched, payload);
      }
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

interface Payload {
  rate: string;
  frontier: number;
  harvest: string;
  status: string;
}

/** Bytes written so far, their rate, and the total when the server announced one. */
export function byteProgressView(
  tty: boolean,
  stream: CliOutput,
): { update(bytes: number): void; stop(): void } {
  if (!tty) return { update() {}, stop() {} };
  const started = Date.now();
  let last = 0;
  let shown = 0;
  const draw = (bytes: number) => {
    const seconds = Math.max((Date.now() - started) / 1000, 0.001);
    stream.write(`\r\x1b[2K${formatBytes(bytes)} · ${formatBytes(bytes / seconds)}/s`);
  };
  return {
    update(bytes) {
      last = bytes;
      if (Date.now() - shown < 100) return;
      shown = Date.now();
      draw(bytes);
    },
    stop() {
      draw(last);
      stream.write('\n');
    },
  };
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
