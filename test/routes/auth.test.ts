import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { serverOptions } from '../../src/app.js';
import { build, eventually, TEST_DATABASE_URL, waitUntilReady } from '../helper.js';
import { entryArgs, REPO_ROOT } from '../support/paths.js';
import { trawlInProcess } from '../support/trawl-in-process.js';

const SEEDS = { seeds: ['https://example.org/'] };
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

async function problemOf(response: Awaited<ReturnType<FastifyInstance['inject']>>, status: number) {
  assert.equal(response.statusCode, status, response.body);
  assert.match(response.headers['content-type'] as string, /^application\/problem\+json/);
  const problem = response.json();
  assert.equal(problem.status, status);
  return problem as { type: string; detail: string };
}

test('with no key at all the service runs open; a bad key is still refused', async (t) => {
  const { app } = await build(t, { worker: false });
  const created = await app.inject({ method: 'POST', url: '/v1/crawls', payload: SEEDS });
  assert.equal(created.statusCode, 202, created.body);
  const list = await app.inject({ method: 'GET', url: '/v1/crawls' });
  assert.deepEqual(
    list.json().items.map((item: { id: string }) => item.id),
    [created.json().id],
  );
  const bad = await app.inject({ method: 'GET', url: '/v1/crawls', headers: bearer('trawl_nope') });
  await problemOf(bad, 401);
  assert.match(bad.headers['www-authenticate'] as string, /^Bearer/);
  const basic = await app.inject({
    method: 'GET',
    url: '/v1/crawls',
    headers: { authorization: 'Basic eDp5' },
  });
  await problemOf(basic, 401);
});

test('REQUIRE_API_KEY=true: /v1 needs a key even before one exists; probes and docs stay open', async (t) => {
  const { app, runtime } = await build(t, { worker: false, env: { REQUIRE_API_KEY: 'true' } });
  const refused = await app.inject({ method: 'GET', url: '/v1/crawls' });
  assert.match((await problemOf(refused, 401)).detail, /API key is required/);
  assert.equal((await app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
  await waitUntilReady(app);
  assert.equal((await app.inject({ method: 'GET', url: '/docs/json' })).statusCode, 200);
  const { key } = await runtime.keys.create({ name: 'ci' });
  const allowed = await app.inject({ method: 'GET', url: '/v1/crawls', headers: bearer(key) });
  assert.equal(allowed.statusCode, 200, allowed.body);
});

test('once a key exists, requests without one are refused (REQUIRE_API_KEY unset)', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  assert.equal((await app.inject({ method: 'GET', url: '/v1/crawls' })).statusCode, 200);
  const { key } = await runtime.keys.create({ name: 'first' });
  await problemOf(await app.inject({ method: 'GET', url: '/v1/crawls' }), 401);
  assert.equal(
    (await app.inject({ method: 'GET', url: '/v1/crawls', headers: bearer(key) })).statusCode,
    200,
  );
});

test('tenancy: key B cannot read, list, page through, rank or cancel key A’s crawl (404, not 403)', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const a = await runtime.keys.create({ name: 'a' });
  const b = await runtime.keys.create({ name: 'b' });
  const created = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: SEEDS,
    headers: bearer(a.key),
  });
  assert.equal(created.statusCode, 202, created.body);
  const id: string = created.json().id;

  // every service entry that acts on a crawl: each takes the caller's scope (a required argument)
  const reads = [
    `/v1/crawls/${id}`,
    `/v1/crawls/${id}/pages`,
    `/v1/crawls/${id}/pages/1`,
    `/v1/crawls/${id}/hosts`,
    `/v1/crawls/${id}/graph`,
    `/v1/crawls/${id}/graph?format=gexf`,
    `/v1/crawls/${id}/stats/words`,
    `/v1/crawls/${id}/stats/words.svg`,
    `/v1/crawls/${id}/stats/load-times.svg`,
    `/v1/crawls/${id}/webhooks`,
  ];
  for (const [method, url] of [
    ...reads.map((url) => ['GET', url] as const),
    ['GET', `/v1/crawls/${id}/events`],
    ['POST', `/v1/crawls/${id}/rank`],
    ['DELETE', `/v1/crawls/${id}`],
  ] as const) {
    const response = await app.inject({ method, url, headers: bearer(b.key) });
    await problemOf(response, 404);
    assert.doesNotMatch(response.body, /example\.org/, `${method} ${url} leaks the crawl`);
  }
  // the 404s above are B's scope at work, not a missing crawl: A reaches every one of those reads
  for (const url of reads) {
    const response = await app.inject({ method: 'GET', url, headers: bearer(a.key) });
    assert.notEqual(response.statusCode, 404, `${url} for its owner: ${response.body}`);
  }
  const listB = await app.inject({ method: 'GET', url: '/v1/crawls', headers: bearer(b.key) });
  assert.deepEqual(listB.json().items, []);

  // A still sees its crawl, running: B's DELETE did not cancel it
  const statusA = await app.inject({ method: 'GET', url: `/v1/crawls/${id}`, headers: bearer(a.key) });
  assert.equal(statusA.json().status, 'queued');
  const listA = await app.inject({ method: 'GET', url: '/v1/crawls', headers: bearer(a.key) });
  assert.deepEqual(
    listA.json().items.map((item: { id: string }) => item.id),
    [id],
  );
  const cancelled = await app.inject({ method: 'DELETE', url: `/v1/crawls/${id}`, headers: bearer(a.key) });
  assert.equal(cancelled.statusCode, 200, cancelled.body);
  assert.equal(cancelled.json().status, 'cancelled');
});

