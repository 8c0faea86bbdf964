// The document pool's reader process entry (document-pool.ts forks it): serves reads until the pool goes.
import { readDocumentTask, serveDocumentReads } from './document-tasks.js';

serveDocumentReads(readDocumentTask);
