// POST /v1/rankings, POST /v1/crawls/:id/rank and the ranking resources: the one source of validation,
// TypeScript types and OpenAPI for PageRank and degree analysis (docs/reference.md#pagerank).
import { type Static, Type } from 'typebox';
import { ANALYSIS_DEFAULTS, DEFAULT_EDGE_POLICY } from '../crawler/rank/index.js';
import {
  Cursor,
  Defaulted,
  ListPage,
  Nullable,
  OwnedListQuery,
  Owner,
  PageQueryLimit,
  Uuid,
} from './common.js';

const EdgePolicy = (what: string) =>
  Type.Union([Type.Literal('reject'), Type.Literal('drop')], {
    default: DEFAULT_EDGE_POLICY,
    description: `reject: a ${what} is a 400 naming it; drop: it is skipped and counted`,
  });

const VertexName = Type.String({ minLength: 1, maxLength: 4096 });

/** The options of a ranking; the JSON body of POST /v1/crawls/:id/rank, the query string of an edges-file upload. */
export const RankingOptionsProperties = {
  damping: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 1,
      default: ANALYSIS_DEFAULTS.damping,
      description: 'β: probability of following a link',
    }),
  ),
  epsilon: Type.Optional(
    Type.Number({
      exclusiveMinimum: 0,
      maximum: 1,
      default: ANALYSIS_DEFAULTS.epsilon,
      description: 'stop when the L1 norm of the change is at most this',
    }),
  ),
  maxIterations: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 100_000,
      default: ANALYSIS_DEFAULTS.maxIterations,
      description: 'iteration cap; reaching it answers converged: false',
    }),
  ),
  topK: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 1000,
      default: ANALYSIS_DEFAULTS.topK,
      description: 'length of each top list',
    }),
  ),
  jaccardK: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 100_000,
      default: ANALYSIS_DEFAULTS.jaccardK,
      description: 'size of the top sets compared by Jaccard similarity',
    }),
  ),
  personalization: Type.Optional(
    Type.Array(VertexName, {
      minItems: 1,
      maxItems: 10_000,
      description:
        'topic-sensitive PageRank: teleport (and spread dangling rank) only to these vertices; each must be in the graph',
    }),
  ),
  selfLoops: Type.Optional(EdgePolicy('self-loop')),
  duplicateEdges: Type.Optional(EdgePolicy('repeated edge')),
};

export const RankingOptions = Type.Object(RankingOptionsProperties, { additionalProperties: false });
export type RankingOptions = Static<typeof RankingOptions>;

export const RankingRequest = Type.Object(
  {
    edges: Type.Array(Type.Array(VertexName, { minItems: 2, maxItems: 2 }), {
      description: 'directed edges as [from, to] vertex-name pairs',
    }),
    ...RankingOptionsProperties,
  },
  { additionalProperties: false },
);
export type RankingRequest = Static<typeof RankingRequest>;

// Schema-less on purpose: the body is a stream when validation runs, and the parser checks it line by line.
export const EdgesFileBody = Type.Unknown({
  description:
    'the edges file: first line the vertex count N, then one "from to" pair per line; blank lines and lines starting with # are skipped. All N vertices are ranked: those no edge names are unnamed (isolated, dangling), counted in unnamedVertices and never listed. Options go in the query string.',
});

/** The options a ranking ran with, as every ranking document shows them (normalizeRankingOptions). */
const RankedWith = {
  damping: Type.Number(),
  epsilon: Type.Number(),
  maxIterations: Type.Integer(),
  topK: Type.Integer(),
  jaccardK: Type.Integer(),
  personalization: Nullable(Type.Array(Type.String())),
};

const ComponentFigures = (which: string) =>
  Type.Object(
    {
      count: Type.Integer(),
      largest: Type.Integer({ description: 'vertices in the largest' }),
      sizes: Type.Array(Type.Integer(), { description: 'the ten largest sizes, largest first' }),
    },
    { description: which },
  );

const DistanceBounds = Type.Object({ lower: Type.Integer(), upper: Type.Integer() });