test('tenancy: what open mode made belongs to the tenant "open": admin keys read it, other keys get 404', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const openCrawls: string[] = [];
  for (let made = 0; made < 2; made++) {
    const created = await app.inject({ method: 'POST', url: '/v1/crawls', payload: SEEDS });
    assert.equal(created.statusCode, 202, created.body);
    openCrawls.unshift(created.json().id); // lists are newest first
  }
  const openRanking = await app.inject({
    method: 'POST',
    url: '/v1/rankings',
    payload: { edges: [['x', 'y']] },
  });
  assert.equal(openRanking.statusCode, 201, openRanking.body);
  const admin = await runtime.keys.create({ name: 'root', admin: true });
  const a = await runtime.keys.create({ name: 'a' });
  const made = await app.inject({
    method: 'POST',
    url: '/v1/crawls',
    payload: SEEDS,
    headers: bearer(a.key),
  });
  assert.equal(made.statusCode, 202, made.body);
  const aCrawl: string = made.json().id;
  const ids = async (url: string, key: string) => {
    const response = await app.inject({ method: 'GET', url, headers: bearer(key) });
    assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
    return response.json().items.map((item: { id: string }) => item.id);
  };

  // an admin key reads every tenant's crawls, and ?owner= narrows a list to one tenant
  for (const id of [...openCrawls, aCrawl]) {
    const read = await app.inject({ method: 'GET', url: `/v1/crawls/${id}`, headers: bearer(admin.key) });
    assert.equal(read.statusCode, 200, read.body);
  }
  assert.deepEqual(await ids('/v1/crawls', admin.key), [aCrawl, ...openCrawls]);
  // each item says whose it is
  const everyone = await app.inject({ method: 'GET', url: '/v1/crawls', headers: bearer(admin.key) });
  assert.deepEqual(
    everyone.json().items.map((item: { owner: string }) => item.owner),
    [a.id, 'open', 'open'],
  );
  const rankings = await app.inject({ method: 'GET', url: '/v1/rankings', headers: bearer(admin.key) });
  assert.deepEqual(
    rankings.json().items.map((item: { owner: string }) => item.owner),
    ['open'],
  );
  assert.deepEqual(await ids('/v1/crawls?owner=open', admin.key), openCrawls);
  assert.deepEqual(await ids(`/v1/crawls?owner=${a.id}`, admin.key), [aCrawl]);
  assert.deepEqual(await ids(`/v1/crawls?owner=${admin.id}`, admin.key), []);
  assert.deepEqual(await ids('/v1/rankings?owner=open', admin.key), [openRanking.json().id]);
  assert.deepEqual(await ids(`/v1/rankings?owner=${a.id}`, admin.key), []);
  assert.deepEqual(await ids('/v1/corpora?owner=open', admin.key), []);
  // the next page keeps the tenant asked for
  const first = await app.inject({
    method: 'GET',
    url: '/v1/crawls?owner=open&limit=1',
    headers: bearer(admin.key),
  });
  assert.deepEqual(
    first.json().items.map((item: { id: string }) => item.id),
    [openCrawls[0]],
  );
  assert.match(first.json().next, /[?&]owner=open(&|$)/);
  assert.deepEqual(await ids(first.json().next, admin.key), [openCrawls[1]]);

  // any other key sees its own only: open mode's crawls are a 404, and it may not name another tenant
  for (const id of openCrawls) {
    await problemOf(
      await app.inject({ method: 'GET', url: `/v1/crawls/${id}`, headers: bearer(a.key) }),
      404,
    );
  }
  assert.deepEqual(await ids('/v1/crawls', a.key), [aCrawl]);
  assert.deepEqual(await ids(`/v1/crawls?owner=${a.id.toUpperCase()}`, a.key), [aCrawl]);
  const foreign = await app.inject({ method: 'GET', url: '/v1/crawls?owner=open', headers: bearer(a.key) });
  assert.equal(
    (await problemOf(foreign, 403)).detail,
    "only an admin API key may list another tenant's resources",
  );
  assert.equal(foreign.json().field, 'owner');
  const bad = await app.inject({
    method: 'GET',
    url: '/v1/rankings?owner=nobody',
    headers: bearer(admin.key),
  });
  await problemOf(bad, 400);
  assert.equal(bad.json().field, 'owner');
  assert.match(bad.json().detail, /must be an API key id or "open"/);
});

