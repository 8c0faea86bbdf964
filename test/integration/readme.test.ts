// Keeps the README and the docs honest: starts the real server (src/server.ts) and runs every example of every
// shell block that holds a `curl` or `npx trawl` command, in README.md and in each docs/*.md (DOCS: the README
// first, then docs/ by name), file by file and in each file's order, against it.
//
// The rules, so that no example escapes unnoticed:
// - Each such block is cut into commands as bash reads them (`\` continuations, quoted JSON over several
//   lines, here-documents); full-line comments are not commands, and one that starts `# →` (with the lines
//   indented after it) shows the answer of the command before it.
// - A command runs verbatim in bash, with the ids the docs name as shell variables (CRAWL, PAGE, CORPUS,
//   RANKING, SCHEDULE) set to the latest of their kind made by an earlier command of the same file, as a reader
//   of that file sets them: a `POST /v1/crawls` (or `npx trawl crawl`) sets CRAWL, a list of pages sets PAGE to
//   its first page, a `POST /v1/corpora` CORPUS, a ranking made RANKING, a `POST /v1/schedules` SCHEDULE. So
//   each file makes the crawl its own examples read. A command naming $CRAWL (or $CORPUS) runs once that crawl
//   (or corpus) has ended, so what it reads is settled.
// - `localhost:3000` is the test's server; the docs' web addresses are mapped onto the loopback test web
//   (WEB below), whose SSRF guard is lifted explicitly (ALLOW_PRIVATE_NETWORKS); files a command reads (an
//   edges file) are written in the temporary directory the commands run in, where they write theirs too.
// - Issuing the first API key closes the service, so the commands that use one ($TRAWL_KEY, $ADMIN_KEY) and
//   the `npm run keys` lines that make them run last, file by file in their order, after every open command
//   of every file; a key cannot read the crawls made while the service ran open, so a file's keyed commands
//   that name $CRAWL need a crawl made with the key before them.
// - A command passes when it answers 2xx (or exits 0), or what EXPECTED says, or the `→ 4xx` its comment
//   shows; where that comment shows JSON, the answer has its shape (its keys, objects and arrays, and values
//   of the types shown; the values themselves are not compared, and `…` is anything), and a `"key":` in the
//   command's own comment is a field of the answer. A file it writes (`> file`, `-o file`) must be there, in
//   its format.
// - SKIPPED lists, each with why, the commands that are not run; every other command runs, and the count of
//   commands run in each file is pinned (RUN_COUNT), so a new example cannot slip by and a lost one is noticed.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { isFinished } from '../../src/crawler/vocabulary.js';
import { dropSchema, eventually, TEST_DATABASE_URL } from '../helper.js';
import { entryArgs, REPO_ROOT } from '../support/paths.js';
import { stopProcess } from '../support/processes.js';
import { BENCHMARK_FEATURES, startTestWeb } from '../support/testweb/index.js';

const run = promisify(execFile);
const ROOT = REPO_ROOT;

