// What the ranking tests share: waiting for a ranking to end, a deterministic edges file, and an upload sent
// as a stream of small chunks.
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { eventually } from './eventually.js';

export async function waitForRanking(
  app: FastifyInstance,
  location: string,
  timeoutMs = 30_000,
): Promise<Record<string, unknown> & { status: string }> {
  return eventually(
    async () => {
      const response = await app.inject({ method: 'GET', url: location });
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      if (body.status !== 'completed' && body.status !== 'failed') throw new Error(`still ${body.status}`);
      return body;
    },
    { message: `ranking ${location} to end`, timeoutMs },
  );
}

// A deterministic graph of 300 vertices and ~1,500 edges (a ring plus strides), with names of mixed length.
export function ringFile(): string {
  const n = 300;
  const lines = [String(n)];
  for (let u = 0; u < n; u++) {
    for (const stride of [1, 7, 31, 97, u % 13 === 0 ? 150 : 0]) {
      if (stride > 0) lines.push(`page-${u} page-${(u + stride) % n}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

// The upload as a request stream of small chunks, so the service sees it arrive piece by piece.
export function streamed(text: string, chunkBytes = 512): Readable {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkBytes) chunks.push(bytes.subarray(i, i + chunkBytes));
  return Readable.from(chunks);
}
