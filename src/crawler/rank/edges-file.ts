// The edges file of docs/reference.md#graph-file (first line the vertex count N, then one `from to` edge per
// line): a streaming parser into a Graph, its writer, a line splitter for byte or text streams, and a
// GEXF 1.3 export (gexf.net/1.3) so a ranked graph opens in Gephi.
//
// Format accepted, line by line (lines end in \n or \r\n; a UTF-8 BOM is ignored):
// - blank lines and lines whose first non-blank character is `#` are skipped anywhere, also before the header;
// - the first other line is the vertex count N, a non-negative decimal integer: the graph has N vertices.
//   More distinct names than N is an error; fewer leaves vertices that no edge names (isolated vertices, which
//   an edge list cannot name): they are ranked as dangling pages and counted as unnamed (Graph.namedVertexCount);
// - every later line is exactly two names separated by spaces or tabs; a name is any run of non-blank
//   characters (so `a b # note` is three fields, a malformed line, not an edge with a comment).
//
// The parser scans bytes: no string per line and none per name occurrence. Names are interned from the
// chunk they arrive in (Utf8NameTable) and decoded once each when the graph is built; a line that spans two
// chunks is the only one copied. A string per line would make reading a graph cost many times ranking it;
// scanning bytes, with names of up to 8 bytes keyed inline in the table, keeps the read within a small
// multiple of the ranking (`npm run bench -- rank`, docs/benchmarks.md#rank).

import { isUtf8 } from 'node:buffer';
import { StringDecoder } from 'node:string_decoder';
import { InputError, TrawlError } from '../../errors.js';
import { unstorableText } from '../text/pg-safe.js';
import { DEFAULT_EDGE_POLICY, type Graph, GraphBuilder, type GraphBuilderOptions } from './graph.js';
import { Utf8NameTable } from './names.js';
import type { VertexStructure } from './structure.js';

export interface ParseEdgesOptions extends GraphBuilderOptions {
  /** The input's field name in errors (default 'body'). */
  field?: string;
}

export interface ParsedEdgesFile {
  graph: Graph;
  /** N, the first line's count: graph.vertexCount, of which graph.namedVertexCount are named by edges. */
  declaredVertices: number;
}

const SPACE = 0x20;
const TAB = 0x09;
const HASH = 0x23;
const CR = 0x0d;
const LF = 0x0a;
const ZERO = 0x30;
const NINE = 0x39;
const DEFAULT_MAX_LINE_BYTES = 1 << 20;
// Edges whose names are looked up together (a few hundred KB of table and names in the cache at once).
const BATCH_EDGES = 1024;

// Each byte's part in a line: a name byte (anything above space, and control characters other than NUL, tab,
// \n and \r), a blank between names, the line's end, or a NUL, which PostgreSQL cannot store in a name: it
// ends a name, so its line takes the slow path (#scanLines), which refuses it.
const NAME = 0;
const BLANK = 1;
const NEWLINE = 2;
const NUL = 3;
const BYTE_CLASS = new Uint8Array(256);
BYTE_CLASS[SPACE] = BLANK;
BYTE_CLASS[TAB] = BLANK;
BYTE_CLASS[CR] = BLANK;
BYTE_CLASS[LF] = NEWLINE;
BYTE_CLASS[0] = NUL;

/** Parses an edges file given line by line (see the format above); errors name the 1-based line. */
export async function parseEdgesFile(
  lines: AsyncIterable<string> | Iterable<string>,
  options: ParseEdgesOptions = {},
): Promise<ParsedEdgesFile> {
  const parser = new EdgesFileParser(options);
  for await (const line of lines) parser.push(`${line}\n`);
  return parser.finish();
}

/**
 * parseEdgesFile reading straight from a byte stream (chunks need not end at line ends): the same graph as
 * `parseEdgesFile(splitLines(chunks))`, scanned as bytes. maxLineLength counts a line's UTF-8 bytes here.
 */
