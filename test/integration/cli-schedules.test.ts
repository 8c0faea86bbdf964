// `trawl schedules` against the real API, in-process: one JSON line per schedule when piped, a table at a
// terminal (when each runs, its next run in UTC, its runs), --limit following the cursor; `trawl schedule`,
// `reschedule` and `unschedule` make, change and delete one, a refused field named with its flag.
import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { build } from '../helper.js';
import { trawlInProcess as trawl } from '../support/trawl-in-process.js';

/** The app listening on a loopback port, and the environment that points the CLI at it. */
async function listening(t: TestContext) {
  const { app } = await build(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const env = {
    TRAWL_API: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`,
    TRAWL_KEY: '',
  };
  return { app, env };
}

test('trawl schedules: JSON lines when piped, a table at a terminal', async (t) => {
  const { app, env } = await listening(t);

  const none = await trawl(['schedules'], env);
  assert.equal(none.code, 0, none.stderr);
  assert.equal(none.stdout, '');

  // two schedules that run only once a year: nothing runs while the test reads them
  const made: string[] = [];
  for (const payload of [
    { name: 'new year', crawl: { seeds: ['https://example.org/'] }, cron: '0 0 1 1 *', timezone: 'UTC' },
    { crawl: { seeds: ['https://example.com/'] }, cron: '30 6 1 7 *', timezone: 'Europe/Paris' },
  ]) {
    const created = await app.inject({ method: 'POST', url: '/v1/schedules', payload });
    assert.equal(created.statusCode, 201, created.body);
    made.push(created.json().id);
  }

  const piped = await trawl(['schedules'], env);
  assert.equal(piped.code, 0, piped.stderr);
  const lines = piped.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  assert.deepEqual(
    lines.map((line) => line.id),
    [...made].reverse(),
    'newest first',
  );
  assert.equal(lines[1].name, 'new year');
  assert.match(lines[1].nextRunAt, /^\d{4}-01-01T00:00:00/);

  const one = await trawl(['schedules', '--limit', '1'], env);
  assert.equal(one.stdout.trim().split('\n').length, 1);

  const table = await trawl(['schedules'], env, { terminalColumns: 160 });
  assert.equal(table.code, 0, table.stderr);
  const rows = table.stdout.trimEnd().split('\n');
  assert.match(rows[0]!, /^ID\s+NAME\s+WHEN\s+NEXT RUN \(UTC\)\s+RUNS\s+SKIPPED\s+LAST CRAWL\s+LAST ERROR$/);
  assert.equal(rows.length, 3);
  assert.match(
    rows[1]!,
    new RegExp(`^${made[1]}\\s+30 6 1 7 \\* \\(Europe/Paris\\)\\s+\\d{4}-07-01 04:30\\s+0\\s+0`),
  );
  assert.match(
    rows[2]!,
    new RegExp(`^${made[0]}\\s+new year\\s+0 0 1 1 \\* \\(UTC\\)\\s+\\d{4}-01-01 00:00\\s+0\\s+0`),
  );
});

test('trawl schedule, reschedule and unschedule: made from the crawl flags, changed, deleted', async (t) => {
  const { app, env } = await listening(t);
  const stored = async (id: string) =>
    (await app.inject({ method: 'GET', url: `/v1/schedules/${id}` })).json() as {
      name: string | null;
      crawl: Record<string, unknown>;
      every: string | null;
      cron: string | null;
    };

  // once a year: nothing runs while the test reads it
  const made = await trawl(
    [
      'schedule',
      'https://example.org/',
      '--cron',
      '0 0 1 1 *',
      '--timezone',
      'UTC',
      '--name',
      'new year',
      '--max-pages',
      '5',
      '--delay-ms',
      '2000',
    ],
    env,
  );
  assert.equal(made.code, 0, made.stderr);
  const { id } = JSON.parse(made.stdout) as { id: string };
  const first = await stored(id);
  assert.equal(first.name, 'new year');
  assert.equal(first.cron, '0 0 1 1 *');
  assert.deepEqual(first.crawl.seeds, ['https://example.org/']);
  assert.equal(first.crawl.maxPages, 5);
  assert.deepEqual(first.crawl.politeness, { delayMs: 2000 });

  // at a terminal: one line saying when it runs now
  const changed = await trawl(
    ['reschedule', id, '--cron', '30 6 1 7 *', '--timezone', 'Europe/Paris', '--name', 'summer'],
    env,
    { terminalColumns: 120 },
  );
  assert.equal(changed.code, 0, changed.stderr);
  assert.match(
    changed.stdout,
    new RegExp(
      `^schedule ${id} "summer" changed: 30 6 1 7 \\* \\(Europe/Paris\\), next run \\d{4}-07-01 04:30 UTC\\n$`,
    ),
  );
  assert.deepEqual((await stored(id)).crawl.seeds, ['https://example.org/'], 'the crawl request kept');

  // --request replaces the crawl request whole
  const replaced = await trawl(['reschedule', id, '--request', '-'], env, {
    stdin: JSON.stringify({ seeds: ['https://example.com/'], maxDepth: 2 }),
  });
  assert.equal(replaced.code, 0, replaced.stderr);
  const now = await stored(id);
  assert.deepEqual(now.crawl.seeds, ['https://example.com/']);
  assert.equal(now.crawl.maxDepth, 2);
  assert.equal(now.crawl.maxPages, undefined, 'replaced whole');

  // refused input: exit code 2, the field and the flag that set it named, nothing changed
  const both = await trawl(['reschedule', id, '--every', '1d', '--cron', '0 0 * * *'], env);
  assert.equal(both.code, 2, both.stdout);
  assert.match(both.stderr, /--every|--cron/);
  const nothing = await trawl(['reschedule', id], env);
  assert.equal(nothing.code, 2);
  assert.match(nothing.stderr, /nothing to change/);
  const badDelay = await trawl(
    ['schedule', 'https://example.org/', '--cron', '0 0 1 1 *', '--timezone', 'UTC', '--delay-ms', '9999999'],
    env,
  );
  assert.equal(badDelay.code, 2, badDelay.stdout);
  assert.match(badDelay.stderr, /crawl\.politeness\.delayMs/);
  assert.equal((await stored(id)).name, 'summer');
  const unnamed = await trawl(['reschedule', id, '--no-name'], env, { terminalColumns: 120 });
  assert.equal(unnamed.code, 0, unnamed.stderr);
  assert.match(unnamed.stdout, new RegExp(`^schedule ${id} changed: 30 6 1 7 \\* \\(Europe/Paris\\)`));
  assert.equal((await stored(id)).name, null);
  const listed = (await app.inject({ method: 'GET', url: '/v1/schedules' })).json() as { items: unknown[] };
  assert.equal(listed.items.length, 1, 'the refused schedule was not made');

  const deleted = await trawl(['unschedule', id], env, { terminalColumns: 120 });
  assert.equal(deleted.code, 0, deleted.stderr);
  assert.equal(deleted.stdout, `schedule ${id} deleted (it started no crawl)\n`);
  assert.equal((await app.inject({ method: 'GET', url: `/v1/schedules/${id}` })).statusCode, 404);
});
