import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as cheerio from 'cheerio';
import {
  parseEdgesFile,
  parseEdgesStream,
  splitLines,
  toGexf,
  writeEdgesFile,
} from '../../../src/crawler/rank/edges-file.js';
import { GraphBuilder } from '../../../src/crawler/rank/graph.js';
import { pageRank } from '../../../src/crawler/rank/pagerank.js';
import { InputError } from '../../../src/errors.js';

const sample = ['# a comment before the header', '', '4', 'a b', '  a\tc  ', '# note', 'b c', 'c a', ''];

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

function rejectsAtLine(line: number, pattern: RegExp) {
  return (e: unknown) =>
    e instanceof InputError && e.field === 'body' && e.detail?.line === line && pattern.test(e.message);
}

test('parses the header, edges, comments and blank lines', async () => {
  const { graph, declaredVertices } = await parseEdgesFile(sample);
  assert.equal(declaredVertices, 4);
  // N is the declared 4: the fourth vertex is named by no edge, so it is unnamed (and isolated).
  assert.equal(graph.vertexCount, 4);
  assert.equal(graph.namedVertexCount, 3);
  assert.equal(graph.edgeCount, 4);
  assert.deepEqual([...graph.outDegree], [2, 1, 1, 0]);
  assert.deepEqual([...graph.inDegree], [1, 1, 2, 0]);
  assert.deepEqual(graph.names, ['a', 'b', 'c']);
});

test('the header must be a non-negative integer', async () => {
  for (const header of ['-1', '1.5', 'four', '1e3', '3 3']) {
    await assert.rejects(parseEdgesFile(['# c', header, 'a b']), rejectsAtLine(2, /vertex count/));
  }
  await assert.rejects(parseEdgesFile(['', '# only comments']), rejectsAtLine(3, /empty/));
  const zero = await parseEdgesFile(['0']);
  assert.equal(zero.graph.vertexCount, 0);
});

test('malformed lines, too many vertices, self-loops and duplicates name their line', async () => {
  await assert.rejects(parseEdgesFile(['2', 'a b', 'lonely']), rejectsAtLine(3, /expected "from to"/));
  await assert.rejects(parseEdgesFile(['3', 'a b', '', 'a b c']), rejectsAtLine(4, /expected "from to"/));
  // a NUL cannot be stored in a vertex name: refused with its line, wherever it sits in the line
  for (const line of ['a\u0000 b', 'a b\u0000', '\u0000a b', 'a \u0000b', 'a\u0000b c']) {
    await assert.rejects(
      parseEdgesFile(['2', 'c d', line]),
      rejectsAtLine(3, /vertex name must not contain a NUL/),
    );
    await assert.rejects(
      parseEdgesStream([Buffer.from(`2\nc d\n${line}\n`)]),
      rejectsAtLine(3, /vertex name must not contain a NUL/),
      JSON.stringify(line),
    );
  }
  // in a comment it is skipped with the comment; on the first line it is not a count
  assert.equal((await parseEdgesFile(['# \u0000', '2', 'a b'])).graph.edgeCount, 1);
  await assert.rejects(parseEdgesFile(['2\u0000', 'a b']), rejectsAtLine(1, /vertex count/));
  await assert.rejects(
    parseEdgesFile(['2', 'a b', 'b c']),
    rejectsAtLine(3, /more distinct vertices than the 2/),
  );
  await assert.rejects(parseEdgesFile(['2', 'a b', 'b b']), rejectsAtLine(3, /self-loop/));
  await assert.rejects(
    parseEdgesFile(['3', 'a b', '# x', 'b c', 'c a', '', 'b c', 'a b']),
    rejectsAtLine(7, /duplicate edge b → c/),
  );
  // lines that add no edge (comments, blanks, dropped self-loops) between edges still count
  await assert.rejects(
    parseEdgesFile(['# c', '3', 'a b', 'a a', '', 'b c', '# d', 'c a', 'a a', 'b c'], { selfLoops: 'drop' }),
    rejectsAtLine(10, /duplicate edge b → c/),
  );
  const lenient = await parseEdgesFile(['3', 'a b', 'b b', 'a b'], {
    selfLoops: 'drop',
    duplicateEdges: 'drop',
  });
  assert.equal(lenient.graph.edgeCount, 1);
  await assert.rejects(parseEdgesFile(['1', 'a b'], { field: 'file' }), (e: unknown) => {
    return e instanceof InputError && e.field === 'file' && e.detail?.line === 2;
  });
});