export async function parseEdgesStream(
  chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  options: ParseEdgesOptions & SplitLinesOptions = {},
): Promise<ParsedEdgesFile> {
  const parser = new EdgesFileParser(options);
  for await (const chunk of chunks) parser.push(chunk);
  return parser.finish();
}

class EdgesFileParser {
  readonly #field: string;
  readonly #maxLineBytes: number;
  readonly #names = new Utf8NameTable();
  readonly #builder: GraphBuilder;
  #lineNumber = 0;
  #declared = -1;
  // The source of the previous edge: edge lists usually come grouped by source, so it is tried first.
  #lastFrom = -1;
  // The line of each accepted edge, so that a duplicate found by build() can be reported by line, kept as
  // the steps of (line − edge ordinal), which grows only past lines that add no edge: a few entries for a
  // file whose comments sit at the top, instead of one per edge.
  readonly #lines: EdgeLines | undefined;
  // Edges gathered by #scanLines, as positions in the bytes being scanned, for #addEdges.
  readonly #batchFromStart = new Int32Array(BATCH_EDGES);
  readonly #batchFromEnd = new Int32Array(BATCH_EDGES);
  readonly #batchToStart = new Int32Array(BATCH_EDGES);
  readonly #batchToEnd = new Int32Array(BATCH_EDGES);
  readonly #batchLines = new Int32Array(BATCH_EDGES);
  // The names #addEdges looks up, in line order (a source only when it is not the line before's), their ids.
  readonly #batchNewFrom = new Uint8Array(BATCH_EDGES);
  readonly #nameStarts = new Int32Array(2 * BATCH_EDGES);
  readonly #nameEnds = new Int32Array(2 * BATCH_EDGES);
  readonly #nameIds = new Int32Array(2 * BATCH_EDGES);
  // The batch's edges as ids, for the builder's batch add.
  readonly #batchFrom = new Int32Array(BATCH_EDGES);
  readonly #batchTo = new Int32Array(BATCH_EDGES);
  #batchSize = 0;
  // The start of a line whose end has not arrived yet.
  #carry = new Uint8Array(4096);
  #carryLength = 0;

  constructor(options: ParseEdgesOptions & SplitLinesOptions) {
    this.#field = options.field ?? 'body';
    this.#maxLineBytes = options.maxLineLength ?? DEFAULT_MAX_LINE_BYTES;
    this.#builder = new GraphBuilder(options, this.#names);
    if ((options.duplicateEdges ?? DEFAULT_EDGE_POLICY) === 'reject') this.#lines = new EdgeLines();
  }

  push(chunk: Buffer | string): void {
    // One array type in the scanning loop, whatever the chunk's class (Buffer, Uint8Array, text).
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
    let start = 0;
    if (this.#carryLength > 0) {
      const newline = bytes.indexOf(LF);
      if (newline < 0) {
        this.#appendCarry(bytes, 0, bytes.length);
        return;
      }
      this.#appendCarry(bytes, 0, newline + 1);
      const length = this.#carryLength;
      this.#carryLength = 0;
      this.#scanLines(this.#carry, 0, length);
      start = newline + 1;
    }
    const last = bytes.lastIndexOf(LF);
    if (last < start) {
      this.#appendCarry(bytes, start, bytes.length);
      return;
    }
    this.#scanLines(bytes, start, last + 1);
    if (last + 1 < bytes.length) this.#appendCarry(bytes, last + 1, bytes.length);
  }

