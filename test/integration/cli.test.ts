// The `trawl` command against the real API (the app the server runs, listening on a port, with its worker):
// JSON lines when piped, human text under a pseudo-terminal (`script`), the documented exit codes, problem
// details shown with the field and the flag, Ctrl-C from a script cancelling nothing, and `trawl keys`.
// Commands run in-process (trawlInProcess: main with captured streams) unless what is tested is the process
// itself: its exit status for each kind of code, a real SIGINT, a terminal. Those spawn the entry.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { build, textJobDone } from '../helper.js';
import { CHANGING_SITE_CHANGES, startChangingSite } from '../support/changing-site.js';
import { entryArgs, REPO_ROOT } from '../support/paths.js';
import { BENCHMARK_FEATURES, scopeOf, startTestWeb } from '../support/testweb/index.js';
import { trawlInProcess as trawl } from '../support/trawl-in-process.js';

const CLI = entryArgs('src/cli/trawl');

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a process to its end (bounded: a hang fails the test, it does not hold the file). */
function runProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  options: { onStdout?: (text: string, child: ChildProcess) => void } = {},
): Promise<Run> {
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    options.onStdout?.(stdout, child);
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const closed = Promise.all([once(child.stdout!, 'close'), once(child.stderr!, 'close')]);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not end in 120 s\n${stdout}\n${stderr}`));
    }, 120_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      // the pipes may still hold the last output
      closed.then(() => resolve({ code, signal, stdout, stderr }));
    });
  });
}

/** The CLI as a script runs it, as a process: stdout and stderr are pipes. */
function trawlProcess(
  args: string[],
  env: Record<string, string>,
  options: { onStdout?: (text: string, child: ChildProcess) => void } = {},
): Promise<Run> {
  return runProcess(process.execPath, [...CLI, ...args], env, options);
}

/** The CLI as a person at a terminal runs it: under a pseudo-terminal (util-linux `script`); what it showed. */
async function runInTerminal(args: string[], env: Record<string, string>): Promise<string> {
  const command = [process.execPath, ...CLI, ...args]
    .map((word) => `'${word.replaceAll("'", "'\\''")}'`)
    .join(' ');
  const run = await runProcess('script', ['-qec', command, '/dev/null'], { ...env, COLUMNS: '120' });
  assert.equal(run.code, 0, `${command}\n${run.stdout}${run.stderr}`);
  return run.stdout.replaceAll('\r', '');
}

function jsonLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

test('trawl recrawl --wait and trawl changes: what a recrawl found, as JSON lines and as a table', {
  timeout: 300_000,
}, async (t) => {
  const site = await startChangingSite();
  t.after(() => site.close());
  const { app } = await build(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  const env = { TRAWL_API: `http://127.0.0.1:${address.port}`, TRAWL_KEY: '' };
  const work = mkdtempSync(path.join(tmpdir(), 'trawl-cli-'));
  const requestFile = path.join(work, 'request.json');
  writeFileSync(requestFile, JSON.stringify({ politeness: { delayMs: 0, respectRobots: false } }));
  const crawled = await trawl(['crawl', `${site.origin}/`, '--request', requestFile, '--wait'], env);
  assert.equal(crawled.code, 0, crawled.stderr);
  const first = String(jsonLines(crawled.stdout)[0]!.id);
  await textJobDone(app, first);
  site.change();

  const recrawled = await trawl(['recrawl', first, '--wait'], env);
  assert.equal(recrawled.code, 0, recrawled.stderr);
  const lines = jsonLines(recrawled.stdout);
  const second = String(lines[0]!.id);
  const final = lines.at(-1)!;
  assert.equal(final.status, 'completed');
  assert.equal(final.recrawlOf, first);
  assert.deepEqual(final.changes, CHANGING_SITE_CHANGES);

  // piped: one JSON line per new, changed and gone page; --class one class, unchanged pages too
  const changed = await trawl(['changes', second], env);
  assert.equal(changed.code, 0, changed.stderr);
  const rows = jsonLines(changed.stdout);
  const { unchanged, ...changes } = CHANGING_SITE_CHANGES;
  assert.equal(rows.length, changes.new + changes.changed + changes.gone);
  assert.deepEqual(
    [...new Set(rows.map((row) => row.change))],
    ['new', 'changed', 'gone'],
    'grouped by class',
  );
  const same = await trawl(['changes', second, '--class', 'unchanged', '--json'], env);
  assert.equal(jsonLines(same.stdout).length, unchanged);
  assert.ok(jsonLines(same.stdout).every((row) => row.change === 'unchanged'));

  // a person at a terminal: the counts, then a table of the pages
  const table = await runInTerminal(['changes', second], env);
  assert.match(table, /changes\s+new 1 · changed 2 · unchanged 2 · gone 3/);
  assert.match(table, /CHANGE\s+ID\s+HTTP\s+TEXT\s+SIMILAR\s+TITLE\s+URL/);
  assert.match(table, /gone\s+\d+\s+410\s/);
  assert.match(table, /gone\s+\d+\s+moved\s.*\/museum-old/);
  const status = await runInTerminal(['status', second], env);
  assert.match(
    status,
    new RegExp(`changes\\s+new 1 · changed 2 · unchanged 2 · gone 3  \\(recrawl of ${first}\\)`),
  );

  // mistakes: a crawl that recrawls none, and an unknown crawl to recrawl (the field, with the argument)
  const notRecrawl = await trawl(['changes', first], env);
  assert.equal(notRecrawl.code, 2);
  assert.match(notRecrawl.stderr, /is not a recrawl/);
  const unknown = await trawl(['recrawl', '00000000-0000-4000-8000-000000000000'], env);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /recrawl\.of \(<id>\)/);
});

