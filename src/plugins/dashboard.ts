// The dashboard at `/`: one HTML shell, its scripts (app.js and the chunks it imports) and one stylesheet, all
// served from this app, no external asset (it works offline) and a Content-Security-Policy without inline script.
// It is a client of /v1 only (web/dashboard/), so the pages themselves hold no data and are open; the data comes
// with the key the person enters. The scripts are bundled by esbuild: into dist/dashboard/ by the build (scripts/build.mjs), or in memory
// on first request when the app runs from its sources (tests, `npm run dev`). Hidden from OpenAPI.
import { readdir, readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const BUILT = new URL('../dashboard/', import.meta.url);
const SOURCES = new URL('../../web/dashboard/', import.meta.url);

export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; " +
  "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

const SHELL = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>trawl</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/dashboard/app.css">
<script type="module" src="/dashboard/app.js"></script>
</head>
<body>
<header><h1><a href="#/">trawl</a></h1>
<nav aria-label="Sections"><a href="#/">Crawls</a><a href="#/rankings">Rankings</a><a href="#/corpora">Corpora</a><a href="#/schedules">Schedules</a></nav>
<div id="key-slot"></div></header>
<main id="main" tabindex="-1"><p>Loading…</p></main>
</body>
</html>
`;

interface Assets {
  /** app.js and the chunks it imports, by file name */
  scripts: Map<string, string>;
  style: string;
}

let assets: Promise<Assets> | null = null;

async function loadAssets(): Promise<Assets> {
  try {
    const names = (await readdir(BUILT)).filter((name) => name.endsWith('.js'));
    const [style, ...texts] = await Promise.all([
      readFile(new URL('app.css', BUILT), 'utf8'),
      ...names.map((name) => readFile(new URL(name, BUILT), 'utf8')),
    ]);
    return { scripts: new Map(names.map((name, i) => [name, texts[i]!])), style };
  } catch {
    // running from src/: bundle now (esbuild comes with the development dependencies), as scripts/build.mjs does
    const esbuild = await import('esbuild');
    const result = await esbuild.build({
      entryPoints: { app: new URL('main.ts', SOURCES).pathname },
      bundle: true,
      splitting: true,
      format: 'esm',
      target: 'es2022',
      minify: true,
      outdir: new URL('out/', SOURCES).pathname,
      chunkNames: '[name]-[hash]',
      write: false,
    });
    const style = await readFile(new URL('styles.css', SOURCES), 'utf8');
    return { scripts: new Map(result.outputFiles.map((file) => [basename(file.path), file.text])), style };
  }
}

export default fp(async (app: FastifyInstance) => {
  const open = { auth: 'open' as const };
  const hidden = { hide: true };
  app.get('/', { config: open, schema: hidden }, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('content-security-policy', DASHBOARD_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-cache')
      .send(SHELL),
  );
  app.get<{ Params: { file: string } }>(
    '/dashboard/:file',
    { config: open, schema: hidden },
    async (request, reply) => {
      assets ??= loadAssets();
      const { scripts } = await assets;
      const script = scripts.get(request.params.file);
      if (script === undefined) return reply.callNotFound();
      return reply
        .type('text/javascript; charset=utf-8')
        .header('x-content-type-options', 'nosniff')
        .send(script);
    },
  );
  app.get('/dashboard/app.css', { config: open, schema: hidden }, async (_request, reply) => {
    assets ??= loadAssets();
    const { style } = await assets;
    return reply.type('text/css; charset=utf-8').header('x-content-type-options', 'nosniff').send(style);
  });
});