/** The files whose examples run, in this order: the README, then docs/ by name. */
const DOCS = [
  'README.md',
  ...readdirSync(`${ROOT}docs/`)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

/**
 * How many commands this test runs in each file (a file with none is not listed); a new example (or a lost
 * one) changes it on purpose.
 */
const RUN_COUNT: Record<string, number> = {
  'README.md': 6,
  'docs/guide.md': 74,
  'docs/operations.md': 14,
};

/** Commands not run, by how they start, each with why. Each must still be in one of DOCS. */
const SKIPPED: Record<string, string> = {
  'METRICS_PORT=9464 npm run worker &':
    'deployment: starts a worker process of its own (test/routes/metrics.test.ts covers METRICS_PORT of a worker)',
  'curl -s localhost:9464/metrics': 'asks the worker process the line before starts',
  'npm run keys -- revoke trawl_AbCd1234': 'an example prefix, not a key this run made',
};

/** Commands whose right answer is not a success, each with why. Each must match a command of DOCS. */
const EXPECTED: { match: RegExp; status: number; why: string }[] = [
  {
    match: /^curl -s -X DELETE localhost:3000\/v1\/crawls\/\$CRAWL/,
    status: 409,
    why: 'the crawl has ended by then: cancelling it is the 409 the guide says',
  },
  {
    match: /"render":\{/,
    status: 422,
    why: 'the test server finds no Chromium (CHROMIUM_PATH points nowhere), the 422 the guide says; rendering itself is the render tests’ work',
  },
  {
    match: /^npx trawl cancel /,
    status: 2,
    why: 'exit 2: the crawl has ended, the API’s 409',
  },
];

export interface ReadmeCommand {
  /** The command as bash reads it (continuation lines and here-documents included). */
  text: string;
  /** The file it is in (README.md, docs/…), as DOCS names it. */
  file: string;
  /** The line of its first line in that file. */
  line: number;
  /** The comment on its own lines. */
  note: string;
  /** The `# → …` comment after it: what its file shows of its answer. */
  shown: string;
}

/** Every command of every bash/sh block of `readme` (the text of `file`) that holds a curl or npx trawl command. */
export function readmeCommands(readme: string, file = 'README.md'): ReadmeCommand[] {
  const lines = readme.split('\n');
  const commands: ReadmeCommand[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (!/^```(bash|sh)\s*$/.test(lines[index]!)) continue;
    const start = index + 1;
    let end = start;
    while (end < lines.length && !lines[end]!.startsWith('```')) end++;
    const block = lines.slice(start, end);
    index = end;
    if (!block.some((line) => /^\s*(curl |npx trawl )/.test(line) || / curl /.test(line))) continue;
    let current: ReadmeCommand | undefined;
    let last: ReadmeCommand | undefined;
    let state: ScanState = { quote: null, heredoc: null };
    let answer = false;
    for (const [offset, line] of block.entries()) {
      if (!current) {
        if (!line.trim()) continue;
        if (line.trimStart().startsWith('#')) {
          // `# → …` shows the answer of the command before, and may go on over lines indented after the `#`
          answer = /^\s*# →/.test(line) || (answer && /^\s*#\s{2,}/.test(line));
          if (answer && last) last.shown += last.shown ? `\n${line.trim()}` : line.trim();
          continue;
        }
        answer = false;
        current = { text: '', file, line: start + offset + 1, note: '', shown: '' };
      }
      current.text += current.text ? `\n${line}` : line;
      const scanned = scanLine(line, state);
      state = scanned.state;
      current.note += scanned.comment;
      if (!state.quote && !state.heredoc && !line.endsWith('\\')) {
        current.text = current.text.trimEnd();
        commands.push(current);
        last = current;
        current = undefined;
      }
    }
    assert.equal(current, undefined, `${file} line ${start}: a block ends inside a command`);
  }
  return commands;
}

interface ScanState {
  quote: "'" | '"' | null;
  /** The word that ends a here-document being read. */
  heredoc: string | null;
}

/** Reads one line as bash would, enough to know whether the command goes on and what its comment says. */
function scanLine(line: string, state: ScanState): { state: ScanState; comment: string } {
  if (state.heredoc)
    return { state: line === state.heredoc ? { quote: null, heredoc: null } : state, comment: '' };
  let { quote } = state;
  let heredoc: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quote === "'") {
      if (char === "'") quote = null;
    } else if (char === '\\') {
      i++;
    } else if (quote === '"') {
      if (char === '"') quote = null;
    } else if (char === "'" || char === '"') {
      quote = char;
    } else if (char === '#' && (i === 0 || /\s/.test(line[i - 1]!))) {
      return { state: { quote, heredoc }, comment: line.slice(i) };
    } else if (line.startsWith('<<', i)) {
      const match = /^<<-?\s*'?(\w+)'?/.exec(line.slice(i));
      if (match) heredoc = match[1]!;
    }
  }
  return { state: { quote, heredoc }, comment: '' };
}

/**
 * The JSON a `# → 200 {…}` comment shows, read as a shape: `…` for a value is any value, `,…` and `[…]`/`{…}`
 * stand for more of the same. Undefined when the comment shows no JSON.
 */
export function shownAnswer(shown: string): unknown {
  const arrow = shown.indexOf('→');
  const start = shown.indexOf('{', arrow);
  if (arrow < 0 || start < 0) return undefined;
  // the comment's lines after the first go on after their `#`
  const text = shown.slice(start).replace(/\n#\s*/g, '');
  let depth = 0;
  let inString = false;
  let end = 0;
  for (let i = 0; i < text.length && !end; i++) {
    const char = text[i]!;
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if ((char === '}' || char === ']') && --depth === 0) end = i + 1;
  }
  const json = text
    .slice(0, end)
    .replace(/,…(?=[\]}])/g, '')
    .replace(/\[…\]/g, '[]')
    .replace(/\{…\}/g, '{}')
    .replace(/:…/g, ':null');
  return JSON.parse(json);
}

