import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { generateOpenApi } from '../../scripts/openapi.js';

test('openapi/openapi.json is what the route schemas generate (run `npm run openapi` after changing a route)', async () => {
  const committed = readFileSync(new URL('../../openapi/openapi.json', import.meta.url), 'utf8');
  const generated = await generateOpenApi();
  assert.equal(committed, generated);
  const spec = JSON.parse(generated);
  assert.equal(spec.openapi, '3.1.0');
  for (const path of ['/v1/crawls/', '/v1/crawls/{id}', '/v1/crawls/{id}/pages', '/healthz', '/readyz']) {
    assert.ok(spec.paths[path], `OpenAPI documents ${path}`);
  }
});