  finish(): ParsedEdgesFile {
    if (this.#carryLength > 0) {
      const length = this.#carryLength;
      this.#carryLength = 0;
      this.#scanLines(this.#carry, 0, length);
    }
    if (this.#declared < 0) {
      throw this.#error('edges file is empty: the first line must be the vertex count', this.#lineNumber + 1);
    }
    try {
      return {
        graph: this.#builder.build({ vertexCount: this.#declared }),
        declaredVertices: this.#declared,
      };
    } catch (error) {
      const edge = error instanceof InputError ? error.detail?.edge : undefined;
      if (typeof edge === 'number' && this.#lines) {
        const line = this.#lines.lineOf(edge);
        throw this.#error(
          `line ${line}: ${(error as InputError).message}`,
          line,
          (error as InputError).detail,
        );
      }
      throw error;
    }
  }
  /**
   * Reads the lines of bytes[start, end): each ends in \n, except a last one at the end of the input. The
   * loop is the hot path of a big upload: bytes are classed by a table, edges are gathered as positions
   * (no string is made unless for an error) and their names interned a batch at a time (#addEdges).
   */
  #scanLines(bytes: Uint8Array, start: number, end: number): void {
    let i = start;
    while (i < end) {
      const lineStart = i;
      const lineNumber = ++this.#lineNumber;
      if (lineNumber === 1 && bytes[i] === 0xef && bytes[i + 1] === 0xbb && bytes[i + 2] === 0xbf) i += 3;
      while (i < end && BYTE_CLASS[bytes[i]!] === BLANK) i++;
      if (i === end) break;
      if (bytes[i] === LF) {
        i++;
        continue;
      }
      if (bytes[i] === HASH) {
        const newline = bytes.indexOf(LF, i);
        const lineEnd = newline < 0 || newline >= end ? end : newline;
        this.#checkLength(bytes, lineStart, lineEnd);
        i = lineEnd + 1;
        continue;
      }
      // `union` ORs the names' bytes: a line with one ≥ 0x80 (non-ASCII) is checked to be UTF-8.
      let union = 0;
      const fromStart = i;
      while (i < end && BYTE_CLASS[bytes[i]!] === NAME) union |= bytes[i++]!;
      const fromEnd = i;
      while (i < end && BYTE_CLASS[bytes[i]!] === BLANK) i++;
      const toStart = i;
      while (i < end && BYTE_CLASS[bytes[i]!] === NAME) union |= bytes[i++]!;
      const toEnd = i;
      while (i < end && BYTE_CLASS[bytes[i]!] === BLANK) i++;
      let lineEnd = i;
      const thirdField = i < end && bytes[i] !== LF;
      if (thirdField) {
        const newline = bytes.indexOf(LF, i);
        lineEnd = newline < 0 || newline >= end ? end : newline;
      }
      i = lineEnd + 1;
      if (lineEnd - lineStart > this.#maxLineBytes || union >= 0x80 || thirdField || this.#declared < 0) {
        // The rare lines, one at a time, after the edges gathered before them (whose errors come first).
        this.#addEdges(bytes);
        this.#checkLength(bytes, lineStart, lineEnd);
        if (thirdField && this.#declared >= 0 && bytes.subarray(lineStart, lineEnd).includes(0)) {
          const unstorable = unstorableText(lineText(bytes, lineStart, lineEnd));
          throw this.#error(`line ${lineNumber}: a vertex name ${unstorable}`, lineNumber);
        }
        if (union >= 0x80 && !isUtf8(bytes.subarray(lineStart, lineEnd))) {
          // Read as text, each bad sequence would be U+FFFD: the names are interned as that text reads.
          this.#lineNumber--;
          const text = Buffer.from(bytes.subarray(lineStart, lineEnd)).toString('utf8');
          const repaired = Buffer.from(text, 'utf8');
          this.#scanLines(
            new Uint8Array(repaired.buffer, repaired.byteOffset, repaired.length),
            0,
            repaired.length,
          );
          continue;
        }
        if (this.#declared < 0) {
          this.#declared = this.#parseHeader(
            bytes,
            fromStart,
            fromEnd,
            toStart === toEnd && !thirdField,
            lineStart,
            lineEnd,
          );
          this.#names.reserve(this.#declared);
          continue;
        }
      }
      if (toStart === toEnd || thirdField) {
        this.#addEdges(bytes);
        throw this.#error(
          `line ${lineNumber}: expected "from to", got ${preview(lineText(bytes, lineStart, lineEnd))}`,
          lineNumber,
        );
      }
      const k = this.#batchSize++;
      this.#batchFromStart[k] = fromStart;
      this.#batchFromEnd[k] = fromEnd;
      this.#batchToStart[k] = toStart;
      this.#batchToEnd[k] = toEnd;
      this.#batchLines[k] = lineNumber;
      if (k + 1 === BATCH_EDGES) this.#addEdges(bytes);
    }
    this.#addEdges(bytes);
  }

  /** Interns the names of the gathered edges (positions in `bytes`) and adds the edges, in line order. */
  #addEdges(bytes: Uint8Array): void {
    const count = this.#batchSize;
    if (count === 0) return;
    this.#batchSize = 0;
    const builder = this.#builder;
    const lines = this.#batchLines;
    const fromStarts = this.#batchFromStart;
    const fromEnds = this.#batchFromEnd;
    const toStarts = this.#batchToStart;
    const toEnds = this.#batchToEnd;
    // A source mostly repeats the line before's (edge lists come grouped by source), which the bytes of the
    // two lines tell, side by side in the chunk: only the other sources are looked up. The first edge's
    // source is compared with the previous batch's, whose bytes may be gone: by its name in the table.
    const newFrom = this.#batchNewFrom;
    const nameStarts = this.#nameStarts;
    const nameEnds = this.#nameEnds;
    let names = 0;
    for (let k = 0; k < count; k++) {
      const start = fromStarts[k]!;
      const end = fromEnds[k]!;
      let same: boolean;
      if (k === 0) {
        same = this.#lastFrom >= 0 && this.#names.isName(this.#lastFrom, bytes, start, end);
      } else {
        const previous = fromStarts[k - 1]!;
        same = fromEnds[k - 1]! - previous === end - start;
        for (let i = 0; same && i < end - start; i++) same = bytes[start + i] === bytes[previous + i];
      }
      newFrom[k] = same ? 0 : 1;
      if (!same) {
        nameStarts[names] = start;
        nameEnds[names++] = end;
      }
      nameStarts[names] = toStarts[k]!;
      nameEnds[names++] = toEnds[k]!;
    }
    const ids = this.#nameIds;
    this.#names.internAll(bytes, nameStarts, nameEnds, ids, names);
    // More names than declared shows as an id ≥ N (ids count names in order of first appearance): the
    // edges before the first such one are added, and that one too, since the builder's error comes first.
    const declared = this.#declared;
    const froms = this.#batchFrom;
    const tos = this.#batchTo;
    let from = this.#lastFrom;
    let next = 0;
    let undeclared = -1;
    for (let k = 0; k < count; k++) {
      if (newFrom[k] === 1) from = ids[next++]!;
      const to = ids[next++]!;
      froms[k] = from;
      tos[k] = to;
      if (undeclared < 0 && (from >= declared || to >= declared)) undeclared = k;
    }
    const adding = undeclared < 0 ? count : undeclared + 1;
    const firstEdge = builder.edgeCount;
    const taken = builder.addEdgesById(froms, tos, adding);
    if (this.#lines) {
      let edge = firstEdge;
      for (let k = 0; k < taken; k++) if (froms[k] !== tos[k]) this.#lines.add(edge++, lines[k]!);
    }
    if (taken < adding) {
      // The edge the builder refused: addEdgeById throws its error, placed on its line.
      try {
        builder.addEdgeById(froms[taken]!, tos[taken]!);
      } catch (error) {
        if (error instanceof InputError) {
          throw this.#error(`line ${lines[taken]}: ${error.message}`, lines[taken]!, error.detail);
        }
        throw error;
      }
      throw new TrawlError('internal', `the graph builder refused edge ${taken} of a batch without an error`);
    }
    if (undeclared >= 0) {
      throw this.#error(
        `line ${lines[undeclared]}: more distinct vertices than the ${declared} declared on the first line`,
        lines[undeclared]!,
        { declaredVertices: declared },
      );
    }
    this.#lastFrom = from;
  }

  #parseHeader(
    bytes: Uint8Array,
    start: number,
    end: number,
    oneField: boolean,
    lineStart: number,
    lineEnd: number,
  ): number {
    const lineNumber = this.#lineNumber;
    let digits = oneField;
    for (let i = start; digits && i < end; i++) digits = bytes[i]! >= ZERO && bytes[i]! <= NINE;
    const count = digits
      ? Number(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('latin1'))
      : Number.NaN;
    if (!Number.isSafeInteger(count)) {
      const text = lineText(bytes, lineStart, lineEnd).replace(/^[ \t\r\ufeff]+|[ \t\r]+$/g, '');
      throw this.#error(
        `line ${lineNumber}: the first line must be the vertex count (a non-negative integer), got ${preview(text)}`,
        lineNumber,
      );
    }
    const { maxVertices } = this.#builder;
    if (count > maxVertices) {
      throw this.#error(`line ${lineNumber}: graph has more than ${maxVertices} vertices`, lineNumber, {
        maxVertices,
      });
    }
    return count;
  }

  // A line's length without its \r\n, in bytes.
  #checkLength(bytes: Uint8Array, lineStart: number, lineEnd: number): void {
    const length =
      lineEnd > lineStart && bytes[lineEnd - 1] === CR ? lineEnd - 1 - lineStart : lineEnd - lineStart;
    if (length > this.#maxLineBytes) this.#tooLong(this.#lineNumber);
  }

  #appendCarry(bytes: Uint8Array, start: number, end: number): void {
    const needed = this.#carryLength + end - start;
    if (needed > this.#carry.length) {
      let capacity = 2 * this.#carry.length;
      while (capacity < needed) capacity *= 2;
      const larger = new Uint8Array(capacity);
      larger.set(this.#carry.subarray(0, this.#carryLength));
      this.#carry = larger;
    }
    this.#carry.set(bytes.subarray(start, end), this.#carryLength);
    this.#carryLength = needed;
    // A line still without its end must not grow without bound (a body with no newline at all).
    const partial = this.#carry[needed - 1] === LF ? 0 : needed - (this.#carry[needed - 1] === CR ? 1 : 0);
    if (partial > this.#maxLineBytes) this.#tooLong(this.#lineNumber + 1);
  }

  #tooLong(line: number): never {
    throw this.#error(`line ${line} is longer than ${this.#maxLineBytes} bytes`, line);
  }

  #error(message: string, line: number, detail?: Record<string, unknown>): InputError {
    return new InputError(message, this.#field, { ...detail, line });
  }
}

