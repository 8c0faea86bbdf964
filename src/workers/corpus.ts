// The `corpus` job: builds one stored corpus (services/use-cases/corpora.ts buildCorpus). The corpus' source lives in
// PostgreSQL, so a retried or retaken job simply builds it again from the start; terms are replaced atomically.
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import type { CorporaRepository } from '../db/corpora-repo.js';
import { isLastAttempt, queueCorpus } from '../jobs/producers.js';
import type { CorpusJobData, JobBackend } from '../jobs/queues.js';
import { buildCorpus } from '../services/use-cases/corpora.js';
import type { DocumentFetcher } from '../services/use-cases/documents.js';

export interface CorpusProcessorDeps {
  repository: CorporaRepository;
  jobs: JobBackend;
  /** The worker's own fetcher behind it, apart from the API's. */
  documents: DocumentFetcher;
  /** Each job logs through a child of it that names the corpus and the job. */
  log: Logger;
  /** Aborted when this process shuts down. */
  shutdown: AbortSignal;
}

export function corpusProcessor(deps: CorpusProcessorDeps) {
  return async (job: Job<CorpusJobData>) => {
    const { corpusId } = job.data;
    const log = deps.log.child({ corpusId, jobId: job.id });
    try {
      const exit = await buildCorpus(corpusId, {
        repository: deps.repository,
        documents: deps.documents,
        log,
        signal: deps.shutdown,
      });
      if (exit === 'aborted') {
        // This process is shutting down mid-build: whichever worker is next builds it again.
        await queueCorpus(deps.jobs, corpusId, true);
      }
      return { corpusId, exit };
    } catch (error) {
      if (isLastAttempt(job)) {
        const message = error instanceof Error ? error.message : String(error);
        await deps.repository.fail(corpusId, message, null);
      }
      throw error;
    }
  };
}
