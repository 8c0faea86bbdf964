// Schedules on BullMQ's job schedulers, on either queue backend (docs/operations.md#schedules): a due run starts
// a crawl with no call of ours, and a schedule whose runs were missed while no worker ran (a restart) runs once
// when a worker starts, not once per missed tick; a schedule whose job scheduler the store lost gets it back.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { INTERNAL_SCOPE } from '../../src/db/tenant-scope.js';
import { build, eventually, waitForCrawl } from '../helper.js';
import { BENCHMARK_FEATURES, crawlRequestFor, startTestWeb, type TestWeb } from '../support/testweb/index.js';

let web: TestWeb;
before(async () => {
  web = await startTestWeb({ seed: 3, hosts: 1, pagesPerHost: 6, features: BENCHMARK_FEATURES });
});
after(() => web.close());

interface ScheduleBody {
  id: string;
  runs: number;
  skippedRuns: number;
  lastCrawlId: string | null;
  nextRunAt: string | null;
}

test('a due run starts a crawl, and the next run is an interval later', async (t) => {
  const { app } = await build(t);
  const created = await app.inject({
    method: 'POST',
    url: '/v1/schedules',
    payload: { crawl: crawlRequestFor(web, { maxPages: 5 }), every: '1h' },
  });
  assert.equal(created.statusCode, 201, created.body);
  const { id } = created.json() as ScheduleBody;
  // `every`: the first run is due at once, and the worker takes it
  const ran = await eventually(
    async () => {
      const body = (await app.inject({ method: 'GET', url: `/v1/schedules/${id}` })).json() as ScheduleBody;
      return body.runs === 1 && body.lastCrawlId ? body : null;
    },
    { message: `schedule ${id} to run`, timeoutMs: 60_000 },
  );
  const crawl = await waitForCrawl(app, ran.lastCrawlId ?? '', 120_000);
  assert.equal(crawl.status, 'completed', JSON.stringify(crawl));
  const nextMs = Date.parse(ran.nextRunAt ?? '');
  assert.ok(nextMs > Date.now() + 50 * 60_000, `next run ${ran.nextRunAt} is about an hour away`);
});

test('runs missed while no worker ran are taken once when one starts', async (t) => {
  const everyMs = 1000;
  const env = { SCHEDULE_MIN_EVERY_SECS: '1' };
  // an API process without a worker makes the schedule: its first run is due at once and nobody takes it
  const api = await build(t, { worker: false, env });
  const created = await api.app.inject({
    method: 'POST',
    url: '/v1/schedules',
    payload: { crawl: crawlRequestFor(web, { maxPages: 3 }), every: '1s' },
  });
  assert.equal(created.statusCode, 201, created.body);
  const { id } = created.json() as ScheduleBody;
  // twelve runs and more fall due meanwhile (a lower bound of time, never an upper one)
  const missed = 12;
  await sleep(missed * everyMs + 500);
  const waiting = (
    await api.app.inject({ method: 'GET', url: `/v1/schedules/${id}` })
  ).json() as ScheduleBody;
  assert.equal(waiting.runs + waiting.skippedRuns, 0, 'no worker, no run');
  assert.ok(
    Date.parse(waiting.nextRunAt ?? '') < Date.now() - (missed - 1) * everyMs,
    waiting.nextRunAt ?? '',
  );

  // another process starts, on the same database and queues: the schedule survived, and its overdue run is taken
  const startedAt = Date.now();
  const worker = await build(t, { env: { ...env, DB_SCHEMA: api.config.dbSchema } });
  const first = await eventually(
    async () => {
      const body = (
        await worker.app.inject({ method: 'GET', url: `/v1/schedules/${id}` })
      ).json() as ScheduleBody;
      return body.runs >= 1 ? body : null;
    },
    { message: `schedule ${id} to run once a worker starts`, timeoutMs: 60_000 },
  );
  // Once per missed run would take the twelve overdue runs one after another, at once (the first starting a crawl,
  // the others skipped while it runs). Taken once, the runs so far are that one and those due every interval
  // since the worker started.
  const ticks = first.runs + first.skippedRuns;
  const dueSinceStart = Math.floor((Date.now() - startedAt) / everyMs) + 1;
  assert.ok(ticks <= 1 + dueSinceStart, `${ticks} runs ${Date.now() - startedAt} ms after the start`);
  assert.ok(dueSinceStart < missed, 'the check happened before as many runs could fall due again');
  // the next run is counted from the start, not from the missed ones
  assert.ok(Date.parse(first.nextRunAt ?? '') >= startedAt, `next run ${first.nextRunAt}`);
  await worker.app.inject({ method: 'DELETE', url: `/v1/schedules/${id}` });
});

test("a schedule whose job scheduler the queue's store lost gets it back when a worker starts", async (t) => {
  const api = await build(t, { worker: false });
  const created = await api.app.inject({
    method: 'POST',
    url: '/v1/schedules',
    payload: { crawl: crawlRequestFor(web), cron: '0 0 1 1 *', timezone: 'UTC' },
  });
  assert.equal(created.statusCode, 201, created.body);
  const { id, nextRunAt } = created.json() as ScheduleBody;
  // as a flushed Redis, or a switch of queue backend, would leave it
  await api.runtime.jobs.queue('schedule').removeJobScheduler(id);
  const lost = (await api.app.inject({ method: 'GET', url: `/v1/schedules/${id}` })).json() as ScheduleBody;
  assert.equal(lost.nextRunAt, null);

  const worker = await build(t, { env: { DB_SCHEMA: api.config.dbSchema } });
  const restored = await eventually(
    async () => {
      const body = (
        await worker.app.inject({ method: 'GET', url: `/v1/schedules/${id}` })
      ).json() as ScheduleBody;
      return body.nextRunAt ? body : null;
    },
    { message: `schedule ${id}'s job scheduler to be made again`, timeoutMs: 60_000 },
  );
  assert.equal(restored.nextRunAt, nextRunAt);
  assert.equal(restored.runs, 0);

  // a run left by a schedule since deleted removes the job scheduler it came from
  await worker.runtime.jobs.queue('schedule').removeJobScheduler(id);
  await worker.runtime.db.pool.query('DELETE FROM schedules WHERE id = $1', [id]);
  await worker.runtime.jobs.queue('schedule').upsertJobScheduler(id, { pattern: '0 0 1 1 *', tz: 'UTC' });
  assert.deepEqual(await worker.runtime.schedules.run(id, INTERNAL_SCOPE), { outcome: 'gone' });
  assert.equal(await worker.runtime.jobs.queue('schedule').getJobScheduler(id), undefined);
});
