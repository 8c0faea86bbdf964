// Schedules (docs/guide.md#schedules): POST/GET/PATCH/DELETE /v1/schedules, each bad input a 400 naming its field,
// tenancy as crawls, and a run (ScheduleService.run, the `schedule` job's work) called directly: the first run
// a plain crawl, the next a recrawl of it, a run while the previous crawl is unfinished skipped and counted.
// The schedules here are cron ones due on 1 January, so BullMQ's own ticks never run during a test; the ticks
// themselves are schedules.queue.test.ts's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INTERNAL_SCOPE } from '../../src/db/tenant-scope.js';
import { build, waitForCrawl } from '../helper.js';
import { BENCHMARK_FEATURES, crawlRequestFor, startTestWeb } from '../support/testweb/index.js';

const YEARLY = { cron: '0 0 1 1 *', timezone: 'UTC' };
const CRAWL = { seeds: ['https://example.org/'], maxPages: 5 };
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

test('make, read, list, change and delete a schedule', async (t) => {
  const { app } = await build(t, { worker: false });
  const created = await app.inject({
    method: 'POST',
    url: '/v1/schedules',
    payload: {
      name: 'daily news',
      crawl: { ...CRAWL, webhook: { url: 'https://example.org/hook', secret: 'a-long-secret' } },
      every: '1d',
    },
  });
  assert.equal(created.statusCode, 201, created.body);
  const schedule = created.json();
  assert.equal(created.headers.location, `/v1/schedules/${schedule.id}`);
  assert.equal(schedule.every, '1d');
  assert.equal(schedule.cron, null);
  assert.equal(schedule.runs, 0);
  assert.equal(schedule.skippedRuns, 0);
  assert.equal(schedule.lastCrawlId, null);
  assert.equal(schedule.crawl.webhook.secret, '(set)', 'a webhook secret is never echoed');
  // `every`: the first run is due at once
  assert.ok(schedule.nextRunAt, created.body);
  assert.ok(Date.parse(schedule.nextRunAt) <= Date.now() + 1000, schedule.nextRunAt);

  const read = await app.inject({ method: 'GET', url: `/v1/schedules/${schedule.id}` });
  assert.equal(read.statusCode, 200);
  assert.equal(read.json().name, 'daily news');

  // change when it runs: a cron expression in a time zone, its next run computed again
  const patched = await app.inject({
    method: 'PATCH',
    url: `/v1/schedules/${schedule.id}`,
    payload: { cron: '30 6 * * 1-5', timezone: 'Europe/Paris', name: null },
  });
  assert.equal(patched.statusCode, 200, patched.body);
  const changed = patched.json();
  assert.equal(changed.every, null);
  assert.equal(changed.cron, '30 6 * * 1-5');
  assert.equal(changed.timezone, 'Europe/Paris');
  assert.equal(changed.name, null);
  const next = new Date(changed.nextRunAt);
  assert.ok(next.getTime() > Date.now(), changed.nextRunAt);
  const parisHour = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Paris',
    hour: '2-digit',
    minute: '2-digit',
  });
  assert.equal(parisHour.format(next), '06:30');
  // a time zone alone keeps the cron
  const moved = await app.inject({
    method: 'PATCH',
    url: `/v1/schedules/${schedule.id}`,
    payload: { timezone: 'America/New_York' },
  });
  assert.equal(moved.statusCode, 200, moved.body);
  assert.equal(moved.json().cron, '30 6 * * 1-5');
  // the crawl request is replaced whole
  const recrawled = await app.inject({
    method: 'PATCH',
    url: `/v1/schedules/${schedule.id}`,
    payload: { crawl: { seeds: ['https://example.com/'] } },
  });
  assert.equal(recrawled.statusCode, 200, recrawled.body);
  assert.deepEqual(recrawled.json().crawl, { seeds: ['https://example.com/'] });

  // a page of the list, newest first, by cursor
  const second = await app.inject({
    method: 'POST',
    url: '/v1/schedules',
    payload: { crawl: CRAWL, ...YEARLY },
  });
  assert.equal(second.statusCode, 201, second.body);
  const first = await app.inject({ method: 'GET', url: '/v1/schedules?limit=1' });
  assert.equal(first.statusCode, 200, first.body);
  assert.deepEqual(
    first.json().items.map((item: { id: string }) => item.id),
    [second.json().id],
  );
  assert.ok(first.json().next);
  const rest = await app.inject({ method: 'GET', url: first.json().next });
  assert.deepEqual(
    rest.json().items.map((item: { id: string }) => item.id),
    [schedule.id],
  );
  assert.equal(rest.json().next, null);
  assert.ok(rest.json().items[0].nextRunAt, 'a listed schedule shows its next run');

  const deleted = await app.inject({ method: 'DELETE', url: `/v1/schedules/${schedule.id}` });
  assert.equal(deleted.statusCode, 200, deleted.body);
  assert.equal(deleted.json().nextRunAt, null);
  assert.equal((await app.inject({ method: 'GET', url: `/v1/schedules/${schedule.id}` })).statusCode, 404);
  assert.equal((await app.inject({ method: 'DELETE', url: `/v1/schedules/${schedule.id}` })).statusCode, 404);
  assert.equal(await app.runtime.jobs.queue('schedule').getJobScheduler(schedule.id), undefined);
});

