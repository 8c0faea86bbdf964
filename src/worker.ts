// Worker entry (`npm run worker`): a crawl worker without HTTP. Run any number of these, on any machines,
// against the same DATABASE_URL (and REDIS_URL, when the queue runs on Redis).
import { pino } from 'pino';
import { closeOnSignals, configOrExit, runEntry, shutdownDeadlineMs } from './entry.js';
import { startMetricsServer } from './jobs/metrics.js';
import { openRuntime } from './runtime.js';

runEntry('trawl worker', async () => {
  const config = configOrExit('trawl worker');
  if (!config.databaseUrl) {
    process.stderr.write(
      'trawl worker: DATABASE_URL is required (a worker joins the database the API uses)\n',
    );
    process.exit(2);
  }
  const log = pino({ level: config.logLevel });
  const runtime = await openRuntime(config, log, { role: 'worker' });
  runtime.startWorker();
  log.info(
    { runnerJobs: config.workerConcurrency, queue: config.redisUrl ? 'redis' : 'postgres' },
    'worker started',
  );
  // Prometheus scrapes each worker process on its own port (the API's /metrics sees only its own process).
  const metricsServer =
    config.metricsPort > 0
      ? await startMetricsServer(runtime.metrics, {
          port: config.metricsPort,
          host: config.host,
          onError: (err) => log.error({ err }, 'metrics collection failed'),
        }).catch((err: unknown) => {
          // a taken port costs the metrics, not the worker
          log.error({ err, port: config.metricsPort }, 'worker metrics server could not listen');
          return null;
        })
      : null;
  if (metricsServer) log.info({ port: metricsServer.port }, 'worker metrics at /metrics');
  closeOnSignals(async (signal) => {
    log.info({ signal, graceMs: config.shutdownGraceMs }, 'worker shutting down');
    await metricsServer?.close();
    await runtime.close();
  }, shutdownDeadlineMs(config));
});
