// A crawl's link graph: read in batches and built in typed arrays (what rankings and reports compute on),
// and exported as the edges file of docs/reference.md#graph-file or as JSON, in chunks a turn each.

import { edgesFileChunks } from '../../crawler/rank/edges-file.js';
import { GraphBuilder, type GraphBuilderOptions } from '../../crawler/rank/graph.js';
import type { VertexStructure } from '../../crawler/rank/structure.js';
import type { CrawlsRepository } from '../../db/crawls-repo.js';
import type { TenantScope } from '../../db/tenant-scope.js';
import { chunksByTurn } from '../presentation/event-loop-turns.js';
import { type CrawlGraph, requireCrawl } from './crawl-reader.js';

export class CrawlGraphReads {
  constructor(private readonly options: { repository: CrawlsRepository }) {}

  /** The crawl's link graph (crawl-reader.ts), read in batches and built in typed arrays. */
  async linkGraph(id: string, scope: TenantScope, options: GraphBuilderOptions = {}): Promise<CrawlGraph> {
    const crawl = await requireCrawl(this.options.repository, id, scope);
    // a topic crawl capped by pages fetched holds the fetched pages and the edges between them
    const { request } = crawl;
    const fetchedOnly = request.strategy === 'topic' && request.topic.cap === 'fetched';
    const builder = new GraphBuilder(options);
    const vertexOf = new Map<number, number>();
    const pageIds: number[] = [];
    await this.options.repository.readGraph(id, fetchedOnly, {
      vertices: (rows) => {
        for (const row of rows) {
          const vertex = builder.addVertex(row.url);
          vertexOf.set(row.id, vertex);
          if (vertex === pageIds.length) pageIds.push(row.id);
        }
      },
      edges: (rows) => {
        for (const row of rows) {
          const from = vertexOf.get(row.from_page);
          const to = vertexOf.get(row.to_page);
          if (from !== undefined && to !== undefined) builder.addEdgeById(from, to);
        }
      },
    });
    return { graph: builder.build(), pageIds: Float64Array.from(pageIds) };
  }

  /** The crawl's link graph as the edges file of docs/reference.md#graph-file, in chunks of text. */
  async edgesFile(id: string, scope: TenantScope): Promise<AsyncIterable<string>> {
    const { graph } = await this.linkGraph(id, scope);
    return chunksByTurn(edgesFileChunks(graph));
  }
}

/** Vertices or edges per chunk of a graph's JSON (about 150 KB of edges, 1 MB of vertices): a turn each. */
const JSON_ITEMS_PER_CHUNK = 8_192;

/**
 * A crawl graph as the JSON GET /v1/crawls/:id/graph?format=json answers, `{vertices: [{id, url, clustering,
 * weakComponent, strongComponent}], edges: [[from, to]]}` by page id, in chunks of text.
 */
export function* graphJsonChunks(
  { graph, pageIds }: CrawlGraph,
  structure: VertexStructure,
): Generator<string, void, undefined> {
  let parts: string[] = [];
  yield '{"vertices":[';
  for (let v = 0; v < graph.vertexCount; v++) {
    parts.push(
      `${v === 0 ? '' : ','}{"id":${pageIds[v]},"url":${JSON.stringify(graph.names[v])},` +
        `"clustering":${structure.clustering[v]},"weakComponent":${structure.weakComponent[v]},` +
        `"strongComponent":${structure.strongComponent[v]}}`,
    );
    if (parts.length === JSON_ITEMS_PER_CHUNK) {
      yield parts.join('');
      parts = [];
    }
  }
  parts.push('],"edges":[');
  let first = true;
  for (let u = 0; u < graph.vertexCount; u++) {
    const end = graph.outOffsets[u + 1]!;
    for (let j = graph.outOffsets[u]!; j < end; j++) {
      parts.push(`${first ? '' : ','}[${pageIds[u]},${pageIds[graph.outTargets[j]!]}]`);
      first = false;
      if (parts.length === JSON_ITEMS_PER_CHUNK) {
        yield parts.join('');
        parts = [];
      }
    }
  }
  parts.push(']}');
  yield parts.join('');
}