test('splitLines handles CRLF, a BOM and UTF-8 split across chunks', async () => {
  const text = '\ufeff2\r\nZürich Ωmega\r\nΩmega Zürich';
  const bytes = Buffer.from(text, 'utf8');
  const oneByteChunks = [...bytes].map((b) => Buffer.from([b]));
  assert.deepEqual(await collect(splitLines(oneByteChunks)), ['2', 'Zürich Ωmega', 'Ωmega Zürich']);
  assert.deepEqual(await collect(splitLines(['a\n', '\nb\r', '\n'])), ['a', '', 'b']);
  const { graph } = await parseEdgesFile(splitLines(oneByteChunks));
  assert.deepEqual(graph.names, ['Zürich', 'Ωmega']);
  const streamed = await parseEdgesStream(oneByteChunks);
  assert.deepEqual(streamed.graph.names, ['Zürich', 'Ωmega']);
  assert.deepEqual([...streamed.graph.outTargets], [...graph.outTargets]);
});

test('splitLines refuses a line longer than the limit', async () => {
  await assert.rejects(
    collect(splitLines(['1\nab', 'cdefgh', 'ij\n'], { maxLineLength: 5 })),
    (e: unknown) => e instanceof InputError && e.detail?.line === 2,
  );
});

test('writeEdgesFile round-trips through the parser', async () => {
  const builder = new GraphBuilder();
  builder.addVertex('isolated');
  for (const [from, to] of [
    ['x', 'y'],
    ['y', 'z'],
    ['z', 'x'],
    ['x', 'z'],
  ] as const)
    builder.addEdge(from, to);
  const graph = builder.build();
  const text = writeEdgesFile(graph);
  assert.equal(text, '4\nx y\nx z\ny z\nz x\n');
  const back = await parseEdgesFile(text.split('\n'));
  assert.equal(back.declaredVertices, 4);
  assert.equal(back.graph.vertexCount, 4);
  assert.equal(back.graph.edgeCount, 4);
  assert.deepEqual(back.graph.names, ['x', 'y', 'z']);
  // The isolated vertex lost its name, not its rank: same PageRank, bit for bit, vertex by vertex.
  const before = pageRank(graph, { epsilon: 1e-12 }).ranks;
  const after = pageRank(back.graph, { epsilon: 1e-12 }).ranks;
  for (const name of ['x', 'y', 'z']) {
    assert.equal(after[back.graph.indexOf(name)!], before[graph.indexOf(name)!], name);
  }
  assert.equal(after[3], before[graph.indexOf('isolated')!]);
  const spaced = new GraphBuilder();
  spaced.addEdge('a b', 'c');
  assert.throws(() => writeEdgesFile(spaced.build()), InputError);
});

