// The rank job through the queue backend the run selects (REDIS_URL): an edges file over the job threshold is
// stored, answered 202 and ranked by the job, and a fault the job finds fails the ranking with its line.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build } from '../helper.js';
import { ringFile, streamed, waitForRanking } from '../support/rankings.js';

test('an edges file over the job threshold is stored, answered 202 and ranked by the rank job like the request would', async (t) => {
  const { app, runtime } = await build(t, { env: { RANK_JOB_UPLOAD_BYTES: '2048' } });
  assert.equal(runtime.rankings.jobThresholds.uploadBytes, 2048, 'RANK_JOB_UPLOAD_BYTES reaches the service');
  const file = ringFile();
  assert.ok(Buffer.byteLength(file) > 4 * 2048);
  const url = '/v1/rankings?epsilon=1e-10&topK=7&jaccardK=20';

  const queued = await app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'text/plain' },
    payload: streamed(file),
  });
  assert.equal(queued.statusCode, 202, queued.body);
  const job = queued.json();
  assert.ok(['queued', 'running', 'completed'].includes(job.status), job.status);
  assert.equal(job.crawlId, null);
  assert.equal(job.epsilon, 1e-10);
  assert.equal(job.topK, 7);
  assert.equal(queued.headers.location, `/v1/rankings/${job.id}`);
  const byJob = await waitForRanking(app, queued.headers.location as string);
  assert.equal(byJob.status, 'completed', JSON.stringify(byJob));

  // the same file under the threshold is ranked in the request: the same document but for id and time
  runtime.rankings.jobThresholds.uploadBytes = Buffer.byteLength(file);
  const direct = await app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'text/plain' },
    payload: streamed(file),
  });
  assert.equal(direct.statusCode, 201, direct.body);
  const ranking = direct.json();
  assert.equal(ranking.vertices, 300);
  assert.equal(ranking.declaredVertices, 300);
  assert.deepEqual({ ...byJob, id: ranking.id, createdAt: ranking.createdAt, links: ranking.links }, ranking);

  // and the per-vertex rows are the same, page by page
  const all = async (id: string) =>
    (await app.inject({ method: 'GET', url: `/v1/rankings/${id}/vertices?limit=1000` })).json().items;
  const fromJob = await all(job.id);
  assert.equal(fromJob.length, 300);
  assert.deepEqual(fromJob, await all(ranking.id));
  const uploads = await runtime.db.pool.query('SELECT count(*)::int AS n FROM ranking_uploads');
  assert.equal(uploads.rows[0].n, 0, 'the stored upload is dropped once parsed');
});

test('a malformed edges file found by the rank job fails the ranking with the line in its error', async (t) => {
  const { app, runtime } = await build(t, { env: { RANK_JOB_UPLOAD_BYTES: '1024' } });
  const good = ringFile().split('\n');
  const cases: Array<[string, number, RegExp]> = [
    // a third field deep in the file, well past what the request read ahead
    [
      [...good.slice(0, 900), 'page-1 page-2 page-3', ...good.slice(900)].join('\n'),
      901,
      /expected "from to"/,
    ],
    // a repeated edge is only found when the job builds the graph
    [[...good, 'page-5 page-6', ''].join('\n'), good.length + 1, /duplicate edge page-5 → page-6/],
  ];
  for (const [file, line, message] of cases) {
    const queued = await app.inject({
      method: 'POST',
      url: '/v1/rankings',
      headers: { 'content-type': 'text/plain' },
      payload: streamed(file),
    });
    assert.equal(queued.statusCode, 202, queued.body);
    const ended = await waitForRanking(app, queued.headers.location as string);
    assert.equal(ended.status, 'failed', JSON.stringify(ended));
    const error = ended.error as Record<string, unknown>;
    assert.equal(error.code, 'validation');
    assert.equal(error.field, 'body');
    assert.equal(error.line, line, JSON.stringify(error));
    assert.match(String(error.detail), new RegExp(`^line ${line}: `));
    assert.match(String(error.detail), message);
  }
  const rows = await runtime.db.pool.query(
    "SELECT (SELECT count(*) FROM ranking_uploads)::int AS uploads, (SELECT count(*) FROM rankings WHERE status = 'failed')::int AS failed",
  );
  assert.deepEqual(rows.rows[0], { uploads: 0, failed: 2 });
});
