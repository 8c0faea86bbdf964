// The `corpus` job: builds one stored corpus (services/corpora.ts buildCorpus). The corpus' source lives in
// PostgreSQL, so a retried or retaken job simply builds it again from the start; terms are replaced atomically.
import type { Job } from 'bullmq';
import type { CorporaRepository } from '../../db/corpora-repo.js';
import { buildCorpus, type CorpusBuildLogger } from '../../services/corpora.js';
import type { DocumentFetcher } from '../../services/documents.js';
import { CORPUS_QUEUE, type CorpusJobData, type JobBackend } from '../queues.js';

export interface CorpusProcessorDeps {
  repository: CorporaRepository;
  jobs: JobBackend;
  /** The worker's own fetcher behind it, apart from the API's. */
  documents: DocumentFetcher;
  log: CorpusBuildLogger & { error(object: object, message: string): void };
  /** Aborted when this process shuts down. */
  shutdown: AbortSignal;
}

export function corpusProcessor(deps: CorpusProcessorDeps) {
  return async (job: Job<CorpusJobData>) => {
    const { corpusId } = job.data;
    try {
      const exit = await buildCorpus(corpusId, {
        repository: deps.repository,
        documents: deps.documents,
        log: deps.log,
        signal: deps.shutdown,
      });
      if (exit === 'aborted') {
        // This process is shutting down mid-build: whichever worker is next builds it again.
        await deps.jobs.queue(CORPUS_QUEUE).add('corpus', job.data, {
          jobId: `${corpusId}.${Date.now()}`,
          attempts: 2,
          removeOnComplete: 1000,
        });
      }
      return { corpusId, exit };
    } catch (error) {
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
        const message = error instanceof Error ? error.message : String(error);
        await deps.repository.fail(corpusId, message, null);
      }
      throw error;
    }
  };
}