test('bad schedules are 400s naming the field; unknown ids 404', async (t) => {
  const { app } = await build(t, { worker: false });
  const badRequests: Array<[object, string]> = [
    [{ every: '1d' }, 'crawl'],
    [{ crawl: CRAWL }, 'every'],
    [{ crawl: CRAWL, every: '10s' }, 'every'],
    [{ crawl: CRAWL, every: '59s' }, 'every'],
    [{ crawl: CRAWL, every: 'daily' }, 'every'],
    [{ crawl: CRAWL, every: '1.5h' }, 'every'],
    [{ crawl: CRAWL, every: '400d' }, 'every'],
    [{ crawl: CRAWL, every: '1d', cron: '0 6 * * *', timezone: 'UTC' }, 'cron'],
    [{ crawl: CRAWL, every: '1d', timezone: 'UTC' }, 'timezone'],
    [{ crawl: CRAWL, cron: '0 6 * * *' }, 'timezone'],
    [{ crawl: CRAWL, cron: '0 6 * * *', timezone: 'Mars/Olympus' }, 'timezone'],
    [{ crawl: CRAWL, cron: '0 6 * *', timezone: 'UTC' }, 'cron'],
    [{ crawl: CRAWL, cron: '0 0 6 * * *', timezone: 'UTC' }, 'cron'],
    [{ crawl: CRAWL, cron: '61 6 * * *', timezone: 'UTC' }, 'cron'],
    [{ crawl: {}, every: '1d' }, 'crawl.seeds'],
    [{ crawl: { seeds: ['ftp://example.org/'] }, every: '1d' }, 'crawl.seeds[0]'],
    [{ crawl: { ...CRAWL, strategy: 'best-first' }, every: '1d' }, 'crawl.relevance'],
    [
      { crawl: { ...CRAWL, recrawl: { of: '00000000-0000-4000-8000-000000000000' } }, every: '1d' },
      'crawl.recrawl',
    ],
    [{ crawl: CRAWL, every: '1d', bogus: 1 }, 'bogus'],
  ];
  for (const [payload, field] of badRequests) {
    const response = await app.inject({ method: 'POST', url: '/v1/schedules', payload });
    assert.equal(response.statusCode, 400, `${JSON.stringify(payload)} → ${response.body}`);
    assert.match(response.headers['content-type'] as string, /^application\/problem\+json/);
    assert.equal(response.json().field, field, `${JSON.stringify(payload)} → ${response.body}`);
  }
  assert.equal((await app.inject({ method: 'GET', url: '/v1/schedules' })).json().items.length, 0);

  const created = await app.inject({
    method: 'POST',
    url: '/v1/schedules',
    payload: { crawl: CRAWL, ...YEARLY },
  });
  const { id } = created.json();
  const badPatches: Array<[object, string]> = [
    [{ every: '5s' }, 'every'],
    [{ cron: 'every day', timezone: 'UTC' }, 'cron'],
    [{ timezone: 'Nowhere/Land' }, 'timezone'],
    [{ every: '1h', cron: '0 * * * *' }, 'cron'],
    [{ crawl: { seeds: [] } }, 'crawl.seeds'],
  ];
  for (const [payload, field] of badPatches) {
    const response = await app.inject({ method: 'PATCH', url: `/v1/schedules/${id}`, payload });
    assert.equal(response.statusCode, 400, `${JSON.stringify(payload)} → ${response.body}`);
    assert.equal(response.json().field, field, `${JSON.stringify(payload)} → ${response.body}`);
  }
  // a timezone alone on an `every` schedule has no cron to go with
  const everyOne = await app.inject({
    method: 'POST',
    url: '/v1/schedules',
    payload: { crawl: CRAWL, every: '1h' },
  });
  const tzOnly = await app.inject({
    method: 'PATCH',
    url: `/v1/schedules/${everyOne.json().id}`,
    payload: { timezone: 'UTC' },
  });
  assert.equal(tzOnly.statusCode, 400, tzOnly.body);
  assert.equal(tzOnly.json().field, 'timezone');

  const unknown = '00000000-0000-4000-8000-000000000000';
  for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
    const response = await app.inject({
      method,
      url: `/v1/schedules/${unknown}`,
      ...(method === 'PATCH' ? { payload: { name: 'x' } } : {}),
    });
    assert.equal(response.statusCode, 404, `${method} → ${response.body}`);
  }
  assert.equal((await app.inject({ method: 'GET', url: '/v1/schedules/nope' })).json().field, 'id');
});