test('trawl: crawl --wait, status, pages, cancel, rank, score, extract and keys against the real API', {
  timeout: 300_000,
}, async (t) => {
  const web = await startTestWeb({ seed: 7, hosts: 1, pagesPerHost: 12, features: BENCHMARK_FEATURES });
  t.after(() => web.close());
  const { app, config } = await build(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  const env = { TRAWL_API: `http://127.0.0.1:${address.port}`, TRAWL_KEY: '' };
  const work = mkdtempSync(path.join(tmpdir(), 'trawl-cli-'));
  const requestFile = path.join(work, 'request.json');
  writeFileSync(
    requestFile,
    JSON.stringify({ scope: scopeOf(web), politeness: { delayMs: 0, maxCrawlDelayMs: 0 } }),
  );

  let id = '';
  await t.test('crawl --wait piped: JSON lines, the last one the final status; exit 0', async () => {
    const run = await trawl(
      ['crawl', web.seeds[0]!, '--max-pages', '10', '--request', requestFile, '--wait'],
      env,
    );
    assert.equal(run.code, 0, run.stderr);
    const lines = jsonLines(run.stdout);
    id = String(lines[0]!.id);
    assert.match(id, /^[0-9a-f-]{36}$/);
    const final = lines.at(-1)!;
    assert.equal(final.status, 'completed');
    const api = (await app.inject({ method: 'GET', url: `/v1/crawls/${id}` })).json();
    assert.deepEqual(final.counts, api.counts);
    assert.equal(final.pagesFetched, api.pagesFetched);
    assert.ok(lines.slice(1, -1).every((line) => line.event === 'progress'));
  });

  await t.test('status and pages, piped and with --json', async () => {
    const status = await trawl(['status', id], env);
    assert.equal(status.code, 0, status.stderr);
    assert.equal(JSON.parse(status.stdout).id, id);
    const api = (await app.inject({ method: 'GET', url: `/v1/crawls/${id}` })).json();
    const five = await trawl(['pages', id, '--limit', '5'], env);
    assert.equal(jsonLines(five.stdout).length, Math.min(5, api.pagesFetched));
    // --limit 2 per request page would need the cursor: --all follows it to the end
    // the whole crawl into a file, as CSV
    const file = path.join(work, 'pages.csv');
    const exported = await trawl(['export', id, '--format', 'csv', '-o', file], env);
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(JSON.parse(exported.stdout).format, 'csv');
    const csvLines = readFileSync(file, 'utf8').trimEnd().split('\r\n');
    assert.match(csvLines[0]!, /^id,url,/);
    assert.equal(csvLines.length - 1, api.pagesFetched + api.counts.DISALLOWED + api.counts.FRONTIER);
    const html = await trawl(['pages', id, '--type', 'HTML', '--all', '--json'], env);
    const rows = jsonLines(html.stdout);
    assert.equal(rows.length, api.counts.HTML);
    assert.ok(rows.every((row) => row.type === 'HTML'));
  });

  await t.test('human output under a terminal', async () => {
    const run = await runInTerminal(['status', id], env);
    assert.match(run, new RegExp(`crawl ${id}\\s+COMPLETED`));
    assert.match(run, /pages\s+\d+ fetched/);
    const pages = await runInTerminal(['pages', id, '--limit', '3'], env);
    assert.match(pages, /ID\s+TYPE\s+HTTP\s+SCORE\s+TITLE\s+URL/);
    // a finished crawl's summary ends with its link graph's structure figures
    const watched = await runInTerminal(['watch', id], env);
    assert.match(watched, /graph\s+\d+ nodes and \d+ links; average degree [\d.]+/);
    assert.match(watched, /clustering average [\d.]+, transitivity [\d.]+/);
  });

  await t.test(
    'mistakes: problem detail with field and flag (2), usage (2), API unreachable (3)',
    async () => {
      const refused = await trawl(['crawl', 'ftp://x'], env);
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /seeds\[0\]/);
      assert.match(refused.stderr, /HTTP 400/);
      const tooMany = await trawl(['crawl', web.seeds[0]!, '--max-pages', '0'], env);
      assert.equal(tooMany.code, 2);
      assert.match(tooMany.stderr, /maxPages \(--max-pages\): must be >= 1 \[HTTP 400\]/);
      // the exit status of the process, for a usage error and an API out of reach
      const usage = await trawlProcess(['crawl', web.seeds[0]!, '--max-pages', 'many'], env);
      assert.equal(usage.code, 2);
      assert.match(usage.stderr, /--max-pages takes a whole number/);
      const missing = await trawl(['status', '00000000-0000-4000-8000-000000000000'], env);
      assert.equal(missing.code, 2);
      assert.match(missing.stderr, /HTTP 404/);
      const down = await trawlProcess(['status', id], { ...env, TRAWL_API: 'http://127.0.0.1:1' });
      assert.equal(down.code, 3);
      assert.match(down.stderr, /cannot reach the trawl API/);
    },
  );

  await t.test('Ctrl-C with stdin not a terminal cancels nothing (130); cancel and watch (1)', async () => {
    const slowRequest = path.join(work, 'slow.json');
    writeFileSync(slowRequest, JSON.stringify({ scope: scopeOf(web), politeness: { delayMs: 2000 } }));
    let interrupted = false;
    const run = await trawlProcess(['crawl', web.seeds[0]!, '--request', slowRequest, '--wait'], env, {
      onStdout: (text, child) => {
        // the first progress line: the crawl is being watched
        if (!interrupted && text.includes('"event":"progress"')) {
          interrupted = true;
          child.kill('SIGINT');
        }
      },
    });
    assert.equal(run.code, 130, run.stderr);
    const slowId = String(jsonLines(run.stdout)[0]!.id);
    const status = (await app.inject({ method: 'GET', url: `/v1/crawls/${slowId}` })).json();
    assert.ok(['queued', 'running'].includes(status.status), `still going: ${status.status}`);
    const cancel = await trawl(['cancel', slowId], env);
    assert.equal(cancel.code, 0, cancel.stderr);
    assert.equal(JSON.parse(cancel.stdout).status, 'cancelled');
    // the exit status of the process for a crawl that did not complete
    const watch = await trawlProcess(['watch', slowId], env);
    assert.equal(watch.code, 1);
    assert.equal(jsonLines(watch.stdout).at(-1)!.status, 'cancelled');
  });

  const edges = path.join(work, 'edges.txt');
  writeFileSync(edges, '3\na b\nb c\nc a\na c\n');
  await t.test('rank, score and extract', async () => {
    const rank = await trawl(['rank', edges, '--top-k', '2'], env);
    assert.equal(rank.code, 0, rank.stderr);
    const ranking = JSON.parse(rank.stdout);
    assert.equal(ranking.vertices, 3);
    assert.equal(ranking.top.pageRank.length, 2);
    const page = path.join(work, 'page.html');
    writeFileSync(
      page,
      '<html><head><title>Cats</title></head><body><nav><a href="/">home</a></nav><article><p>Cats purr when they are content, and they sleep for most of the day in warm places.</p><p>A cat grooms itself often.</p></article></body></html>',
    );
    const extract = await trawl(['extract', page, '--json'], env);
    assert.equal(extract.code, 0, extract.stderr);
    assert.equal(JSON.parse(extract.stdout).title, 'Cats');
    const markdown = await trawl(['extract', page, '--markdown', '--json'], env);
    assert.equal(markdown.code, 0, markdown.stderr);
    assert.match(JSON.parse(markdown.stdout).markdown, /Cats purr/);
    const text = path.join(work, 'doc.txt');
    writeFileSync(text, 'cats purr and sleep');
    const score = await trawl(['score', text, page, '--query', 'cats purr'], env);
    assert.equal(score.code, 0, score.stderr);
    assert.equal(JSON.parse(score.stdout).scorer, 'keyword');
    const both = await trawl(['score', text], env);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /exactly one of --query and --similar/);
  });

  await t.test('keys: create prints the key alone; then the API wants it', async () => {
    const dbEnv = { ...env, DATABASE_URL: config.databaseUrl!, DB_SCHEMA: config.dbSchema };
    const created = await trawl(['keys', 'create', '--name', 'cli-test'], dbEnv);
    assert.equal(created.code, 0, created.stderr);
    const key = created.stdout.trim();
    assert.match(key, /^trawl_\S+$/);
    const listed = await trawl(['keys', 'list'], dbEnv);
    assert.match(listed.stdout, /cli-test/);
    const refused = await trawl(['status', id], env);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /HTTP 401/);
    // with the key the API answers (crawls made in open mode belong to no key, so it reads a new one)
    const allowed = await trawl(['rank', edges, '--key', key], env);
    assert.equal(allowed.code, 0, allowed.stderr);
  });
});