/** Whether `answer` has the shape `shown` shows: its keys, objects and arrays (a null shown is anything). */
function assertShape(answer: unknown, shown: unknown, where: string, path = '$'): void {
  if (shown === null) return;
  if (Array.isArray(shown)) {
    assert.ok(Array.isArray(answer), `${where}: ${path} is an array`);
    if (shown.length > 0 && answer.length > 0) assertShape(answer[0], shown[0], where, `${path}[0]`);
  } else if (typeof shown === 'object') {
    assert.ok(
      answer !== null && typeof answer === 'object' && !Array.isArray(answer),
      `${where}: ${path} is an object`,
    );
    for (const [key, value] of Object.entries(shown)) {
      assert.ok(key in answer, `${where}: ${path} has "${key}"`);
      assertShape((answer as Record<string, unknown>)[key], value, where, `${path}.${key}`);
    }
  } else assert.equal(typeof answer, typeof shown, `${where}: ${path} is a ${typeof shown}`);
}

/** A file a command wrote, checked in the format its name says. */
function checkFile(path: string, name: string): void {
  assert.ok(existsSync(path), `${name} was written`);
  const bytes = readFileSync(path);
  assert.ok(bytes.length > 0, `${name} is not empty`);
  const text = bytes.toString('utf8');
  if (name.endsWith('.jsonl')) {
    const records = text.trimEnd().split('\n');
    assert.ok(
      records.every((record) => JSON.parse(record)),
      name,
    );
  } else if (name.endsWith('.csv')) assert.match(text, /^id,url,/, name);
  else if (name.endsWith('.warc.gz'))
    assert.match(gunzipSync(bytes).subarray(0, 9).toString('latin1'), /^WARC\/1\.1/, name);
  else if (name.endsWith('.svg')) assert.match(text, /<svg[\s>]/, name);
  else if (name.endsWith('.html')) assert.match(text, /^<!doctype html>/i, name);
  else if (name.endsWith('.gexf')) assert.match(text, /<gexf[\s>]/, name);
  else assert.fail(`${name}: the test knows no such file`);
}

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

