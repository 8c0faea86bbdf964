// The rank domain: CSR link graphs and their vertex-name tables, their edges-file and GEXF forms, PageRank
// and degree analysis, and the graph's structure figures.

export {
  ANALYSIS_DEFAULTS,
  type AnalyzeOptions,
  analyzeGraph,
  type GraphAnalysis,
  jaccard,
  type RankedVertex,
  summarizeRanks,
  topK,
} from './analysis.js';
export {
  edgesFileChunks,
  type GexfAttributes,
  gexfChunks,
  type ParsedEdgesFile,
  type ParseEdgesOptions,
  parseEdgesFile,
  parseEdgesStream,
  type SplitLinesOptions,
  splitLines,
  toGexf,
  writeEdgesFile,
} from './edges-file.js';
export {
  type AddEdgeResult,
  DEFAULT_EDGE_POLICY,
  type EdgePolicy,
  type Graph,
  GraphBuilder,
  type GraphBuilderOptions,
} from './graph.js';
export { StringNameTable, Utf8NameTable, type VertexNameTable } from './names.js';
export { PAGERANK_DEFAULTS, type PageRankOptions, type PageRankResult, pageRank } from './pagerank.js';
export {
  type ComponentFigures,
  DEFAULT_WORK_BUDGET,
  type DiameterFigures,
  type DistanceBounds,
  type GraphStructure,
  type GraphTopology,
  graphStructure,
  type StructureOptions,
  type VertexStructure,
} from './structure.js';