function lineText(bytes: Uint8Array, start: number, end: number): string {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8');
  return text.endsWith('\r') ? text.slice(0, -1) : text;
}

/** The line of each edge, as the steps of (line − edge ordinal): edges are added in order, lines ascending. */
class EdgeLines {
  #edges = new Int32Array(16);
  #shifts = new Int32Array(16);
  #count = 0;
  #shift = -1;

  add(edge: number, line: number): void {
    const shift = line - edge;
    if (shift === this.#shift) return;
    this.#shift = shift;
    if (this.#count === this.#edges.length) {
      this.#edges = grow(this.#edges);
      this.#shifts = grow(this.#shifts);
    }
    this.#edges[this.#count] = edge;
    this.#shifts[this.#count++] = shift;
  }

  lineOf(edge: number): number {
    // the last step at or before the edge
    let low = 0;
    let high = this.#count - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.#edges[middle]! <= edge) low = middle;
      else high = middle - 1;
    }
    return edge + this.#shifts[low]!;
  }
}

function grow(values: Int32Array): Int32Array<ArrayBuffer> {
  const larger = new Int32Array(2 * values.length);
  larger.set(values);
  return larger;
}

function preview(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
}

export interface SplitLinesOptions {
  /** A longer line is an InputError (a body without newlines must not grow one string without bound). */
  maxLineLength?: number;
  field?: string;
}

