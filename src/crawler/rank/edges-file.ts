// The edges file of docs/reference.md#graph-file (first line the vertex count, then one `from to` edge per line):
// a streaming parser into a Graph, its writer, a byte-stream line splitter for request bodies, and a
// GEXF 1.3 export (gexf.net/1.3) so a ranked graph opens in Gephi.
//
// Format accepted, line by line (lines end in \n or \r\n; a UTF-8 BOM is ignored):
// - blank lines and lines whose first non-blank character is `#` are skipped anywhere, also before the header;
// - the first other line is the vertex count, a non-negative decimal integer; it is an upper bound: more
//   distinct vertex names than declared is an error, fewer is allowed (an edge list cannot name a vertex
//   without edges, so the difference is the number of isolated vertices, reported as declaredVertices);
// - every later line is exactly two names separated by spaces or tabs; a name is any run of non-blank
//   characters (so `a b # note` is three fields, a malformed line, not an edge with a comment).

import { StringDecoder } from 'node:string_decoder';
import { InputError } from '../../errors.js';
import { DEFAULT_EDGE_POLICY, type Graph, GraphBuilder, type GraphBuilderOptions } from './graph.js';

export interface ParseEdgesOptions extends GraphBuilderOptions {
  /** The input's field name in errors (default 'body'). */
  field?: string;
}

export interface ParsedEdgesFile {
  graph: Graph;
  declaredVertices: number;
}

const SPACE = 0x20;
const TAB = 0x09;
const HASH = 0x23;
const CR = 0x0d;

/** Parses an edges file given line by line (see the format above); errors name the 1-based line. */
export async function parseEdgesFile(
  lines: AsyncIterable<string> | Iterable<string>,
  options: ParseEdgesOptions = {},
): Promise<ParsedEdgesFile> {
  const parser = new EdgesFileParser(options);
  for await (const line of lines) parser.push(line);
  return parser.finish();
}

/**
 * parseEdgesFile reading straight from a byte stream: the same result as
 * `parseEdgesFile(splitLines(chunks))`, without an await per line (about 3× faster on big bodies).
 */
export async function parseEdgesStream(
  chunks: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
  options: ParseEdgesOptions & SplitLinesOptions = {},
): Promise<ParsedEdgesFile> {
  const parser = new EdgesFileParser(options);
  const splitter = new LineSplitter(options);
  for await (const chunk of chunks) splitter.push(chunk, (line) => parser.push(line));
  splitter.end((line) => parser.push(line));
  return parser.finish();
}

class EdgesFileParser {
  readonly #field: string;
  readonly #builder: GraphBuilder;
  #lineNumber = 0;
  #declared = -1;
  // Line of each accepted edge, so that a duplicate found by build() can be reported by line.
  #edgeLines: Int32Array | undefined;

  constructor(options: ParseEdgesOptions) {
    this.#field = options.field ?? 'body';
    this.#builder = new GraphBuilder(options);
    if ((options.duplicateEdges ?? DEFAULT_EDGE_POLICY) === 'reject') this.#edgeLines = new Int32Array(1024);
  }

