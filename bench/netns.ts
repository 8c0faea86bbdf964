// Workers on separate network stacks, as separate machines are: two worker processes, each in a network
// namespace of its own joined to this machine by a veth pair, crawl one test web against one PostgreSQL.
// Nothing is shared between them but the database: the web is served on extra addresses of this machine's
// loopback interface (10.232.0.0/24; a dummy interface would do, but sandboxed kernels may lack the module)
// that both namespaces route to, and PostgreSQL (which listens on 127.0.0.1 only here) is reached through a
// TCP relay on one of them. Prints where each request came from, and checks that the crawl completed, that both
// machines worked on it and that no URL was fetched twice. Needs root and iproute2 (`ip netns`); not part of
// the test suite. Everything it creates is removed at the end, or by `--cleanup` after an interrupted run.
// Args: --hosts 16  --pages-per-host 40  --latency-ms 20  --cleanup
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createConnection, createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { pino } from 'pino';
import { buildApp } from '../src/app.js';
import { isFinished } from '../src/crawler/vocabulary.js';
import { openRuntime } from '../src/runtime.js';
import type { CrawlCreated, CrawlStatus } from '../src/schemas/crawls.js';
import { stopProcess } from '../test/support/processes.js';
import {
  BENCHMARK_FEATURES,
  countDisallowedRequests,
  countRepeatedRequests,
  scopeOf,
  startTestWeb,
} from '../test/support/testweb/index.js';
import { numberArg } from './args.js';
import { benchTrawlConfig, dropBenchSchemas } from './peers/measure.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MACHINES = [1, 2];
/** Shared addresses on lo: .1 the PostgreSQL relay, .2 … the test web's hosts. */
const SHARED_NET = '10.232.0';
const SHARED_ADDRESSES = 255;
const RELAY_PORT = 15432;
const namespace = (machine: number) => `trawl-bench-w${machine}`;
const hostSide = (machine: number) => `tbw${machine}h`;
const machineAddress = (machine: number) => `10.231.${machine}.2`;

function ip(args: string[], options: { allowFailure?: boolean } = {}): void {
  const result = spawnSync('ip', args, { encoding: 'utf8' });
  if (result.status !== 0 && !options.allowFailure) {
    throw new Error(`ip ${args.join(' ')}: ${result.stderr.trim() || `exit ${result.status}`}`);
  }
}

function teardown(): void {
  for (const machine of MACHINES) {
    ip(['netns', 'del', namespace(machine)], { allowFailure: true });
    ip(['link', 'del', hostSide(machine)], { allowFailure: true });
  }
  const onLoopback = spawnSync('ip', ['-o', '-4', 'addr', 'show', 'dev', 'lo'], { encoding: 'utf8' }).stdout;
  for (const [address] of onLoopback.matchAll(
    new RegExp(`${SHARED_NET.replaceAll('.', '\\.')}\\.\\d+/32`, 'g'),
  )) {
    ip(['addr', 'del', address, 'dev', 'lo'], { allowFailure: true });
  }
}

/** The shared addresses, and per machine a namespace, a veth pair and a default route to this machine. */
function setup(hosts: number): void {
  if (hosts + 1 >= SHARED_ADDRESSES) throw new Error(`--hosts: at most ${SHARED_ADDRESSES - 2}`);
  for (let n = 1; n <= hosts + 1; n++) ip(['addr', 'add', `${SHARED_NET}.${n}/32`, 'dev', 'lo']);
  for (const machine of MACHINES) {
    const ns = namespace(machine);
    const inside = `tbw${machine}n`;
    ip(['netns', 'add', ns]);
    ip(['link', 'add', hostSide(machine), 'type', 'veth', 'peer', 'name', inside]);
    ip(['link', 'set', inside, 'netns', ns]);
    ip(['addr', 'add', `10.231.${machine}.1/30`, 'dev', hostSide(machine)]);
    ip(['link', 'set', hostSide(machine), 'up']);
    ip(['-n', ns, 'addr', 'add', `${machineAddress(machine)}/30`, 'dev', inside]);
    ip(['-n', ns, 'link', 'set', inside, 'up']);
    ip(['-n', ns, 'link', 'set', 'lo', 'up']);
    ip(['-n', ns, 'route', 'add', 'default', 'via', `10.231.${machine}.1`]);
  }
}

/** Forwards connections on the shared network to the PostgreSQL that listens on loopback only. */
function startRelay(): Promise<Server> {
  const relay = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: 5432 });
    client.pipe(upstream).pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close);
    upstream.on('error', close);
  });
  return new Promise((resolve, reject) => {
    relay.once('error', reject);
    relay.listen(RELAY_PORT, `${SHARED_NET}.1`, () => resolve(relay));
  });
}

function startWorker(
  machine: number,
  env: Record<string, string>,
): { child: ChildProcess; ready: Promise<void> } {
  const child = spawn(
    'ip',
    ['netns', 'exec', namespace(machine), process.execPath, '--import', 'tsx', 'src/worker.ts'],
    { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const ready = new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen = (seen + chunk.toString()).slice(-10_000);
      if (seen.includes('"msg":"worker started"')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`worker ${machine} exited (${code}) before it was ready`)));
  });
  return { child, ready };
}