test("a key sees only its own schedules; another key's are not found", async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const a = await runtime.keys.create({ name: 'a' });
  const b = await runtime.keys.create({ name: 'b' });
  const created = await app.inject({
    method: 'POST',
    url: '/v1/schedules',
    headers: bearer(a.key),
    payload: { crawl: CRAWL, ...YEARLY },
  });
  assert.equal(created.statusCode, 201, created.body);
  const { id, owner } = created.json();
  assert.equal(owner, a.id);
  for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
    const response = await app.inject({
      method,
      url: `/v1/schedules/${id}`,
      headers: bearer(b.key),
      ...(method === 'PATCH' ? { payload: { name: 'mine now' } } : {}),
    });
    assert.equal(response.statusCode, 404, `${method} → ${response.body}`);
  }
  const listB = await app.inject({ method: 'GET', url: '/v1/schedules', headers: bearer(b.key) });
  assert.deepEqual(listB.json().items, []);
  const listA = await app.inject({ method: 'GET', url: '/v1/schedules', headers: bearer(a.key) });
  assert.deepEqual(
    listA.json().items.map((item: { id: string }) => item.id),
    [id],
  );
  const forbidden = await app.inject({
    method: 'GET',
    url: `/v1/schedules?owner=${a.id}`,
    headers: bearer(b.key),
  });
  assert.equal(forbidden.statusCode, 403, forbidden.body);
  assert.equal(forbidden.json().field, 'owner');

  // a run's crawl belongs to the schedule's owner
  const run = await runtime.schedules.run(id, INTERNAL_SCOPE);
  assert.equal(run.outcome, 'started');
  const crawlId = run.outcome === 'started' ? run.crawlId : '';
  assert.equal(
    (await app.inject({ method: 'GET', url: `/v1/crawls/${crawlId}`, headers: bearer(a.key) })).statusCode,
    200,
  );
  assert.equal(
    (await app.inject({ method: 'GET', url: `/v1/crawls/${crawlId}`, headers: bearer(b.key) })).statusCode,
    404,
  );
});

test('a run while the previous crawl is unfinished is skipped and counted', async (t) => {
  // no worker: the first run's crawl stays queued
  const { app, runtime } = await build(t, { worker: false });
  const created = await app.inject({
    method: 'POST',
    url: '/v1/schedules',
    payload: { crawl: CRAWL, ...YEARLY },
  });
  const { id } = created.json();
  const first = await runtime.schedules.run(id, INTERNAL_SCOPE);
  assert.equal(first.outcome, 'started', JSON.stringify(first));
  assert.deepEqual(await runtime.schedules.run(id, INTERNAL_SCOPE), { outcome: 'skipped' });
  assert.deepEqual(await runtime.schedules.run(id, INTERNAL_SCOPE), { outcome: 'skipped' });
  const schedule = (await app.inject({ method: 'GET', url: `/v1/schedules/${id}` })).json();
  assert.equal(schedule.runs, 1);
  assert.equal(schedule.skippedRuns, 2);
  assert.equal(
    first.outcome === 'started' && schedule.lastCrawlId,
    first.outcome === 'started' && first.crawlId,
  );
  assert.equal(schedule._links.lastCrawl, `/v1/crawls/${schedule.lastCrawlId}`);
  // the crawl cancelled (finished, not completed): the next run starts a crawl again, a plain one, since no
  // crawl of the schedule completed
  await app.inject({ method: 'DELETE', url: `/v1/crawls/${schedule.lastCrawlId}` });
  const after = await runtime.schedules.run(id, INTERNAL_SCOPE);
  assert.equal(after.outcome, 'started', JSON.stringify(after));
  assert.equal(after.outcome === 'started' && after.recrawlOf, null);
  // a deleted schedule's leftover run finds nothing
  await app.inject({ method: 'DELETE', url: `/v1/schedules/${id}` });
  assert.deepEqual(await runtime.schedules.run(id, INTERNAL_SCOPE), { outcome: 'gone' });
});

