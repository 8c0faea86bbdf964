// HTTP entry: config → runtime (database, queues, in-process worker unless RUN_WORKER=false) → listen.
// SIGINT/SIGTERM close gracefully: stop listening, stop taking jobs, give in-flight URLs back, close pools.
import { pino } from 'pino';
import { buildApp } from './app.js';
import { closeOnSignals, configOrExit, runEntry } from './entry.js';
import { openRuntime } from './runtime.js';

runEntry('trawl', async () => {
  const config = configOrExit('trawl');
  const log = pino({ level: config.logLevel });
  const runtime = await openRuntime(config, log);
  const server = await buildApp({ runtime, logger: log });
  if (config.runWorker) runtime.startWorker();
  if (!config.allowPrivateNetworks) {
    log.info('private and loopback targets are refused (ALLOW_PRIVATE_NETWORKS=false)');
  }
  await server.listen({ port: config.port, host: config.host });
  closeOnSignals(async (signal) => {
    server.log.info({ signal }, 'shutting down');
    await server.close();
    await runtime.close();
  });
});
