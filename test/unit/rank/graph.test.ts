import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GraphBuilder } from '../../../src/crawler/rank/graph.js';
import { StringNameTable, Utf8NameTable } from '../../../src/crawler/rank/names.js';
import { InputError, TrawlError } from '../../../src/errors.js';

test('build lays out out-edges as CSR, with degrees and interned names', () => {
  const builder = new GraphBuilder();
  assert.equal(builder.addVertex('lonely'), 0);
  assert.equal(builder.addEdge('a', 'c'), 'added');
  assert.equal(builder.addEdge('a', 'b'), 'added');
  assert.equal(builder.addEdge('b', 'c'), 'added');
  assert.equal(builder.addEdge('c', 'a'), 'added');
  assert.equal(builder.addVertex('a'), 1);
  const graph = builder.build();
  assert.equal(graph.vertexCount, 4);
  assert.equal(graph.edgeCount, 4);
  assert.deepEqual(graph.names, ['lonely', 'a', 'c', 'b']);
  assert.equal(graph.indexOf('c'), 2);
  assert.equal(graph.indexOf('zzz'), undefined);
  // ids: lonely 0, a 1, c 2, b 3; out-adjacency sorted by target id.
  assert.deepEqual([...graph.outOffsets], [0, 0, 2, 3, 4]);
  assert.deepEqual([...graph.outTargets], [2, 3, 1, 2]);
  assert.deepEqual([...graph.outDegree], [0, 2, 1, 1]);
  assert.deepEqual([...graph.inDegree], [0, 1, 2, 1]);
});

test('self-loops: reject throws an InputError, drop counts them', () => {
  const strict = new GraphBuilder();
  assert.throws(
    () => strict.addEdge('a', 'a'),
    (e: unknown) => e instanceof InputError && e.detail?.from === 'a' && /self-loop/.test(e.message),
  );
  const lenient = new GraphBuilder({ selfLoops: 'drop' });
  assert.equal(lenient.addEdge('a', 'a'), 'self-loop');
  assert.equal(lenient.addEdge('a', 'b'), 'added');
  const graph = lenient.build();
  assert.equal(graph.edgeCount, 1);
  assert.equal(graph.droppedSelfLoops, 1);
});

test('duplicate edges: reject names the first repeat, drop keeps one copy', () => {
  const strict = new GraphBuilder();
  for (const [from, to] of [
    ['a', 'b'],
    ['b', 'c'],
    ['c', 'a'],
    ['b', 'c'],
    ['a', 'b'],
  ] as const)
    strict.addEdge(from, to);
  assert.throws(
    () => strict.build(),
    (e: unknown) =>
      e instanceof InputError && e.detail?.edge === 3 && e.detail.from === 'b' && e.detail.to === 'c',
  );

  const lenient = new GraphBuilder({ duplicateEdges: 'drop' });
  // Many repeats on one vertex exercise the long-adjacency sort path too.
  for (let i = 0; i < 100; i++) lenient.addEdge('hub', `t${i % 40}`);
  lenient.addEdge('t1', 'hub');
  lenient.addEdge('t1', 'hub');
  const graph = lenient.build();
  assert.equal(graph.edgeCount, 41);
  assert.equal(graph.droppedDuplicates, 61);
  assert.equal(graph.outDegree[graph.indexOf('hub')!], 40);
  assert.equal(graph.inDegree[graph.indexOf('hub')!], 1);
  assert.equal(graph.inDegree[graph.indexOf('t39')!], 1);
});

test('limits and one build per builder', () => {
  const few = new GraphBuilder({ maxVertices: 2 });
  few.addEdge('a', 'b');
  assert.throws(() => few.addVertex('c'), InputError);
  const short = new GraphBuilder({ maxEdges: 1 });
  short.addEdge('a', 'b');
  assert.throws(() => short.addEdge('b', 'a'), InputError);
  const once = new GraphBuilder();
  once.addEdge('a', 'b');
  once.build();
  assert.throws(() => once.build(), TrawlError);
  assert.throws(() => once.addEdge('b', 'a'), TrawlError);
});