test('tenancy: a ranking is seen only by the key that made it', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const a = await runtime.keys.create({ name: 'a' });
  const b = await runtime.keys.create({ name: 'b' });
  const ranked = await app.inject({
    method: 'POST',
    url: '/v1/rankings',
    payload: { edges: [['x', 'y']] },
    headers: bearer(a.key),
  });
  assert.equal(ranked.statusCode, 201, ranked.body);
  const id: string = ranked.json().id;
  for (const url of [
    `/v1/rankings/${id}`,
    `/v1/rankings/${id}/vertices`,
    `/v1/rankings/${id}/vertices?name=x`,
  ]) {
    await problemOf(await app.inject({ method: 'GET', url, headers: bearer(b.key) }), 404);
    assert.equal((await app.inject({ method: 'GET', url, headers: bearer(a.key) })).statusCode, 200, url);
  }
});

test('tenancy: a corpus is seen, listed and scored against only by the key that made it', async (t) => {
  const { app, runtime } = await build(t);
  const a = await runtime.keys.create({ name: 'a' });
  const b = await runtime.keys.create({ name: 'b' });
  const created = await app.inject({
    method: 'POST',
    url: '/v1/corpora',
    payload: { name: 'pets', documents: [{ text: 'cats and dogs' }, { text: 'fish tanks' }] },
    headers: bearer(a.key),
  });
  assert.equal(created.statusCode, 202, created.body);
  const id: string = created.json().id;
  const corpus = await eventually(
    async () => {
      const status = (
        await app.inject({ method: 'GET', url: `/v1/corpora/${id}`, headers: bearer(a.key) })
      ).json();
      return status.status === 'completed' || status.status === 'failed' ? status : undefined;
    },
    { message: `corpus ${id} to end`, timeoutMs: 60_000 },
  );
  assert.equal(corpus.status, 'completed', JSON.stringify(corpus));
  assert.equal(corpus.owner, a.id);
  const ownList = (await app.inject({ method: 'GET', url: '/v1/corpora', headers: bearer(a.key) })).json();
  assert.deepEqual(
    ownList.items.map((item: { owner: string }) => item.owner),
    [a.id],
  );
  await problemOf(await app.inject({ method: 'GET', url: `/v1/corpora/${id}`, headers: bearer(b.key) }), 404);
  const listed = (await app.inject({ method: 'GET', url: '/v1/corpora', headers: bearer(b.key) })).json();
  assert.deepEqual(listed.items, []);
  const score = (key: string) =>
    app.inject({
      method: 'POST',
      url: '/v1/score',
      payload: { similarTo: { documents: [{ text: 'cats' }] }, corpus: id, documents: [{ text: 'a cat' }] },
      headers: bearer(key),
    });
  await problemOf(await score(b.key), 404);
  assert.equal((await score(a.key)).statusCode, 200);
  // a crawl naming another key's corpus is refused as if the corpus did not exist; an unknown id too
  const crawlWith = (key: string, corpus: string) =>
    app.inject({
      method: 'POST',
      url: '/v1/crawls',
      payload: {
        seeds: ['https://example.org/'],
        relevance: { similarTo: { documents: [{ text: 'cats' }] }, corpus },
      },
      headers: bearer(key),
    });
  const foreign = await crawlWith(b.key, id);
  assert.equal((await problemOf(foreign, 404)).detail, `no corpus with id ${id}`);
  assert.equal(foreign.json().field, 'relevance.corpus');
  const unknown = await crawlWith(b.key, '00000000-0000-4000-8000-000000000000');
  assert.equal(
    (await problemOf(unknown, 404)).detail,
    'no corpus with id 00000000-0000-4000-8000-000000000000',
  );
  const listedCrawls = (
    await app.inject({ method: 'GET', url: '/v1/crawls', headers: bearer(b.key) })
  ).json();
  assert.deepEqual(listedCrawls.items, [], 'no crawl was made for the refused requests');
  const own = await crawlWith(a.key, id);
  assert.equal(own.statusCode, 202, own.body);
  await app.inject({ method: 'DELETE', url: `/v1/crawls/${own.json().id}`, headers: bearer(a.key) });
});

