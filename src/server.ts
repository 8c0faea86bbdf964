// HTTP entry: config → runtime (database, queues, in-process worker unless RUN_WORKER=false) → listen.
// SIGINT/SIGTERM close gracefully: stop listening, stop taking jobs, hand crawl runners back, close pools.
import { pino } from 'pino';
import { buildApp } from './app.js';
import { closeOnSignals, configOrExit, runEntry, shutdownDeadlineMs } from './entry.js';
import { openRuntime } from './runtime.js';

runEntry('trawl', async () => {
  const config = configOrExit('trawl');
  const log = pino({ level: config.logLevel });
  // A signal while starting (initdb and the embedded server take seconds) exits at once: the embedded
  // server is stopped by its exit hook. Once up, trawl closes in order (see below).
  let close = async () => {};
  closeOnSignals(async (signal) => {
    log.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down');
    await close();
  }, shutdownDeadlineMs(config));
  const runtime = await openRuntime(config, log);
  close = () => runtime.close();
  const server = await buildApp({ runtime, logger: log });
  if (config.runWorker) runtime.startWorker();
  if (config.allowedPrivateRanges.length > 0) {
    log.info({ allowed: config.allowedPrivateRanges }, 'private targets are refused but for these ranges');
  } else if (!config.allowPrivateNetworks) {
    log.info('private and loopback targets are refused (ALLOW_PRIVATE_NETWORKS=false)');
  }
  await server.listen({ port: config.port, host: config.host });
  // In order: HTTP (requests in progress end; live streams, which never end by themselves, are cut after the
  // grace), workers (runners go back to the queue), queues, pools, and the embedded PostgreSQL last.
  close = async () => {
    const cut = setTimeout(() => server.server.closeAllConnections(), config.shutdownGraceMs);
    await server.close();
    clearTimeout(cut);
    await runtime.close();
  };
});