test('names interned by content, not by string identity, across many vertices', () => {
  for (const table of [new StringNameTable(), new Utf8NameTable()]) {
    const builder = new GraphBuilder({}, table);
    for (let i = 0; i < 5000; i++) builder.addVertex(`https://example.org/page/${i}`);
    const line = 'https://example.org/page/4999 https://example.org/page/7';
    builder.addEdge(line.slice(0, 29), line.slice(30));
    builder.addVertex('Zürich Ωmega');
    const graph = builder.build();
    assert.equal(graph.vertexCount, 5001);
    assert.equal(graph.outTargets[graph.outOffsets[4999]!], 7);
    for (let i = 0; i < 5000; i += 499) assert.equal(graph.indexOf(`https://example.org/page/${i}`), i);
    assert.equal(graph.indexOf('Zürich Ωmega'), 5000);
    assert.equal(graph.names[5000], 'Zürich Ωmega');
    assert.equal(graph.indexOf('https://example.org/page/'), undefined);
  }
});

test('the UTF-8 table looks names up inside a byte buffer and decodes each name once', () => {
  const table = new Utf8NameTable();
  const bytes = Buffer.from('alpha beta alpha Ωmega');
  assert.equal(table.internBytes(bytes, 0, 5), 0);
  assert.equal(table.internBytes(bytes, 6, 10), 1);
  assert.equal(table.internBytes(bytes, 11, 16), 0);
  assert.equal(table.internBytes(bytes, 17, bytes.length), 2);
  assert.equal(table.isName(0, bytes, 11, 16), true);
  assert.equal(table.isName(1, bytes, 11, 16), false);
  assert.equal(table.nameOf(2), 'Ωmega');
  assert.deepEqual(table.freeze(), ['alpha', 'beta', 'Ωmega']);
  const ascii = new Utf8NameTable();
  for (let i = 0; i < 3000; i++) ascii.internString(`v${i}`);
  const names = ascii.freeze();
  assert.equal(names.length, 3000);
  assert.equal(names[2999], 'v2999');
  assert.equal(ascii.indexOf('v1234'), 1234);
});

test('build({ vertexCount }) adds unnamed, isolated vertices after the named ones', () => {
  const builder = new GraphBuilder({ maxVertices: 5 });
  builder.addEdge('a', 'b');
  const graph = builder.build({ vertexCount: 4 });
  assert.equal(graph.vertexCount, 4);
  assert.equal(graph.namedVertexCount, 2);
  assert.deepEqual(graph.names, ['a', 'b']);
  assert.deepEqual([...graph.outDegree], [1, 0, 0, 0]);
  assert.deepEqual([...graph.inDegree], [0, 1, 0, 0]);
  assert.deepEqual([...graph.outOffsets], [0, 1, 1, 1, 1]);
  const few = new GraphBuilder();
  few.addEdge('a', 'b');
  assert.throws(() => few.build({ vertexCount: 1 }), TrawlError);
  const limited = new GraphBuilder({ maxVertices: 3 });
  limited.addEdge('a', 'b');
  assert.throws(() => limited.build({ vertexCount: 4 }), InputError);
});

test('the UTF-8 table tells apart names that share bytes, around its 8-byte inline keys', () => {
  const table = new Utf8NameTable();
  // ≤ 8 bytes are keyed by their bytes and length, longer ones by hash and arena bytes: pairs across the edge.
  const names = [
    'a',
    'a\u0000',
    '\u0000a',
    '',
    '12345678',
    '123456789',
    '1234567',
    '12345679',
    'Ωmega',
    'Ωmeg',
  ];
  for (let i = 0; i < 20_000; i++) names.push(`p${i}`, `page/${i}/x`);
  for (const [id, name] of names.entries()) assert.equal(table.internString(name), id, name);
  for (const [id, name] of names.entries()) assert.equal(table.internString(name), id, name);
  for (const [id, name] of names.entries()) assert.equal(table.indexOf(name), id, name);
  assert.equal(table.indexOf('a\u0000\u0000'), undefined);
  assert.equal(table.indexOf('1234567890'), undefined);
  assert.deepEqual(table.freeze(), names);
  const bytes = Buffer.from('p7 page/7/x p7 a Ωmega');
  const ids = new Int32Array(5);
  table.internAll(bytes, Int32Array.of(0, 3, 12, 15, 17), Int32Array.of(2, 11, 14, 16, bytes.length), ids, 5);
  assert.deepEqual([...ids], [names.indexOf('p7'), names.indexOf('page/7/x'), names.indexOf('p7'), 0, 8]);
});