test('toGexf writes GEXF 1.3 that parses back with every node, edge and attribute', () => {
  const builder = new GraphBuilder();
  for (const [from, to] of [
    ['Tom & Jerry', '<b>"quoted"</b>'],
    ['<b>"quoted"</b>', 'plain'],
    ['plain', 'Tom & Jerry'],
    ['plain', 'bad\u0001char'],
  ] as const)
    builder.addEdge(from, to);
  const graph = builder.build();
  const { ranks } = pageRank(graph);
  const xml = toGexf(graph, { pageRank: ranks });
  assert.ok(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>'));

  const $ = cheerio.load(xml, { xml: true });
  assert.equal($('gexf').attr('version'), '1.3');
  assert.equal($('gexf').attr('xmlns'), 'http://gexf.net/1.3');
  assert.equal($('graph').attr('defaultedgetype'), 'directed');
  assert.deepEqual(
    $('attributes[class="node"] attribute')
      .toArray()
      .map((a) => $(a).attr('id')),
    ['pageRank', 'inDegree', 'outDegree'],
  );
  const nodes = $('nodes > node').toArray();
  assert.equal(nodes.length, graph.vertexCount);
  assert.equal($('edges > edge').length, graph.edgeCount);
  const labels = nodes.map((n) => $(n).attr('label'));
  assert.deepEqual(labels, ['Tom & Jerry', '<b>"quoted"</b>', 'plain', 'bad\ufffdchar']);
  for (const node of nodes) {
    const id = Number($(node).attr('id'));
    const value = (name: string) => Number($(node).find(`attvalue[for="${name}"]`).attr('value'));
    assert.equal(value('pageRank'), ranks[id]);
    assert.equal(value('inDegree'), graph.inDegree[id]);
    assert.equal(value('outDegree'), graph.outDegree[id]);
  }
  const edges = $('edges > edge')
    .toArray()
    .map((e) => `${$(e).attr('source')}>${$(e).attr('target')}`);
  assert.deepEqual(edges, ['0>1', '1>2', '2>0', '2>3']);
  assert.equal(
    countElements(xml),
    1 + 1 + 1 + 1 + 1 + 3 + 1 + graph.vertexCount * 5 + 1 + graph.edgeCount,
    'gexf, meta, creator, graph, attributes, 3 attribute, nodes, node+attvalues+3 attvalue each, edges, edge',
  );
});

// A tiny XML walk (no regular expressions): counts elements and checks that every tag closes in order.
function countElements(xml: string): number {
  const stack: string[] = [];
  let count = 0;
  let i = xml.indexOf('?>') + 2;
  while (true) {
    const open = xml.indexOf('<', i);
    if (open < 0) break;
    const close = xml.indexOf('>', open);
    assert.ok(close > open, 'unterminated tag');
    const tag = xml.slice(open + 1, close);
    assert.ok(!tag.includes('<'), 'raw < inside a tag');
    if (tag.startsWith('/')) {
      assert.equal(stack.pop(), tag.slice(1));
    } else {
      count++;
      const name = tag.split(' ')[0]!.replace('/', '');
      if (!tag.endsWith('/')) stack.push(name);
    }
    i = close + 1;
  }
  assert.deepEqual(stack, []);
  return count;
}

test('parseEdgesStream: lines cut across chunks, the header limit, byte-long lines and bad UTF-8', async () => {
  const text = '\ufeff# header next\n3\r\nalpha beta\r\n\r\nbeta  gamma\n# done\ngamma alpha';
  const bytes = Buffer.from(text);
  for (const size of [1, 2, 3, 5, 64]) {
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
    const { graph } = await parseEdgesStream(chunks);
    assert.deepEqual(graph.names, ['alpha', 'beta', 'gamma'], `chunks of ${size}`);
    assert.equal(graph.edgeCount, 3);
    await assert.rejects(
      parseEdgesStream([...chunks, Buffer.from('\nalpha beta')]),
      rejectsAtLine(8, /duplicate edge alpha → beta/),
    );
    await assert.rejects(
      parseEdgesStream([...chunks, Buffer.from('\nbad line here\n')]),
      rejectsAtLine(8, /expected "from to", got "bad line here"/),
    );
  }
  // N is the graph's size, so it may not pass the vertex limit, named or not
  await assert.rejects(parseEdgesStream(['5\na b\n'], { maxVertices: 4 }), (e: unknown) => {
    return e instanceof InputError && e.detail?.line === 1 && e.detail?.maxVertices === 4;
  });
  // the stream's limit counts bytes: ü is 2
  await assert.rejects(parseEdgesStream(['2\nüü ab\n'], { maxLineLength: 6 }), rejectsAtLine(2, /6 bytes/));
  await assert.rejects(
    parseEdgesStream(['2\nabcd', 'efgh', 'ijkl'], { maxLineLength: 7 }),
    rejectsAtLine(2, /7 bytes/),
  );
  assert.equal((await parseEdgesStream(['2\nüü ab\r\n'], { maxLineLength: 7 })).graph.edgeCount, 1);
  // A byte that is not UTF-8 reads as U+FFFD, as the text would: two spellings of it are one vertex.
  const bad = Buffer.concat([Buffer.from('3\na\xff b\n', 'latin1'), Buffer.from('b a\ufffd\nb c\n')]);
  const { graph } = await parseEdgesStream([bad]);
  assert.deepEqual(graph.names, ['a\ufffd', 'b', 'c']);
  assert.equal(graph.edgeCount, 3);
});

test('numbered vertices: "7" and "007" are different names, and ids follow first appearance', async () => {
  const text = '5\n7 007\n007 3\n3 7\n12 7\n';
  const { graph } = await parseEdgesStream([text]);
  assert.deepEqual(graph.names, ['7', '007', '3', '12']);
  assert.equal(graph.vertexCount, 5);
  assert.equal(graph.indexOf('7'), 0);
  assert.equal(graph.indexOf('007'), 1);
  assert.equal(graph.indexOf('07'), undefined);
  assert.deepEqual([...graph.outDegree], [1, 1, 1, 1, 0]);
  assert.deepEqual([...graph.inDegree], [2, 1, 1, 0, 0]);
  const same = await parseEdgesFile(text.split('\n'));
  assert.deepEqual(same.graph.names, graph.names);
});