test('admin endpoints: issue, list and revoke keys; a revoked key is refused at once', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  const admin = await runtime.keys.create({ name: 'root', admin: true });
  const user = await runtime.keys.create({ name: 'user' });

  await problemOf(await app.inject({ method: 'GET', url: '/v1/keys' }), 401);
  await problemOf(await app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(user.key) }), 403);

  const issued = await app.inject({
    method: 'POST',
    url: '/v1/keys',
    payload: { name: 'ci' },
    headers: bearer(admin.key),
  });
  assert.equal(issued.statusCode, 201, issued.body);
  const ci = issued.json();
  assert.match(ci.key, /^trawl_[A-Za-z0-9_-]{43}$/);
  assert.ok(ci.key.startsWith(ci.prefix));
  assert.equal(ci.admin, false);

  const listed = await app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(admin.key) });
  assert.equal(listed.statusCode, 200);
  const items: Array<Record<string, unknown>> = listed.json().items;
  assert.deepEqual(items.map((item) => item.name).sort(), ['ci', 'root', 'user']);
  assert.ok(
    items.every((item) => !('key' in item) && !JSON.stringify(item).includes(ci.key.slice(14))),
    'listing never shows a key',
  );

  const ok = await app.inject({ method: 'GET', url: '/v1/crawls', headers: bearer(ci.key) });
  assert.equal(ok.statusCode, 200);
  const revoked = await app.inject({
    method: 'DELETE',
    url: `/v1/keys/${ci.prefix}`,
    headers: bearer(admin.key),
  });
  assert.equal(revoked.statusCode, 200, revoked.body);
  assert.equal(revoked.json().id, ci.id);
  assert.ok(revoked.json().revokedAt);
  const after = await app.inject({ method: 'GET', url: '/v1/crawls', headers: bearer(ci.key) });
  assert.match((await problemOf(after, 401)).detail, /revoked/);
  await problemOf(
    await app.inject({ method: 'DELETE', url: '/v1/keys/trawl_zzzzzzzz', headers: bearer(admin.key) }),
    404,
  );
});

test('MAX_RUNNING_CRAWLS_PER_KEY caps a key’s queued and running crawls with a clear 429', async (t) => {
  const { app, runtime } = await build(t, { worker: false, env: { MAX_RUNNING_CRAWLS_PER_KEY: '2' } });
  const a = await runtime.keys.create({ name: 'a' });
  const b = await runtime.keys.create({ name: 'b' });
  const start = (key: string) =>
    app.inject({ method: 'POST', url: '/v1/crawls', payload: SEEDS, headers: bearer(key) });
  const first = await start(a.key);
  assert.equal(first.statusCode, 202);
  assert.equal((await start(a.key)).statusCode, 202);
  const third = await start(a.key);
  assert.match(
    (await problemOf(third, 429)).detail,
    /2 crawls queued or running.*MAX_RUNNING_CRAWLS_PER_KEY/,
  );
  // the cap is per key
  assert.equal((await start(b.key)).statusCode, 202);
  // a cancelled crawl no longer counts
  await app.inject({ method: 'DELETE', url: `/v1/crawls/${first.json().id}`, headers: bearer(a.key) });
  assert.equal((await start(a.key)).statusCode, 202);
});