  push(line: string): void {
    const lineNumber = ++this.#lineNumber;
    const length = line.length;
    let start = 0;
    while (start < length && isBlank(line.charCodeAt(start))) start++;
    let end = length;
    while (end > start && isBlank(line.charCodeAt(end - 1))) end--;
    if (start === end || line.charCodeAt(start) === HASH) return;

    if (this.#declared < 0) {
      this.#declared = this.#parseHeader(line.slice(start, end), lineNumber);
      return;
    }
    let split = start;
    while (split < end && !isBlank(line.charCodeAt(split))) split++;
    let second = split;
    while (second < end && isBlank(line.charCodeAt(second))) second++;
    let scan = second;
    while (scan < end && !isBlank(line.charCodeAt(scan))) scan++;
    if (second === end || scan !== end) {
      throw this.#error(`line ${lineNumber}: expected "from to", got ${preview(line)}`, lineNumber);
    }
    const builder = this.#builder;
    try {
      if (builder.addEdgeFromSlices(line, start, split, second, end) === 'added' && this.#edgeLines) {
        const edge = builder.edgeCount - 1;
        if (edge === this.#edgeLines.length) this.#edgeLines = grow(this.#edgeLines);
        this.#edgeLines[edge] = lineNumber;
      }
    } catch (error) {
      if (error instanceof InputError) {
        throw this.#error(`line ${lineNumber}: ${error.message}`, lineNumber, error.detail);
      }
      throw error;
    }
    if (builder.vertexCount > this.#declared) {
      throw this.#error(
        `line ${lineNumber}: more distinct vertices than the ${this.#declared} declared on the first line`,
        lineNumber,
        { declaredVertices: this.#declared },
      );
    }
  }

  finish(): ParsedEdgesFile {
    if (this.#declared < 0) {
      throw this.#error('edges file is empty: the first line must be the vertex count', this.#lineNumber + 1);
    }
    try {
      return { graph: this.#builder.build(), declaredVertices: this.#declared };
    } catch (error) {
      const edge = error instanceof InputError ? error.detail?.edge : undefined;
      if (typeof edge === 'number' && this.#edgeLines) {
        const line = this.#edgeLines[edge]!;
        throw this.#error(
          `line ${line}: ${(error as InputError).message}`,
          line,
          (error as InputError).detail,
        );
      }
      throw error;
    }
  }

  #parseHeader(text: string, lineNumber: number): number {
    const count = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(count)) {
      throw this.#error(
        `line ${lineNumber}: the first line must be the vertex count (a non-negative integer), got ${preview(text)}`,
        lineNumber,
      );
    }
    return count;
  }

  #error(message: string, line: number, detail?: Record<string, unknown>): InputError {
    return new InputError(message, this.#field, { ...detail, line });
  }
}

function grow(values: Int32Array): Int32Array {
  const larger = new Int32Array(2 * values.length);
  larger.set(values);
  return larger;
}

function isBlank(code: number): boolean {
  return code === SPACE || code === TAB || code === CR;
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

const LINES_PER_CHUNK = 65_536;

/** The edges file of a graph, in chunks of text (for streaming a big graph to a file or a response). */
export function* edgesFileChunks(graph: Graph): Generator<string, void, undefined> {
  const { names, outOffsets, outTargets } = graph;
  for (let u = 0; u < graph.vertexCount; u++) {
    const name = names[u]!;
    if (name === '' || /[ \t\r\n]/.test(name) || (name.startsWith('#') && graph.outDegree[u]! > 0)) {
      throw new InputError(`vertex name ${preview(name)} cannot be written to an edges file`, 'graph', {
        vertex: name,
      });
    }
  }
  yield `${graph.vertexCount}\n`;
  let lines: string[] = [];
  for (let u = 0; u < graph.vertexCount; u++) {
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
 * grouped by source. Parsing it gives back the same names, edges and count, except that isolated vertices
 * have no line to name them (they come back as declaredVertices − vertexCount).
 */
export function writeEdgesFile(graph: Graph): string {
  return [...edgesFileChunks(graph)].join('');
}

export interface GexfAttributes {
  pageRank?: Float64Array;
}

/** GEXF 1.3 in chunks: node ids are vertex ids, labels the names; pageRank, inDegree, outDegree as attributes. */
export function* gexfChunks(
  graph: Graph,
  attributes: GexfAttributes = {},
): Generator<string, void, undefined> {
  const { pageRank } = attributes;
  if (pageRank !== undefined && pageRank.length !== graph.vertexCount) {
    throw new InputError(
      `pageRank has ${pageRank.length} values for ${graph.vertexCount} vertices`,
      'pageRank',
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
    '    </attributes>\n' +
    '    <nodes>\n';
  let parts: string[] = [];
  for (let v = 0; v < graph.vertexCount; v++) {
    const rank = pageRank ? `<attvalue for="pageRank" value="${pageRank[v]}"/>` : '';
    parts.push(
      `      <node id="${v}" label="${escapeXml(graph.names[v]!)}"><attvalues>${rank}` +
        `<attvalue for="inDegree" value="${graph.inDegree[v]}"/>` +
        `<attvalue for="outDegree" value="${graph.outDegree[v]}"/></attvalues></node>\n`,
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
