// `trawl schedules` against the real API, in-process: one JSON line per schedule when piped, a table at a
// terminal (when each runs, its next run in UTC, its runs), --limit following the cursor.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build } from '../helper.js';
import { trawlInProcess as trawl } from '../support/trawl-in-process.js';

test('trawl schedules: JSON lines when piped, a table at a terminal', async (t) => {
  const { app } = await build(t);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const env = {
    TRAWL_API: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`,
    TRAWL_KEY: '',
  };

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