/** The structure figures of a ranked graph (docs/reference.md#graph-structure); the domain's GraphStructure. */
export const GraphFigures = Type.Object(
  {
    vertices: Type.Integer(),
    edges: Type.Integer({ description: 'distinct directed edges after the self-loop rule' }),
    averageDegree: Type.Number({ description: 'edges / vertices' }),
    density: Type.Number({ description: 'edges / (N (N − 1))' }),
    reciprocity: Type.Number({ description: 'the share of edges whose reverse edge exists too' }),
    isolated: Type.Integer({ description: 'vertices without any edge' }),
    components: Type.Object({
      weak: ComponentFigures('weakly connected components (edges taken both ways)'),
      strong: ComponentFigures('strongly connected components'),
    }),
    clustering: Type.Object(
      {
        average: Type.Number({
          description: 'mean local clustering coefficient, vertices of degree < 2 counting 0',
        }),
        transitivity: Type.Number({ description: '3 × triangles / connected triples' }),
      },
      { description: 'of the undirected simple graph (a pair linked either way is one edge)' },
    ),
    diameter: Type.Object({
      directed: Type.Integer({
        description:
          'the longest finite shortest path in hops, edges followed along; the lower bound unless exact',
      }),
      undirected: Type.Integer({ description: 'the same with edges taken both ways' }),
      averageShortestPath: Nullable(Type.Number(), {
        description:
          'mean directed shortest path over ordered pairs (u, v), u ≠ v, v reachable from u; over a sample of averageShortestPathSources sources unless exact; null with no connected pair',
      }),
      averageShortestPathSources: Type.Integer({
        description: 'sources whose searches the average covers (every vertex when exact)',
      }),
      exact: Type.Boolean({
        description:
          'both diameters closed and the average over every source; false: the work budget or deadline ended the searches, and bounds hold the diameters',
      }),
      bounds: Type.Object({ directed: DistanceBounds, undirected: DistanceBounds }),
      searches: Type.Integer({ description: 'breadth-first searches run' }),
    }),
  },
  { description: "the graph's structure figures (docs/reference.md#graph-structure)" },
);
export type GraphFigures = Static<typeof GraphFigures>;

const RankedByPageRank = Type.Array(Type.Object({ vertex: Type.String(), rank: Type.Number() }));
const RankedByDegree = Type.Array(Type.Object({ vertex: Type.String(), degree: Type.Integer() }));

export const Ranking = Type.Object({
  id: Uuid,
  status: Type.Literal('completed'),
  crawlId: Nullable(Uuid, { description: 'the crawl whose link graph was ranked' }),
  iterations: Type.Integer(),
  converged: Type.Boolean(),
  delta: Nullable(Type.Number(), {
    description: 'L1 norm of the last update (null when maxIterations is 0)',
  }),
  vertices: Type.Integer({
    description:
      'N, every vertex ranked (for an edges file, the count on its first line), unnamed ones included',
  }),
  unnamedVertices: Type.Integer({
    description:
      'vertices of an edges file that no edge names: ranked as dangling pages, never in top lists, Jaccard sets or vertex listings',
  }),
  edges: Type.Integer(),
  declaredVertices: Nullable(Type.Integer(), {
    description: 'the vertex count on the first line of an uploaded edges file',
  }),
  droppedSelfLoops: Type.Integer(),
  droppedDuplicates: Type.Integer(),
  ...RankedWith,
  top: Type.Object(
    {
      pageRank: RankedByPageRank,
      inDegree: RankedByDegree,
      outDegree: RankedByDegree,
    },
    { description: 'largest first; ties broken by vertex name (code-point order)' },
  ),
  jaccard: Type.Object(
    {
      'inDegree~pageRank': Type.Number(),
      'inDegree~outDegree': Type.Number(),
      'outDegree~pageRank': Type.Number(),
    },
    { description: 'Jaccard similarity |A∩B|/|A∪B| of the top-jaccardK sets' },
  ),
  graph: Nullable(GraphFigures, {
    description: 'null on a ranking stored before the structure figures were computed',
  }),
  createdAt: Type.String({ format: 'date-time' }),
  links: Type.Object({ self: Type.String(), vertices: Type.String() }),
});
export type Ranking = Static<typeof Ranking>;

