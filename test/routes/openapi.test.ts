import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { generateOpenApi } from '../../scripts/openapi.js';
import { REPO_ROOT } from '../support/paths.js';

const run = promisify(execFile);
const ROOT = REPO_ROOT;

test('openapi/openapi.json is what the route schemas generate (run `npm run openapi` after changing a route)', async () => {
  const committed = readFileSync(`${ROOT}openapi/openapi.json`, 'utf8');
  const generated = await generateOpenApi();
  assert.equal(committed, generated);
  const spec = JSON.parse(generated);
  assert.equal(spec.openapi, '3.1.0');
  for (const path of ['/v1/crawls', '/v1/crawls/{id}', '/v1/crawls/{id}/pages', '/healthz', '/readyz']) {
    assert.ok(spec.paths[path], `OpenAPI documents ${path}`);
  }
});

test('the spec says what the server does: no trailing slashes, problem+json errors, open probes, 401/429 declared', async () => {
  const spec = JSON.parse(await generateOpenApi());
  for (const path of Object.keys(spec.paths)) assert.ok(path === '/' || !path.endsWith('/'), path);
  for (const probe of ['/healthz', '/readyz']) assert.deepEqual(spec.paths[probe].get.security, [], probe);
  assert.deepEqual(spec.paths['/metrics'].get.security, [{}, { apiKey: [] }]);
  const ids = new Set<string>();
  for (const [path, operations] of Object.entries<Record<string, Record<string, unknown>>>(spec.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const responses = operation.responses as Record<string, { content?: Record<string, unknown> }>;
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) < 400) continue;
        assert.deepEqual(
          Object.keys(response.content ?? {}),
          ['application/problem+json'],
          `${method} ${path} ${status}`,
        );
      }
      if (path.startsWith('/v1/')) {
        assert.ok(responses['401'] && responses['429'], `${method} ${path} declares 401 and 429`);
        assert.equal(operation.security, undefined, `${method} ${path} needs the document's API key`);
      }
      const id = operation.operationId as string;
      assert.ok(id && !ids.has(id), `${method} ${path} has a unique operationId`);
      ids.add(id);
    }
  }
});

test('an independent validator finds the spec clean (redocly lint, recommended rules, offline)', async () => {
  const { stdout } = await run(
    `${ROOT}node_modules/.bin/redocly`,
    ['lint', 'openapi/openapi.json', '--format=json'],
    {
      cwd: ROOT,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeout: 120_000,
    },
  );
  const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: unknown[] };
  assert.deepEqual(
    report.totals,
    { ...report.totals, errors: 0, warnings: 0 },
    JSON.stringify(report.problems),
  );
});