export async function run(args: string[]): Promise<void> {
  if (args.includes('--cleanup')) {
    teardown();
    process.stdout.write('removed the namespaces, veth pairs and shared addresses (if any were left)\n');
    return;
  }
  if (process.getuid?.() !== 0) throw new Error('netns: needs root (ip netns, veth pairs)');
  const hosts = numberArg(args, '--hosts', 16);
  const pagesPerHost = numberArg(args, '--pages-per-host', 40);
  const latencyMs = numberArg(args, '--latency-ms', 20);
  teardown(); // a run cut short earlier may have left them
  setup(hosts);
  const workers: ChildProcess[] = [];
  const relay = await startRelay();
  const web = await startTestWeb({
    hosts,
    pagesPerHost,
    latencyMs,
    crawlDelaySeconds: 0,
    features: BENCHMARK_FEATURES,
    addresses: Array.from({ length: hosts }, (_, index) => `${SHARED_NET}.${index + 2}`),
    seed: 9,
  });
  const schema = `bench_netns_${randomBytes(4).toString('hex')}`;
  const localUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const config = benchTrawlConfig(localUrl, '', schema);
  const log = pino({ level: 'error' });
  const runtime = await openRuntime(config, log);
  const app = await buildApp({ runtime, logger: log });
  try {
    const remoteUrl = new URL(localUrl);
    remoteUrl.hostname = `${SHARED_NET}.1`;
    remoteUrl.port = String(RELAY_PORT);
    const started = MACHINES.map((machine) =>
      startWorker(machine, {
        DATABASE_URL: remoteUrl.toString(),
        REDIS_URL: '',
        DB_SCHEMA: schema,
        ALLOW_PRIVATE_NETWORKS: 'true',
        WORKER_CONCURRENCY: '1',
        LOG_LEVEL: 'info',
      }),
    );
    workers.push(...started.map((worker) => worker.child));
    await Promise.all(started.map((worker) => worker.ready));
    process.stdout.write(
      `two workers up in namespaces ${MACHINES.map(namespace).join(', ')} (${MACHINES.map(machineAddress).join(', ')}), ` +
        `PostgreSQL through ${SHARED_NET}.1:${RELAY_PORT}, the web on ${hosts} hosts at ${SHARED_NET}.2 … (${latencyMs} ms latency)\n`,
    );
    const startedAt = Date.now();
    const created = await app.inject({
      method: 'POST',
      url: '/v1/crawls',
      payload: {
        seeds: web.hosts.map((origin) => `${origin}/`),
        scope: scopeOf(web),
        maxPages: 1_000_000,
        workers: 2,
        concurrency: 64,
        politeness: { delayMs: 0, maxCrawlDelayMs: 0, perHostConcurrency: 2 },
        extract: { enabled: false },
      },
    });
    if (created.statusCode !== 202) throw new Error(`crawl refused: ${created.body}`);
    const { id } = created.json<CrawlCreated>();
    let status: CrawlStatus;
    for (;;) {
      status = (await app.inject({ method: 'GET', url: `/v1/crawls/${id}` })).json<CrawlStatus>();
      if (isFinished(status.status)) break;
      if (Date.now() - startedAt > 10 * 60_000) throw new Error(`crawl still ${status.status} after 10 min`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const byMachine = new Map<string, number>();
    for (const entry of web.log) byMachine.set(entry.from, (byMachine.get(entry.from) ?? 0) + 1);
    const repeated = countRepeatedRequests(web);
    const disallowed = countDisallowedRequests(web, 'trawl');
    process.stdout.write(
      `crawl ${status.status}: ${status.pagesFetched} pages in ${((Date.now() - startedAt) / 1000).toFixed(1)} s; ` +
        `requests by machine: ${[...byMachine].map(([from, count]) => `${from} ${count}`).join(', ')}; ` +
        `fetched twice ${repeated}, robots-disallowed fetched ${disallowed}\n`,
    );
    const bothWorked = MACHINES.every((machine) => (byMachine.get(machineAddress(machine)) ?? 0) > 0);
    const verdict = status.status === 'completed' && bothWorked && repeated === 0 && disallowed === 0;
    process.stdout.write(
      `${verdict ? 'met' : 'NOT met'}: completed, both machines fetched, nothing fetched twice, robots obeyed\n`,
    );
    if (!verdict) throw new Error('the two-machine crawl did not hold its guarantees');
  } finally {
    await Promise.all(workers.map((child) => stopProcess(child)));
    await app.close();
    await runtime.close();
    await web.close();
    relay.close();
    teardown();
    const cleanup = new pg.Client({ connectionString: localUrl });
    await cleanup.connect();
    await dropBenchSchemas(cleanup, schema);
    await cleanup.end();
  }
}