/**
 * Splits a byte or text stream into lines (\n or \r\n; the \r is dropped, a UTF-8 BOM too), decoding UTF-8
 * across chunk boundaries and holding only the current partial line, never the whole input.
 */
export async function* splitLines(
  chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  options: SplitLinesOptions = {},
): AsyncGenerator<string, void, undefined> {
  const splitter = new LineSplitter(options);
  const batch: string[] = [];
  const collect = (line: string) => {
    batch.push(line);
  };
  for await (const chunk of chunks) {
    splitter.push(chunk, collect);
    yield* batch;
    batch.length = 0;
  }
  splitter.end(collect);
  yield* batch;
}

class LineSplitter {
  readonly #decoder = new StringDecoder('utf8');
  readonly #maxLineLength: number;
  readonly #field: string;
  #partial = '';
  #lineNumber = 0;
  #started = false;

  constructor(options: SplitLinesOptions) {
    this.#maxLineLength = options.maxLineLength ?? 1 << 20;
    this.#field = options.field ?? 'body';
  }

  push(chunk: Buffer | string, emit: (line: string) => void): void {
    let text = this.#partial + (typeof chunk === 'string' ? chunk : this.#decoder.write(chunk));
    if (!this.#started && text.length > 0) {
      this.#started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let start = 0;
    for (let newline = text.indexOf('\n'); newline >= 0; newline = text.indexOf('\n', start)) {
      this.#emit(text, start, newline, emit);
      start = newline + 1;
    }
    this.#partial = start === 0 ? text : text.slice(start);
    if (this.#partial.length > this.#maxLineLength) this.#tooLong(this.#lineNumber + 1);
  }

  end(emit: (line: string) => void): void {
    const text = this.#partial + this.#decoder.end();
    this.#partial = '';
    if (text.length > 0) this.#emit(text, 0, text.length, emit);
  }

  #emit(text: string, start: number, newline: number, emit: (line: string) => void): void {
    const end = newline > start && text.charCodeAt(newline - 1) === CR ? newline - 1 : newline;
    this.#lineNumber++;
    if (end - start > this.#maxLineLength) this.#tooLong(this.#lineNumber);
    emit(text.slice(start, end));
  }

  #tooLong(line: number): never {
    throw new InputError(`line ${line} is longer than ${this.#maxLineLength} characters`, this.#field, {
      line,
    });
  }
}