test('numbered names find their id by value, and only canonical decimals below the limit are numbered', () => {
  // reserve(10) numbers the values below 4 · 10 + 1024 = 1064; everything else is hashed.
  const names = ['7', '007', '07', '0', '00', '+7', '-7', '7x', '1063', '1064', '123456789', '1234567890'];
  names.push('4294967303', '٧', 'p7', '70', '700', '1');
  for (let i = 2000; i > 1000; i -= 7) names.push(String(i));
  const numbered = new Utf8NameTable();
  numbered.reserve(10);
  const hashed = new Utf8NameTable();
  for (const [id, name] of names.entries()) {
    assert.equal(numbered.internString(name), id, name);
    assert.equal(hashed.internString(name), id, name);
  }
  for (const [id, name] of names.entries()) {
    assert.equal(numbered.internString(name), id, name);
    assert.equal(numbered.indexOf(name), id, name);
  }
  for (const absent of ['8', '008', '1065', '0007', '12345678'])
    assert.equal(numbered.indexOf(absent), undefined);
  // In a batch, new numbered and hashed names take ids in order, repeats within the batch included.
  const bytes = Buffer.from('9 09 9 1064 2 1064 07 5000');
  const starts = Int32Array.of(0, 2, 5, 7, 12, 14, 19, 22);
  const ends = Int32Array.of(1, 4, 6, 11, 13, 18, 21, bytes.length);
  const ids = new Int32Array(8);
  numbered.internAll(bytes, starts, ends, ids, 8);
  const n = names.length;
  assert.deepEqual([...ids], [n, n + 1, n, names.indexOf('1064'), n + 2, names.indexOf('1064'), 2, n + 3]);
  assert.equal(numbered.isName(n, bytes, 0, 1), true);
  assert.equal(numbered.isName(n, bytes, 2, 4), false);
  assert.deepEqual(numbered.freeze(), [...names, '9', '09', '2', '5000']);
});

test('addEdgesById builds what addEdgeById builds, and stops before the edge addEdgeById would refuse', () => {
  // Sources grouped and not, a self-loop, a repeat: three vertices, ids 0 … 2.
  const from = Int32Array.from([0, 0, 1, 1, 0, 2, 2, 0]);
  const to = Int32Array.from([1, 2, 1, 2, 1, 0, 1, 1]);
  const fresh = (options: ConstructorParameters<typeof GraphBuilder>[0]) => {
    const builder = new GraphBuilder(options);
    for (const name of ['a', 'b', 'c']) builder.addVertex(name);
    return builder;
  };
  const one = fresh({ selfLoops: 'drop', duplicateEdges: 'drop' });
  for (let k = 0; k < from.length; k++) one.addEdgeById(from[k]!, to[k]!);
  const batch = fresh({ selfLoops: 'drop', duplicateEdges: 'drop' });
  assert.equal(batch.addEdgesById(from.subarray(0, 3), to.subarray(0, 3), 3), 3);
  assert.equal(batch.addEdgesById(from.subarray(3), to.subarray(3), 5), 5);
  const { indexOf: _batchIndexOf, ...built } = batch.build();
  const { indexOf: _oneIndexOf, ...expected } = one.build();
  assert.deepEqual(built, expected);

  // A self-loop under 'reject' and an edge past maxEdges: taken up to them, then addEdgeById throws.
  const rejecting = fresh({ selfLoops: 'reject' });
  assert.equal(rejecting.addEdgesById(from, to, from.length), 2);
  assert.throws(() => rejecting.addEdgeById(from[2]!, to[2]!), InputError);
  const capped = fresh({ selfLoops: 'drop', maxEdges: 4 });
  assert.equal(capped.addEdgesById(from, to, from.length), 5);
  assert.equal(capped.edgeCount, 4);
  assert.throws(() => capped.addEdgeById(from[5]!, to[5]!), InputError);
  assert.throws(() => fresh({}).addEdgesById(Int32Array.of(0), Int32Array.of(3), 1), TrawlError);
});
