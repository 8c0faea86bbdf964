// HTTP entry: config → runtime (database, queues, in-process worker unless RUN_WORKER=false) → listen.
// SIGINT/SIGTERM close gracefully: stop listening, stop taking jobs, hand crawl runners back, close pools.
import { pino } from 'pino';
import { buildApp } from './app.js';
import { closeOnSignals, configOrExit, runEntry, StartError, shutdownDeadlineMs } from './entry.js';
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
  if (config.allowedPrivateRanges.length > 0) {
    log.info({ allowed: config.allowedPrivateRanges }, 'private targets are refused but for these ranges');
  } else if (!config.allowPrivateNetworks) {
    log.info('private and loopback targets are refused (ALLOW_PRIVATE_NETWORKS=false)');
  }
  // the port first: a server that cannot listen must not have started taking crawl jobs
  try {
    await server.listen({ port: config.port, host: config.host });
  } catch (error) {
    await server.close();
    await runtime.close();
    throw listenError(error, config.port, config.host);
  }
  if (config.runWorker) runtime.startWorker();
  // In order: HTTP (requests in progress end; live streams, which never end by themselves, are cut after the
  // grace), workers (runners go back to the queue), queues, pools, and the embedded PostgreSQL last.
  close = async () => {
    const cut = setTimeout(() => server.server.closeAllConnections(), config.shutdownGraceMs);
    await server.close();
    clearTimeout(cut);
    await runtime.close();
  };
});

/** A listen failure the operator can fix (the port taken, or not theirs to take), told with what to set. */
function listenError(error: unknown, port: number, host: string): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    return new StartError(
      `port ${port} on ${host} is in use; set PORT to another port (or HOST to another address)`,
    );
  }
  if (code === 'EACCES') {
    return new StartError(`port ${port} on ${host} needs privileges this process lacks; set PORT above 1023`);
  }
  if (code === 'EADDRNOTAVAIL') {
    return new StartError(
      `${host} is not an address of this machine; set HOST to one (0.0.0.0: every address)`,
    );
  }
  return error;
}