/** Lines per chunk: about 1 MB of GEXF, a short turn for the event loop between chunks, yet few chunks. */
const LINES_PER_CHUNK = 8_192;

/** The edges file of a graph, in chunks of text (for streaming a big graph to a file or a response). */
export function* edgesFileChunks(graph: Graph): Generator<string, void, undefined> {
  const { names, outOffsets, outTargets, namedVertexCount } = graph;
  for (let u = 0; u < namedVertexCount; u++) {
    const name = names[u]!;
    if (name === '' || /[ \t\r\n]/.test(name) || (name.startsWith('#') && graph.outDegree[u]! > 0)) {
      throw new InputError(`vertex name ${preview(name)} cannot be written to an edges file`, 'graph', {
        vertex: name,
      });
    }
  }
  yield `${graph.vertexCount}\n`;
  let lines: string[] = [];
  // Unnamed vertices (ids from namedVertexCount on) have no edges: the count on the first line stands for them.
  for (let u = 0; u < namedVertexCount; u++) {
    const from = names[u]!;
    const end = outOffsets[u + 1]!;
    for (let j = outOffsets[u]!; j < end; j++) {
      lines.push(`${from} ${names[outTargets[j]!]!}\n`);
      if (lines.length === LINES_PER_CHUNK) {
        yield lines.join('');
        lines = [];
      }
    }
  }
  if (lines.length > 0) yield lines.join('');
}

/**
 * The edges file of a graph as one string: the vertex count (isolated vertices included), then the edges
 * grouped by source. Parsing it gives back the same vertex count and the same names and edges, except that
 * isolated vertices have no line to name them: they come back unnamed, and rank as they did.
 */
export function writeEdgesFile(graph: Graph): string {
  return [...edgesFileChunks(graph)].join('');
}

export interface GexfAttributes {
  pageRank?: Float64Array;
  /** The per-vertex structure figures (structure.ts): clustering, weakComponent, strongComponent. */
  structure?: VertexStructure;
}