/** A ranking computed by a `rank` job that has not completed: queued, running, or failed with its error. */
export const RankingJob = Type.Object({
  id: Uuid,
  status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('failed')], {
    description: 'poll GET /v1/rankings/:id until completed or failed',
  }),
  crawlId: Nullable(Uuid, { description: 'the crawl whose link graph is ranked' }),
  ...RankedWith,
  error: Nullable(
    Type.Object(
      {
        code: Type.String(),
        detail: Type.String(),
        field: Type.Optional(Type.String()),
        line: Type.Optional(Type.Integer({ description: 'the line of the edges file at fault' })),
      },
      { additionalProperties: true },
    ),
    { description: 'why a failed ranking failed: the problem the request would have answered' },
  ),
  createdAt: Type.String({ format: 'date-time' }),
  links: Type.Object({ self: Type.String(), vertices: Type.String() }),
});
export type RankingJob = Static<typeof RankingJob>;

/** GET /v1/rankings/:id: the completed ranking, or the state of its job. */
export const RankingOrJob = Type.Union([Ranking, RankingJob]);
export type RankingOrJob = Static<typeof RankingOrJob>;

export const RankingListQuery = OwnedListQuery;

/** A ranking as GET /v1/rankings lists it: its state and size (top lists on its own document). */
export const RankingListItem = Type.Object({
  id: Uuid,
  owner: Owner,
  status: Type.Union([
    Type.Literal('queued'),
    Type.Literal('running'),
    Type.Literal('completed'),
    Type.Literal('failed'),
  ]),
  crawlId: Nullable(Uuid, { description: 'the crawl whose link graph was ranked; null for an upload' }),
  vertices: Nullable(Type.Integer(), { description: 'null until completed' }),
  edges: Nullable(Type.Integer(), { description: 'null until completed' }),
  iterations: Nullable(Type.Integer(), { description: 'null until completed' }),
  error: Nullable(Type.String(), { description: "a failed ranking's problem detail" }),
  createdAt: Type.String({ format: 'date-time' }),
  links: Type.Object({ self: Type.String(), vertices: Type.String() }),
});
export type RankingListItem = Static<typeof RankingListItem>;

/** GET /v1/rankings: the caller's rankings newest first. */
export const RankingList = ListPage(RankingListItem);
export type RankingList = Static<typeof RankingList>;

export const VerticesQuery = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 4096, description: 'one vertex by name' })),
    sort: Defaulted(
      Type.Union([Type.Literal('-pageRank'), Type.Literal('-inDegree'), Type.Literal('-outDegree')], {
        default: '-pageRank',
        description: 'largest first; ties by vertex name',
      }),
    ),
    limit: Defaulted(PageQueryLimit),
    cursor: Type.Optional(Cursor),
  },
  { additionalProperties: false },
);
export type VerticesQuery = Static<typeof VerticesQuery>;

export const RankedVertex = Type.Object({
  vertex: Type.String(),
  pageRank: Type.Number(),
  inDegree: Type.Integer(),
  outDegree: Type.Integer(),
  clustering: Nullable(Type.Number(), {
    description: 'local clustering coefficient in the undirected simple graph (null on older rankings)',
  }),
  weakComponent: Nullable(Type.Integer(), {
    description: "the vertex's weak component, numbered by each component's first vertex",
  }),
  strongComponent: Nullable(Type.Integer(), { description: "the vertex's strong component" }),
});
export type RankedVertex = Static<typeof RankedVertex>;

export const VertexPage = ListPage(RankedVertex);
export type VertexPage = Static<typeof VertexPage>;

/** GET /v1/crawls/:id/graph: the crawl's graph formats, GEXF (for Gephi) carrying PageRank and degrees. */
export const GraphExportQuery = Type.Object(
  {
    format: Defaulted(
      Type.Union([Type.Literal('edges'), Type.Literal('json'), Type.Literal('gexf')], { default: 'edges' }),
    ),
  },
  { additionalProperties: false },
);

/** GET /v1/crawls/:id/graph?format=json: the crawl's pages as vertices by page id, its links as [from, to] pairs. */
export const LinkGraph = Type.Object({
  vertices: Type.Array(
    Type.Object({
      id: Type.Integer(),
      url: Type.String(),
      clustering: Type.Number({ description: 'local clustering coefficient in the undirected simple graph' }),
      weakComponent: Type.Integer({ description: "the page's weak component" }),
      strongComponent: Type.Integer({ description: "the page's strong component" }),
    }),
  ),
  edges: Type.Array(Type.Array(Type.Integer(), { minItems: 2, maxItems: 2 })),
});
export type LinkGraph = Static<typeof LinkGraph>;
