// The rank domain: CSR link graphs, their edges-file and GEXF forms, PageRank and degree analysis.

export {
  type AnalyzeOptions,
  analyzeGraph,
  type GraphAnalysis,
  jaccard,
  type RankedVertex,
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
  type EdgePolicy,
  type Graph,
  GraphBuilder,
  type GraphBuilderOptions,
} from './graph.js';
export { type PageRankOptions, type PageRankResult, pageRank } from './pagerank.js';