test('every curl and trawl command of the README and docs/ works against a live server', {
  timeout: 600_000,
}, async (t) => {
  const web = await startTestWeb({ seed: 5, hosts: 2, pagesPerHost: 3, features: BENCHMARK_FEATURES });
  t.after(() => web.close());
  // where the webhook example delivers: a receiver that keeps what it is sent
  const deliveries: Delivery[] = [];
  const receiver = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      deliveries.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
  const hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/trawl`;
  // The docs' addresses, on the test web: host 0 is the one every crawl starts from, host 1 another site.
  const WEB: Record<string, string> = {
    'https://example.org/': web.seeds[0]!,
    'https://example.com/app': `${web.hosts[1]}/`,
    'https://example.com/': `${web.hosts[1]}/`,
    'https://en.wikipedia.org/wiki/Tennis': web.seeds[0]!,
    'https://en.wikipedia.org/wiki/Wimbledon_Championships': `${web.hosts[1]}/`,
    'https://hooks.example.com/trawl': hooks,
  };

  const schema = `t_${randomBytes(5).toString('hex')}`;
  t.after(() => dropSchema(schema));
  const serverEnv = {
    ...process.env,
    DATABASE_URL: TEST_DATABASE_URL,
    DB_SCHEMA: schema,
  };
  // The server listens on an ephemeral port (PORT=0) and says which one in its "listening" log line.
  const server = spawn(process.execPath, entryArgs('src/server'), {
    cwd: ROOT,
    env: {
      ...serverEnv,
      PORT: '0',
      HOST: '127.0.0.1',
      ALLOW_PRIVATE_NETWORKS: 'true',
      CHROMIUM_PATH: join(tmpdir(), 'no-chromium-here'),
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // A server still loading may not act on SIGTERM; one left running kept this test file from ending (it
  // timed out at the file level after a failure), so it is killed outright if it has not exited in 30 s.
  t.after(() => stopProcess(server, 30_000));
  const port = await new Promise<number>((resolve, reject) => {
    // generous: on a loaded machine tsx alone can take tens of seconds to load the server
    const timer = setTimeout(
      () => reject(new Error('server did not say where it listens in 120 s')),
      120_000,
    );
    server.once('exit', (code) => reject(new Error(`server exited (${code}) before listening`)));
    // every log line is read (a full pipe would stall the server); the first "listening" one gives the port
    createInterface({ input: server.stdout! }).on('line', (line) => {
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
  });
  const base = `http://127.0.0.1:${port}`;
  await eventually(async () => (await fetch(`${base}/readyz`)).ok, {
    message: 'the server to be ready',
    timeoutMs: 60_000,
    intervalMs: 100,
  });

  const workdir = mkdtempSync(join(tmpdir(), 'trawl-readme-'));
  t.after(() => rmSync(workdir, { recursive: true, force: true }));
  // the edges file the ranking example uploads: the reference's graph-file format, names as in the guide
  writeFileSync(
    join(workdir, 'WikiTennisGraph.txt'),
    '5\n/wiki/Tennis /wiki/France\n/wiki/France /wiki/Tennis\n/wiki/Wimbledon /wiki/Tennis\n/wiki/Wimbledon /wiki/France\n',
  );

  const texts = DOCS.map((file) => readFileSync(`${ROOT}${file}`, 'utf8'));
  const commands = DOCS.flatMap((file, index) => readmeCommands(texts[index]!, file));
  for (const skipped of Object.keys(SKIPPED))
    assert.ok(
      commands.some((command) => command.text.startsWith(skipped)),
      `SKIPPED names a command of the docs: ${skipped}`,
    );
  for (const expected of EXPECTED)
    assert.ok(
      commands.some((command) => expected.match.test(command.text)),
      `EXPECTED matches: ${expected.match}`,
    );
  // opening the service to keys closes it: what needs a key runs after everything that does not
  const keyed = (command: ReadmeCommand) =>
    /\$(TRAWL_KEY|ADMIN_KEY)\b/.test(command.text) ||
    /^(export \w+=\$\()?npm run (-s )?keys /.test(command.text);
  const ordered = [...commands.filter((command) => !keyed(command)), ...commands.filter(keyed)];

  // the keys are the service's, the ids each file's own (a reader of one file made them)
  const keys: Record<string, string> = { TRAWL_API: base, TRAWL_KEY: '', ADMIN_KEY: '' };
  const ids = new Map(DOCS.map((file) => [file, {} as Record<string, string>]));
  const ended = new Set<string>();
  const authorization = () => (keys.TRAWL_KEY ? { authorization: `Bearer ${keys.TRAWL_KEY}` } : undefined);
  async function untilEnded(kind: 'crawls' | 'corpora', id: string): Promise<void> {
    if (ended.has(id)) return;
    const final = await eventually(
      async () => {
        const body = (await (
          await fetch(`${base}/v1/${kind}/${id}`, { headers: authorization() })
        ).json()) as {
          status: string;
        };
        return isFinished(body.status) ? body : undefined;
      },
      { message: `${kind} ${id} to end`, timeoutMs: 150_000, intervalMs: 100 },
    );
    assert.equal(final.status, 'completed', JSON.stringify(final));
    ended.add(id);
  }
  // `npx trawl` runs the command line from the sources (as `npm run cli` does); curl says the answer's status
  const prelude = [
    `npx() { [ "$1" = trawl ] || return 127; shift; '${process.execPath}' ${entryArgs('src/cli/trawl')
      .map((arg) => `'${arg}'`)
      .join(' ')} "$@"; }`,
    `curl() { command curl -w '%{stderr}\\n%{http_code} %{content_type}\\n' "$@"; }`,
  ].join('\n');

  const ran: Record<string, number> = {};
  for (const command of ordered) {
    if (Object.keys(SKIPPED).some((skipped) => command.text.startsWith(skipped))) continue;
    const where = `${command.file} line ${command.line}: ${command.text}`;
    const vars = Object.assign(ids.get(command.file)!, keys);
    let text = command.text.replaceAll('localhost:3000', `127.0.0.1:${port}`);
    for (const [from, to] of Object.entries(WEB)) text = text.replaceAll(from, to);
    assert.doesNotMatch(text, /https?:\/\/(?!127\.)/, `${where}: every address it names is on the test web`);
    for (const [name, kind] of [
      ['CRAWL', 'crawls'],
      ['CORPUS', 'corpora'],
    ] as const) {
      if (!new RegExp(`\\$${name}\\b`).test(text)) continue;
      assert.ok(vars[name], `${where}: an earlier command made the ${name} it names`);
      await untilEnded(kind, vars[name]);
    }
    ran[command.file] = (ran[command.file] ?? 0) + 1;

    const assignment = /^export (\w+)=\$\(/.exec(text);
    if (assignment || text.startsWith('npm run ')) {
      // the key commands read the server's database directly, as an operator's would
      const name = assignment?.[1];
      const { stdout } = await run('bash', ['-c', name ? `${text}\nprintf '%s' "$${name}"` : text], {
        cwd: ROOT,
        env: { ...serverEnv, ...vars },
      });
      if (name) {
        assert.match(stdout, /^trawl_\S+$/, `${where} sets ${name} to a key`);
        keys[name] = stdout;
      }
      continue;
    }

    const result = await run('bash', ['-c', `${prelude}\n${text}`], {
      cwd: workdir,
      env: { ...process.env, ...vars },
      maxBuffer: 64 * 1024 * 1024,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    const expected = EXPECTED.find((entry) => entry.match.test(command.text));
    const file = /(?:>|-o)\s+([\w.-]+\.[a-z.]+)(?=\s|$)/.exec(text)?.[1];

    if (text.startsWith('npx trawl ')) {
      if (expected) {
        assert.equal(result.code, expected.status, `${where} → ${result.code} ${result.stderr}`);
        continue;
      }
      assert.equal(result.code, 0, `${where} → ${result.code} ${result.stderr}`);
      // piped, the command line prints JSON lines
      const printed = result.stdout.trim().split('\n').filter(Boolean);
      for (const line of printed) JSON.parse(line);
      if (/^npx trawl crawl /.test(text)) {
        vars.CRAWL = String(JSON.parse(printed[0]!).id);
        assert.equal(JSON.parse(printed.at(-1)!).status, 'completed', where);
      } else if (file) checkFile(join(workdir, file), file);
      else assert.ok(printed.length > 0, `${where} printed something`);
      continue;
    }

    assert.equal(result.code, 0, `${where} → exit ${result.code} ${result.stderr}`);
    const [status, contentType = ''] = result.stderr.trimEnd().split('\n').at(-1)!.split(' ');
    const code = Number(status);
    const answer = `${where} → ${code} ${result.stdout.slice(0, 2000)}`;
    const shownStatus = /→ (\d{3})\b/.exec(command.shown)?.[1];
    assert.equal(code, expected?.status ?? (shownStatus ? Number(shownStatus) : code), answer);
    assert.ok(expected || shownStatus || (code >= 200 && code < 300), answer);
    if (file) {
      checkFile(join(workdir, file), file);
      continue;
    }
    if (code === 204) continue; // No Content: a delete answers nothing
    if (!contentType.includes('json')) {
      assert.ok(result.stdout.length > 0, answer);
      continue;
    }
    const body = JSON.parse(result.stdout) as Record<string, unknown>;
    if (code >= 400) assert.equal(body.status, code, answer); // a problem document
    const shape = shownAnswer(command.shown);
    if (shape !== undefined) assertShape(body, shape, answer);
    // a comment on the command's own line names fields the answer has: `# … "relevantPages":37, …`
    for (const [, key] of command.note.matchAll(/"(\w+)":/g))
      assert.ok(key! in body, `${answer}\nlacks "${key}"`);
    if (code >= 300) continue;
    // the ids a reader takes from the answers for the commands after
    const post = /-X POST \S*127\.0\.0\.1:\d+(\/v1\/\S+)/.exec(text)?.[1];
    if (post === '/v1/crawls') vars.CRAWL = String(body.id);
    else if (post === '/v1/corpora') vars.CORPUS = String(body.id);
    else if (post === '/v1/schedules') vars.SCHEDULE = String(body.id);
    else if (post === '/v1/rankings' || post?.endsWith('/rank')) vars.RANKING = String(body.id);
    else if (/\/pages\?/.test(text) && Array.isArray(body.items) && body.items.length > 0)
      vars.PAGE = String((body.items[0] as { id: unknown }).id);
  }
  assert.deepEqual(ran, RUN_COUNT, 'commands run by file: an example was added or lost (update RUN_COUNT)');

  // The webhook example's crawl delivered its events, signed with the example's secret.
  const secret = /"secret": "([^"]+)"/.exec(texts.join('\n'))?.[1];
  assert.ok(secret, 'the webhook example has a secret');
  const completed = await eventually(
    async () => deliveries.find((delivery) => delivery.headers['x-trawl-event'] === 'completed'),
    { message: 'the completed webhook', timeoutMs: 60_000, intervalMs: 100 },
  );
  const signed = `sha256=${createHmac('sha256', secret).update(`${completed.headers['x-trawl-timestamp']}.${completed.body}`).digest('hex')}`;
  assert.equal(completed.headers['x-trawl-signature'], signed);
  assert.equal(JSON.parse(completed.body).crawl.status, 'completed');
});