test('npm run keys: create prints the key once, list shows it, revoke by prefix refuses it', async (t) => {
  const { app, config } = await build(t, { worker: false });
  const env = { DATABASE_URL: TEST_DATABASE_URL, DB_SCHEMA: config.dbSchema };
  // in-process; like the process it stands for, a command that fails fails the test
  const cli = async (...args: string[]) => {
    const done = await trawlInProcess(['keys', ...args], env);
    assert.equal(done.code, 0, done.stderr);
    return done;
  };
  const created = await cli('create', '--name', 'ci', '--admin');
  const key = created.stdout.trim();
  assert.match(key, /^trawl_[A-Za-z0-9_-]{43}$/);
  assert.match(created.stderr, /created .* ci {2}\(admin\)/);
  const listed = await cli('list');
  assert.match(listed.stdout, new RegExp(`${key.slice(0, 14)}\\s+ci`));
  assert.ok(!listed.stdout.includes(key), 'list never prints a key');
  const admin = await app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(key) });
  assert.equal(admin.statusCode, 200, admin.body);
  await cli('revoke', key.slice(0, 14));
  await problemOf(await app.inject({ method: 'GET', url: '/v1/keys', headers: bearer(key) }), 401);
});

test('trawl keys open: refused without confirmation; with it the service runs open until a key is made', async (t) => {
  const { app, config, runtime } = await build(t, { worker: false });
  const env = { DATABASE_URL: TEST_DATABASE_URL, DB_SCHEMA: config.dbSchema };
  // in-process, stdin not a terminal; a command that fails is returned with its exit code
  const keys = (...args: string[]) => trawlInProcess(['keys', ...args], env);
  const keyless = () => app.inject({ method: 'GET', url: '/v1/crawls' });
  const admin = await runtime.keys.create({ name: 'root', admin: true });
  await runtime.keys.revoke(admin.id);
  // revoking every key keeps the service closed
  await problemOf(await keyless(), 401);

  // a script that does not confirm changes nothing (stdin is not a terminal: no prompt to wait on)
  const refused = await keys('open');
  assert.notEqual(refused.code, 0, 'keys open without confirmation succeeded');
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /not confirmed, nothing changed .*--yes/);
  await problemOf(await keyless(), 401);

  const user = await runtime.keys.create({ name: 'user' });
  const opened = await keys('open', '--yes');
  assert.equal(opened.code, 0, opened.stderr);
  assert.match(opened.stdout, /revoked and released 2 key\(s\): the service runs open/);
  assert.match(opened.stdout, /tenant "open"/);
  // the running service sees it at its next request
  const accepted = await keyless();
  assert.equal(accepted.statusCode, 200, accepted.body);
  const made = await app.inject({ method: 'POST', url: '/v1/crawls', payload: SEEDS });
  assert.equal(made.statusCode, 202, made.body);
  await problemOf(await app.inject({ method: 'GET', url: '/v1/crawls', headers: bearer(user.key) }), 401);
  const openList = await keys('list');
  assert.equal(openList.code, 0, openList.stderr);
  assert.match(openList.stderr, /it runs open/);

  // creating a key closes it again, and an admin key finds what open mode made
  const next = await runtime.keys.create({ name: 'root again', admin: true });
  await problemOf(await keyless(), 401);
  const listed = await app.inject({ method: 'GET', url: '/v1/crawls?owner=open', headers: bearer(next.key) });
  assert.deepEqual(
    listed.json().items.map((item: { id: string }) => item.id),
    [made.json().id],
  );
});

/** `trawl keys <args>` on a terminal (a pseudo-terminal from script(1)), answering its prompt with `answer`. */
async function keysOnTerminal(args: string[], env: NodeJS.ProcessEnv, answer: string) {
  const command = [process.execPath, ...entryArgs('src/cli/trawl'), 'keys', ...args].join(' ');
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    env,
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  const exited = once(child, 'exit');
  await eventually(() => output.includes('to confirm:'), {
    message: 'the confirmation prompt',
    timeoutMs: 60_000,
  });
  child.stdin.write(`${answer}\n`);
  const [code] = await exited;
  child.stdin.end();
  return { code: code as number, output };
}

test('trawl keys open on a terminal: only typing "open" opens the service', {
  skip: existsSync('/usr/bin/script') ? false : 'needs script(1) for a terminal',
}, async (t) => {
  const { app, config, runtime } = await build(t, { worker: false });
  const env = { ...process.env, DATABASE_URL: TEST_DATABASE_URL, DB_SCHEMA: config.dbSchema };
  await runtime.keys.create({ name: 'root', admin: true });
  const keyless = () => app.inject({ method: 'GET', url: '/v1/crawls' });

  const declined = await keysOnTerminal(['open'], env, 'y');
  assert.equal(declined.code, 2, declined.output);
  assert.match(declined.output, /revokes 1 active API key\(s\) and runs trawl OPEN/);
  assert.match(declined.output, /not confirmed, nothing changed/);
  await problemOf(await keyless(), 401);

  const confirmed = await keysOnTerminal(['open'], env, 'open');
  assert.equal(confirmed.code, 0, confirmed.output);
  assert.match(confirmed.output, /revoked and released 1 key\(s\)/);
  assert.equal((await keyless()).statusCode, 200);
});