/**
 * GEXF 1.3 in chunks: node ids are vertex ids, labels the names; pageRank, inDegree, outDegree and, when given,
 * clustering, weakComponent and strongComponent as attributes.
 */
export function* gexfChunks(
  graph: Graph,
  attributes: GexfAttributes = {},
): Generator<string, void, undefined> {
  const { pageRank, structure } = attributes;
  if (pageRank !== undefined && pageRank.length !== graph.vertexCount) {
    throw new InputError(
      `pageRank has ${pageRank.length} values for ${graph.vertexCount} vertices`,
      'pageRank',
    );
  }
  if (structure !== undefined && structure.clustering.length !== graph.vertexCount) {
    throw new InputError(
      `structure has ${structure.clustering.length} values for ${graph.vertexCount} vertices`,
      'structure',
    );
  }
  yield '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<gexf xmlns="http://gexf.net/1.3" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"' +
    ' xsi:schemaLocation="http://gexf.net/1.3 http://gexf.net/1.3/gexf.xsd" version="1.3">\n' +
    '  <meta><creator>trawl</creator></meta>\n' +
    '  <graph defaultedgetype="directed" mode="static">\n' +
    '    <attributes class="node" mode="static">\n' +
    (pageRank ? '      <attribute id="pageRank" title="pageRank" type="double"/>\n' : '') +
    '      <attribute id="inDegree" title="inDegree" type="integer"/>\n' +
    '      <attribute id="outDegree" title="outDegree" type="integer"/>\n' +
    (structure
      ? '      <attribute id="clustering" title="clustering" type="double"/>\n' +
        '      <attribute id="weakComponent" title="weakComponent" type="integer"/>\n' +
        '      <attribute id="strongComponent" title="strongComponent" type="integer"/>\n'
      : '') +
    '    </attributes>\n' +
    '    <nodes>\n';
  let parts: string[] = [];
  for (let v = 0; v < graph.vertexCount; v++) {
    const rank = pageRank ? `<attvalue for="pageRank" value="${pageRank[v]}"/>` : '';
    // An unnamed vertex (an edges file's declared count) is a node without a label.
    const label = v < graph.namedVertexCount ? ` label="${escapeXml(graph.names[v]!)}"` : '';
    parts.push(
      `      <node id="${v}"${label}><attvalues>${rank}` +
        `<attvalue for="inDegree" value="${graph.inDegree[v]}"/>` +
        `<attvalue for="outDegree" value="${graph.outDegree[v]}"/>` +
        (structure
          ? `<attvalue for="clustering" value="${structure.clustering[v]}"/>` +
            `<attvalue for="weakComponent" value="${structure.weakComponent[v]}"/>` +
            `<attvalue for="strongComponent" value="${structure.strongComponent[v]}"/>`
          : '') +
        '</attvalues></node>\n',
    );
    if (parts.length === LINES_PER_CHUNK) {
      yield parts.join('');
      parts = [];
    }
  }
  parts.push('    </nodes>\n    <edges>\n');
  let edge = 0;
  for (let u = 0; u < graph.vertexCount; u++) {
    const end = graph.outOffsets[u + 1]!;
    for (let j = graph.outOffsets[u]!; j < end; j++) {
      parts.push(`      <edge id="${edge++}" source="${u}" target="${graph.outTargets[j]}"/>\n`);
      if (parts.length === LINES_PER_CHUNK) {
        yield parts.join('');
        parts = [];
      }
    }
  }
  parts.push('    </edges>\n  </graph>\n</gexf>\n');
  yield parts.join('');
}

export function toGexf(graph: Graph, attributes: GexfAttributes = {}): string {
  return [...gexfChunks(graph, attributes)].join('');
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

// Characters XML 1.0 forbids (C0 controls except tab/newline/return, lone surrogates, U+FFFE/U+FFFF)
// become U+FFFD so an odd vertex name cannot make the whole document unreadable.
function escapeXml(text: string): string {
  return text
    .replace(
      /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      '\ufffd',
    )
    .replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}