test('the first run is a plain crawl, the next a recrawl of the last completed one', async (t) => {
  const web = await startTestWeb({ seed: 7, hosts: 1, pagesPerHost: 10, features: BENCHMARK_FEATURES });
  t.after(() => web.close());
  const { app, runtime } = await build(t);
  const created = await app.inject({
    method: 'POST',
    url: '/v1/schedules',
    payload: { crawl: crawlRequestFor(web, { maxPages: 10 }), ...YEARLY },
  });
  assert.equal(created.statusCode, 201, created.body);
  const { id } = created.json();
  const first = await runtime.schedules.run(id, INTERNAL_SCOPE);
  assert.ok(first.outcome === 'started', JSON.stringify(first));
  assert.equal(first.recrawlOf, null);
  const firstStatus = await waitForCrawl(app, first.crawlId, 120_000);
  assert.equal(firstStatus.status, 'completed', JSON.stringify(firstStatus));
  assert.equal(firstStatus.recrawlOf, undefined);

  const second = await runtime.schedules.run(id, INTERNAL_SCOPE);
  assert.ok(second.outcome === 'started', JSON.stringify(second));
  assert.equal(second.recrawlOf, first.crawlId);
  const secondStatus = await waitForCrawl(app, second.crawlId, 120_000);
  assert.equal(secondStatus.status, 'completed', JSON.stringify(secondStatus));
  assert.equal(secondStatus.recrawlOf, first.crawlId);
  assert.equal(secondStatus.scheduleId, id, 'a crawl says which schedule started it');
  const changes = secondStatus.changes as Record<string, number>;
  assert.ok((changes.unchanged ?? 0) > 0, JSON.stringify(changes));

  // the third recrawls the second, the last that completed
  const third = await runtime.schedules.run(id, INTERNAL_SCOPE);
  assert.ok(third.outcome === 'started', JSON.stringify(third));
  assert.equal(third.recrawlOf, second.crawlId);
  await waitForCrawl(app, third.crawlId, 120_000);
  const schedule = (await app.inject({ method: 'GET', url: `/v1/schedules/${id}` })).json();
  assert.equal(schedule.runs, 3);
  assert.equal(schedule.skippedRuns, 0);
  assert.equal(schedule.lastCrawlId, third.crawlId);
});

test('runs of one schedule at once start one crawl; the others are skipped', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const created = await app.inject({
    method: 'POST',
    url: '/v1/schedules',
    payload: { crawl: CRAWL, ...YEARLY },
  });
  const { id } = created.json();
  const outcomes = await Promise.all(
    Array.from({ length: 4 }, () => runtime.schedules.run(id, INTERNAL_SCOPE)),
  );
  const started = outcomes.filter((outcome) => outcome.outcome === 'started');
  assert.equal(started.length, 1, JSON.stringify(outcomes));
  const schedule = (await app.inject({ method: 'GET', url: `/v1/schedules/${id}` })).json();
  assert.equal(schedule.runs, 1);
  assert.equal(schedule.skippedRuns, 3);
  const crawls = (await app.inject({ method: 'GET', url: '/v1/crawls' })).json().items;
  assert.equal(crawls.length, 1, JSON.stringify(crawls));
});

test('a POST retried with its Idempotency-Key makes one schedule', async (t) => {
  const { app } = await build(t, { worker: false });
  const post = () =>
    app.inject({
      method: 'POST',
      url: '/v1/schedules',
      headers: { 'idempotency-key': 'weekly-news-1' },
      payload: { crawl: CRAWL, ...YEARLY },
    });
  const first = await post();
  const again = await post();
  assert.equal(first.statusCode, 201, first.body);
  assert.equal(again.statusCode, 201, again.body);
  assert.equal(again.json().id, first.json().id);
  assert.equal((await app.inject({ method: 'GET', url: '/v1/schedules' })).json().items.length, 1);
});