test('a signed report link opens that report without the key, for a while, and nothing else', async (t) => {
  const { app, runtime } = await build(t, { worker: false });
  // open: the plain URL, no token
  const open = await app.inject({ method: 'POST', url: '/v1/crawls', payload: SEEDS });
  const openLink = await app.inject({ method: 'POST', url: `/v1/crawls/${open.json().id}/report-link` });
  assert.equal(openLink.statusCode, 200, openLink.body);
  assert.deepEqual(openLink.json(), { url: `/v1/crawls/${open.json().id}/report.html`, expiresAt: null });

  const a = await runtime.keys.create({ name: 'a' });
  const b = await runtime.keys.create({ name: 'b' });
  const crawlOf = async (key: string) =>
    (await app.inject({ method: 'POST', url: '/v1/crawls', payload: SEEDS, headers: bearer(key) })).json()
      .id as string;
  const [mine, other] = [await crawlOf(a.key), await crawlOf(a.key)];
  await problemOf(await app.inject({ method: 'POST', url: `/v1/crawls/${mine}/report-link` }), 401);
  await problemOf(
    await app.inject({ method: 'POST', url: `/v1/crawls/${mine}/report-link`, headers: bearer(b.key) }),
    404,
  );
  const linked = await app.inject({
    method: 'POST',
    url: `/v1/crawls/${mine}/report-link`,
    headers: bearer(a.key),
  });
  assert.equal(linked.statusCode, 200, linked.body);
  const { url, expiresAt } = linked.json() as { url: string; expiresAt: string };
  const token = new URL(url, 'http://x').searchParams.get('token')!;
  assert.ok(url.startsWith(`/v1/crawls/${mine}/report.html?token=`), url);
  assert.ok(!token.includes(a.key.slice(6, 20)), 'the token is not the key');
  const secondsLeft = (Date.parse(expiresAt) - Date.now()) / 1000;
  assert.ok(secondsLeft > 60 && secondsLeft <= 300, `expires in ${secondsLeft} s`);

  const report = await app.inject({ method: 'GET', url });
  assert.equal(report.statusCode, 200, report.body);
  assert.match(report.headers['content-type'] as string, /^text\/html/);
  // its own CSP: the report's inline styles apply in the tab
  assert.match(report.headers['content-security-policy'] as string, /style-src 'unsafe-inline'/);
  // that report only: not another crawl's, not another route, not tampered with
  await problemOf(
    await app.inject({ method: 'GET', url: `/v1/crawls/${other}/report.html?token=${token}` }),
    401,
  );
  await problemOf(await app.inject({ method: 'GET', url: `/v1/crawls/${mine}/report?token=${token}` }), 401);
  await problemOf(await app.inject({ method: 'GET', url: `/v1/crawls/${mine}?token=${token}` }), 401);
  const tampered = token.replace(/\.(\d+)\./, (_m, s: string) => `.${Number(s) + 3600}.`);
  await problemOf(
    await app.inject({ method: 'GET', url: `/v1/crawls/${mine}/report.html?token=${tampered}` }),
    401,
  );
  // an expired link (signed with no time to live) and a revoked key's link are refused
  const expired = await runtime.keys.signLink(
    { keyId: a.id, admin: false },
    `/v1/crawls/${mine}/report.html`,
    -1,
  );
  await problemOf(
    await app.inject({ method: 'GET', url: `/v1/crawls/${mine}/report.html?token=${expired.token}` }),
    401,
  );
  await runtime.keys.revoke(a.id);
  await problemOf(await app.inject({ method: 'GET', url }), 401);
});

test('a signed link’s token is left out of the logged request URL', async () => {
  const lines: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  const app = Fastify(serverOptions(log));
  app.get('/v1/crawls/:id/report.html', async () => 'report');
  await app.inject({ method: 'GET', url: '/v1/crawls/c1/report.html?rows=5&token=k1.123.SIGNATURE' });
  await app.close();
  const logged = lines.join('');
  assert.match(logged, /report\.html\?rows=5&token=\[redacted\]/);
  assert.doesNotMatch(logged, /SIGNATURE/);
});
