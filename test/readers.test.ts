import test from 'ava';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { TesseraError } from '../src/errors.js';
import { F32List, type U32List, type WeightList } from '../src/graph/chunked.js';
import { readGraphFile, readGraphalytics, readLineBlocks, type ReadGraphOptions } from '../src/graph/readers/index.js';
import { loadGraph } from '../src/graph/load.js';
import { GRAPHALYTICS, SNAP } from './helpers/paths.js';

let dir = '';
test.before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-readers-'));
});
test.after.always(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

let seq = 0;
/** Writes a fixture into the temp dir and returns its path. */
async function fixture(name: string, content: string | Buffer): Promise<string> {
  const sub = path.join(dir, String(seq++));
  await mkdir(sub, { recursive: true });
  const f = path.join(sub, name);
  await writeFile(f, content);
  return f;
}

function arr(l: U32List | WeightList | undefined): number[] {
  if (l === undefined) return [];
  const out: number[] = [];
  l.forEachChunk((c, k) => {
    for (let i = 0; i < k; i++) out.push(c[i]!);
  });
  return out;
}

function distinctIds(...lists: Array<U32List | undefined>): number {
  const s = new Set<number>();
  for (const l of lists) for (const x of arr(l)) s.add(x);
  return s.size;
}

/** Reads and expects a TesseraError whose message names the file, the line (if given) and the words. */
async function rejects(
  t: import('ava').ExecutionContext,
  file: string,
  opts: ReadGraphOptions,
  line: number | undefined,
  ...words: Array<string | RegExp>
): Promise<TesseraError> {
  const e = await t.throwsAsync(readGraphFile(file, opts), { instanceOf: TesseraError });
  const err = e as TesseraError;
  t.true(err.message.includes(file), `names the file: ${err.message}`);
  if (line !== undefined) {
    t.true(err.message.includes(`${file}:${line}:`), `names line ${line}: ${err.message}`);
    t.is(err.details.line, line);
  }
  t.is(typeof err.details.fix, 'string', `has a fix: ${err.message}`);
  t.true(err.message.includes('Fix:'));
  for (const w of words) {
    if (typeof w === 'string') t.true(err.message.includes(w), `mentions '${w}': ${err.message}`);
    else t.regex(err.message, w);
  }
  t.false(/\n\s+at /.test(err.message), 'no stack trace in the message');
  return err;
}

// ---------------------------------------------------------------------------------------------
// SNAP

const snapFiles: Array<[string, number, number]> = [
  ['facebook_combined.txt.gz', 4039, 88234],
  ['wiki-Vote.txt.gz', 7115, 103689],
  ['soc-Epinions1.txt.gz', 75879, 508837],
];
for (const [name, v, e] of snapFiles) {
  test(`SNAP ${name}: ${v} ids, ${e} edges`, async (t) => {
    const { raw, properties } = await readGraphFile(path.join(SNAP, name));
    t.is(raw.src.length, e);
    t.is(raw.dst.length, e);
    t.is(distinctIds(raw.src, raw.dst), v);
    t.is(raw.weights, undefined);
    t.is(raw.directed, true);
    t.is(raw.vertices, undefined);
    t.is(properties, undefined);
    t.is(raw.source, path.join(SNAP, name));
  });
}

test('SNAP wiki-Vote: first and last edge (CRLF, no final newline)', async (t) => {
  const { raw } = await readGraphFile(path.join(SNAP, 'wiki-Vote.txt.gz'));
  t.is(raw.src.get(0), 30);
  t.is(raw.dst.get(0), 1412);
  const m = raw.src.length;
  // The last line of the file: "8274\t8275" (no newline).
  t.deepEqual([raw.src.get(m - 1), raw.dst.get(m - 1)], [8274, 8275]);
});

// ---------------------------------------------------------------------------------------------
// Graphalytics

const ga: Array<[string, boolean, number, number, boolean]> = [
  ['example-directed', true, 10, 17, true],
  ['example-undirected', false, 9, 12, true],
  ['test-bfs-directed', true, 10, 17, false],
  ['test-bfs-undirected', false, 10, 14, false],
  ['test-cdlp-directed', true, 8, 18, false],
  ['test-cdlp-undirected', false, 8, 13, false],
  ['test-lcc-directed', true, 10, 17, false],
  ['test-lcc-undirected', false, 9, 12, false],
  ['test-pr-directed', true, 50, 246, false],
  ['test-pr-undirected', false, 50, 113, false],
  ['test-sssp-directed', true, 10, 13, true],
  ['test-sssp-undirected', false, 12, 14, true],
  ['test-wcc-directed', true, 8, 10, false],
  ['test-wcc-undirected', false, 8, 7, false],
];
for (const [name, directed, nv, ne, weighted] of ga) {
  test(`Graphalytics ${name}: |V|=${nv} |E|=${ne} ${directed ? 'directed' : 'undirected'}${weighted ? ' weighted' : ''}`, async (t) => {
    const { raw, properties } = await readGraphFile(path.join(GRAPHALYTICS, name));
    t.is(raw.vertices!.length, nv);
    t.is(distinctIds(raw.vertices, raw.src, raw.dst), nv);
    t.is(raw.src.length, ne);
    t.is(raw.directed, directed);
    t.is(raw.weights !== undefined, weighted);
    if (weighted) {
      t.is(raw.weights!.length, ne);
      t.is(raw.weightType, 'float64');
      t.true(arr(raw.weights).every((w) => Number.isFinite(w) && w >= 0));
    }
    t.truthy(properties);
    t.is(properties!.name, name);
    t.is(properties!.directed, directed);
    t.is(properties!.metaVertices, nv);
    t.is(properties!.metaEdges, ne);
    t.deepEqual(properties!.edgePropertyNames, weighted ? ['weight'] : []);
    t.is(properties!.edgeFile, path.join(GRAPHALYTICS, name, `${name}.e`));
    t.is(properties!.vertexFile, path.join(GRAPHALYTICS, name, `${name}.v`));
  });
}

test('Graphalytics example-directed: parameters and weights', async (t) => {
  const { raw, properties: p } = await readGraphalytics(path.join(GRAPHALYTICS, 'example-directed'));
  t.is(p.bfsSourceVertex, 1);
  t.is(p.prDampingFactor, 0.85);
  t.is(p.prNumIterations, 2);
  t.is(p.cdlpMaxIterations, 2);
  t.is(p.ssspWeightProperty, 'weight');
  t.is(p.ssspSourceVertex, 1);
  t.deepEqual(p.algorithms, ['bfs', 'cdlp', 'lcc', 'pr', 'sssp', 'wcc']);
  t.deepEqual(p.edgePropertyTypes, ['real']);
  t.is(p.values['vertex-file'], 'example-directed.v');
  // First lines of the .e: "1 3 0.5", "1 5 0.3", "2 4 0.1".
  t.deepEqual(arr(raw.src).slice(0, 3), [1, 1, 2]);
  t.deepEqual(arr(raw.dst).slice(0, 3), [3, 5, 4]);
  t.deepEqual(arr(raw.weights).slice(0, 3), [0.5, 0.3, 0.1]);
});

test('Graphalytics: the .e, .v, .properties or directory all name the same graph', async (t) => {
  const base = path.join(GRAPHALYTICS, 'test-wcc-directed', 'test-wcc-directed');
  const results = await Promise.all(
    [`${base}.e`, `${base}.v`, `${base}.properties`, path.dirname(base)].map((p) => readGraphFile(p)),
  );
  for (const r of results) {
    t.deepEqual(arr(r.raw.src), arr(results[0]!.raw.src));
    t.deepEqual(arr(r.raw.vertices), [1, 2, 3, 4, 6, 7, 8, 9]); // no vertex 5
    t.is(r.properties!.metaEdges, 10);
  }
});

test('Graphalytics: other parameter sets (pr, cdlp, sssp undirected)', async (t) => {
  const pr = await readGraphalytics(path.join(GRAPHALYTICS, 'test-pr-directed'));
  t.is(pr.properties.prNumIterations, 14);
  t.is(pr.properties.prDampingFactor, 0.85);
  const cdlp = await readGraphalytics(path.join(GRAPHALYTICS, 'test-cdlp-undirected'));
  t.is(cdlp.properties.cdlpMaxIterations, 5);
  const sssp = await readGraphalytics(path.join(GRAPHALYTICS, 'test-sssp-undirected'));
  t.is(sssp.properties.ssspSourceVertex, 1);
  t.is(sssp.raw.directed, false);
});

async function gaFixture(name: string, v: string, e: string, props?: string, gzE = false): Promise<string> {
  const sub = path.join(dir, String(seq++), name);
  await mkdir(sub, { recursive: true });
  await writeFile(path.join(sub, `${name}.v`), v);
  await writeFile(path.join(sub, gzE ? `${name}.e.gz` : `${name}.e`), gzE ? gzipSync(e) : e);
  if (props !== undefined) await writeFile(path.join(sub, `${name}.properties`), props);
  return sub;
}

test('Graphalytics: isolated vertices kept, gzipped .e, properties continuation lines', async (t) => {
  const props = [
    '# comment',
    '! also a comment',
    'graph.g1.directed: false',
    'graph.g1.meta.vertices = 5',
    'graph.g1.meta.edges 2',
    'graph.g1.algorithms = bfs, \\',
    '    pr',
    'graph.g1.bfs.source-vertex = 100',
    '',
  ].join('\n');
  const d = await gaFixture('g1', '10\n20\n30\n100\n4000000000\n', '10 20\n20 30\n', props, true);
  const { raw, properties } = await readGraphFile(d);
  t.deepEqual(arr(raw.vertices), [10, 20, 30, 100, 4000000000]);
  t.deepEqual(arr(raw.src), [10, 20]);
  t.is(raw.directed, false);
  t.deepEqual(properties!.algorithms, ['bfs', 'pr']);
  t.is(properties!.bfsSourceVertex, 100);
  t.is(properties!.edgeFile, path.join(d, 'g1.e.gz'));
});

test('Graphalytics without .properties: directed by default, third column = weight', async (t) => {
  const d = await gaFixture('g2', '1\n2\n3\n', '1 2 0.25\n2 3 4\n');
  const { raw, properties } = await readGraphFile(path.join(d, 'g2.e'));
  t.deepEqual(arr(raw.weights), [0.25, 4]);
  t.is(raw.directed, true);
  t.is(properties!.name, 'g2');
  t.is(properties!.propertiesFile, undefined);
});

test('Graphalytics: an edge naming a vertex absent from .v is an error at file:line', async (t) => {
  const d = await gaFixture('g3', '1\n2\n3\n', '1 2\n2 3\n3 7\n');
  await rejects(t, path.join(d, 'g3.e'), {}, 3, 'edge endpoint 7 is not a vertex', 'g3.v');
});

test('Graphalytics: meta.vertices / meta.edges that differ from the files are errors', async (t) => {
  const d1 = await gaFixture('g4', '1\n2\n3\n', '1 2\n2 3\n', 'graph.g4.directed = true\ngraph.g4.meta.vertices = 3\ngraph.g4.meta.edges = 5\n');
  const e1 = await rejects(t, path.join(d1, 'g4.properties'), {}, 3, 'meta.edges = 5', 'has 2 edges');
  t.is(e1.details.key, 'graph.g4.meta.edges');
  const d2 = await gaFixture('g5', '1\n2\n', '1 2\n', 'graph.g5.meta.vertices = 3\ngraph.g5.meta.edges = 1\n');
  await rejects(t, path.join(d2, 'g5.properties'), {}, 1, 'meta.vertices = 3', 'lists 2 vertices');
});

test('Graphalytics: bad property values, extra edge column, duplicate vertex', async (t) => {
  const d1 = await gaFixture('g6', '1\n2\n', '1 2\n', 'graph.g6.directed = maybe\n');
  await rejects(t, path.join(d1, 'g6.properties'), {}, 1, "'maybe'", 'graph.g6.directed');
  const d2 = await gaFixture('g7', '1\n2\n', '1 2\n', 'graph.g7.pr.damping-factor = 1.5\n');
  await rejects(t, path.join(d2, 'g7.properties'), {}, 1, "'1.5'", 'between 0 and 1');
  const d3 = await gaFixture('g8', '1\n2\n', '1 2\n2 1 0.5\n', 'graph.g8.directed = true\n');
  await rejects(t, path.join(d3, 'g8.e'), {}, 2, "extra column '0.5'");
  const d4 = await gaFixture('g9', '1\n2\n1\n', '1 2\n', 'graph.g9.directed = true\n');
  await rejects(t, path.join(d4, 'g9.v'), {}, 3, 'vertex 1 is listed twice');
  const d5 = await gaFixture('g10', '1\n2\n', '1 2\n', 'graph.g10.bfs.source-vertex = 9\n');
  await rejects(t, path.join(d5, 'g10.properties'), {}, 1, 'bfs.source-vertex 9 is not a vertex');
});

test('Graphalytics: missing .v and empty directory are errors', async (t) => {
  const sub = path.join(dir, String(seq++), 'g11');
  await mkdir(sub, { recursive: true });
  await writeFile(path.join(sub, 'g11.e'), '1 2\n');
  const e = await t.throwsAsync(readGraphFile(path.join(sub, 'g11.e')), { instanceOf: TesseraError });
  t.true(e!.message.includes(path.join(sub, 'g11.v')) && e!.message.includes('vertex file not found'), e!.message);
  const empty = path.join(dir, String(seq++));
  await mkdir(empty, { recursive: true });
  const e2 = await t.throwsAsync(readGraphFile(empty), { instanceOf: TesseraError });
  t.true(e2!.message.includes(empty) && e2!.message.includes('no Graphalytics graph'), e2!.message);
});

// ---------------------------------------------------------------------------------------------
// Matrix Market

test('Matrix Market: general pattern', async (t) => {
  const f = await fixture('g.mtx', '%%MatrixMarket matrix coordinate pattern general\n% a comment\n%\n5 5 4\n1 2\n2 3\n3 1\n5 4\n');
  const { raw, properties } = await readGraphFile(f);
  t.is(properties, undefined);
  t.deepEqual(arr(raw.src), [1, 2, 3, 5]);
  t.deepEqual(arr(raw.dst), [2, 3, 1, 4]);
  t.deepEqual(arr(raw.vertices), [1, 2, 3, 4, 5]);
  t.is(raw.directed, true);
  t.is(raw.weights, undefined);
});

test('Matrix Market: symmetric real (gzipped, CRLF) is undirected and weighted', async (t) => {
  const text = '%%MatrixMarket matrix coordinate real symmetric\r\n4 4 3\r\n2 1 1.5\r\n3 1 -2e-1\r\n4 4 3';
  const f = await fixture('s.mtx.gz', gzipSync(text));
  const { raw } = await readGraphFile(f, { allowNegativeWeights: true, weightType: 'float32' });
  t.is(raw.directed, false);
  t.deepEqual(arr(raw.src), [2, 3, 4]);
  t.deepEqual(arr(raw.dst), [1, 1, 4]);
  t.true(raw.weights instanceof F32List);
  t.is(raw.weightType, 'float32');
  t.deepEqual(arr(raw.weights), [1.5, Math.fround(-0.2), 3]);
  t.deepEqual(arr(raw.vertices), [1, 2, 3, 4]);
  // Without allowNegativeWeights the negative value is refused; weighted: false drops values.
  await rejects(t, f, {}, 4, 'negative weight -2e-1');
  const { raw: unweighted } = await readGraphFile(f, { weighted: false });
  t.is(unweighted.weights, undefined);
  t.is(unweighted.src.length, 3);
});

test('Matrix Market: integer field, isolated vertices', async (t) => {
  const f = await fixture('i.mtx', '%%MatrixMarket matrix coordinate integer general\n6 6 1\n1 6 7\n');
  const { raw } = await readGraphFile(f);
  t.deepEqual(arr(raw.weights), [7]);
  t.is(raw.vertices!.length, 6);
});

test('Matrix Market: unsupported and bad headers', async (t) => {
  const cases: Array<[string, number, string]> = [
    ['%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n', 1, "'array' (dense) format"],
    ['%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 2 1 0\n', 1, "'complex' values"],
    ['%%MatrixMarket matrix coordinate real hermitian\n2 2 1\n1 2 1\n', 1, "'hermitian' symmetry"],
    ['%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 1\n', 1, "'skew-symmetric' symmetry"],
    ['1 2\n2 3\n', 1, 'not a Matrix Market file'],
    ['%%MatrixMarket matrix coordinate pattern general\n% c\n3 3\n1 2\n', 3, 'bad size line'],
    ['%%MatrixMarket matrix coordinate pattern general\n3 4 1\n1 2\n', 2, 'not square'],
  ];
  for (const [text, line, words] of cases) {
    const f = await fixture('bad.mtx', text);
    await rejects(t, f, {}, line, words);
  }
});

test('Matrix Market: size line checked against the entries and the index range', async (t) => {
  const head = '%%MatrixMarket matrix coordinate pattern general\n% c\n3 3 2\n';
  await rejects(t, await fixture('more.mtx', `${head}1 2\n2 3\n3 1\n`), {}, 6, 'more entries than the 2');
  await rejects(t, await fixture('fewer.mtx', `${head}1 2\n`), {}, 4, 'announces 2 entries but the file has 1');
  await rejects(t, await fixture('range.mtx', `${head}1 2\n4 3\n`), {}, 5, 'index 4 is outside 1 to 3');
  await rejects(t, await fixture('zero.mtx', `${head}0 2\n1 3\n`), {}, 4, 'index 0 is outside 1 to 3');
  await rejects(t, await fixture('empty.mtx', ''), {}, undefined, 'empty');
});

// ---------------------------------------------------------------------------------------------
// edge lists: formats

test('edge list: tabs, commas, comments, blank lines, CRLF, no final newline', async (t) => {
  const f = await fixture('a.txt', '# header\r\n% other comment\r\n\r\n1\t2\r\n  3 ,4\r\n5,6\r\n\t\r\n7   8');
  const { raw } = await readGraphFile(f);
  t.deepEqual(arr(raw.src), [1, 3, 5, 7]);
  t.deepEqual(arr(raw.dst), [2, 4, 6, 8]);
  t.is(raw.directed, true);
  t.is(raw.weights, undefined);
});

test('edge list: weights (auto), decimals parsed exactly like Number()', async (t) => {
  const ws = ['1', '0.5', '2.25', '1e-3', '3.5E2', '+4', '.5', '7.', '0', '123456.789012345', '0.1234567890123456789', '1.7976931348623157e308'];
  let text = '';
  for (let i = 0; i < ws.length; i++) text += `${i} ${i + 1} ${ws[i]}\n`;
  // Random decimals against Number().
  const rnd: string[] = [];
  let s = 12345;
  for (let i = 0; i < 2000; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const digits = (s % 13) + 1;
    const w = (s / 2147483648) * 10 ** (s % 7);
    rnd.push(w.toFixed(digits));
    text += `1 2 ${rnd[i]}\n`;
  }
  const f = await fixture('w.el', text);
  const { raw } = await readGraphFile(f);
  t.is(raw.weightType, 'float64');
  const got = arr(raw.weights);
  t.deepEqual(got, [...ws, ...rnd].map(Number));
  const { raw: r32 } = await readGraphFile(f, { weightType: 'float32' });
  t.deepEqual(arr(r32.weights), [...ws, ...rnd].map((x) => Math.fround(Number(x))));
});

test('edge list: weighted false ignores a third column; directed false; vertices file', async (t) => {
  const f = await fixture('t.txt', '1 2 1234567\n2 3 999\n');
  const v = await fixture('t.v', '1\n2\n3\n42\n');
  const { raw } = await readGraphFile(f, { weighted: false, directed: false, vertices: v });
  t.is(raw.weights, undefined);
  t.is(raw.directed, false);
  t.deepEqual(arr(raw.vertices), [1, 2, 3, 42]);
  // weighted: true demands the column.
  await rejects(t, await fixture('t2.txt', '1 2 1\n2 3\n'), { weighted: true }, 2, 'missing the weight column');
});

test('edge list with a vertex file: it lists every vertex (an edge endpoint it lacks, a vertex listed twice: errors), as a Graphalytics .v', async (t) => {
  const f = await fixture('lv.txt', '0 1\n# c\n1 2\n');
  const v = await fixture('lv.v', '0\n1\n');
  for (const load of [() => readGraphFile(f, { vertices: v }), () => loadGraph(f, { vertices: v })]) {
    const e = await t.throwsAsync(load(), { instanceOf: TesseraError });
    t.regex(e!.message, /lv\.txt:3: edge endpoint 2 is not a vertex of lv\.v\. Fix: add vertex 2 to .*lv\.v, or remove the edge/);
  }
  const e = await t.throwsAsync(readGraphFile(f, { vertices: await fixture('lv2.v', '0\n1\n2\n0\n') }), { instanceOf: TesseraError });
  t.regex(e!.message, /lv2\.v:4: vertex 0 is listed twice/);
  // The same pair as a Graphalytics .v/.e: the same refusal.
  const gdir = await gaFixture('lv', '0\n1\n', '0 1\n1 2\n');
  const e3 = await t.throwsAsync(readGraphFile(gdir), { instanceOf: TesseraError });
  t.regex(e3!.message, /lv\.e:2: edge endpoint 2 is not a vertex of lv\.v/);
  t.is((await loadGraph(f, { vertices: await fixture('lv3.v', '2\n1\n0\n7\n') })).graph.numVertices, 4);
});

test('edge list: the largest allowed id, 2^32-2', async (t) => {
  const f = await fixture('big.txt', '4294967294 0\n');
  const { raw } = await readGraphFile(f);
  t.deepEqual(arr(raw.src), [4294967294]);
});

test('edge list: plain and gzipped multi-chunk files agree (lines across chunk boundaries)', async (t) => {
  // ~7 MB: more than one 4 MiB read chunk and several gunzip chunks.
  const n = 600_000;
  const parts: string[] = [];
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const a = (i * 7919) % 1_000_003;
    const b = (i * 104729) % 999_983;
    sum += a * 3 + b;
    parts.push(`${a} ${b}`);
  }
  const text = `${parts.join('\n')}\n`;
  for (const [name, content] of [
    ['big.el', text],
    ['big.el.gz', gzipSync(text, { level: 1 })],
  ] as const) {
    const f = await fixture(name, content);
    const { raw } = await readGraphFile(f);
    t.is(raw.src.length, n);
    let s2 = 0;
    for (let i = 0; i < n; i++) s2 += raw.src.get(i) * 3 + raw.dst.get(i);
    t.is(s2, sum, name);
  }
  // An error on the last line reports the right line number across chunks.
  await rejects(t, await fixture('bad-end.el', `${text}1 x\n`), {}, n + 1, "'x' is not a vertex id");
  await rejects(t, await fixture('bad-end.el.gz', gzipSync(`${text}1 x\n`, { level: 1 })), {}, n + 1, "'x' is not a vertex id");
});

test('edge list: a UTF-8 byte order mark is skipped', async (t) => {
  const f = await fixture('bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('1 2\n3 4\n')]));
  const { raw } = await readGraphFile(f);
  t.deepEqual(arr(raw.src), [1, 3]);
});

test('line reader: blocks hold whole lines ending in newline', async (t) => {
  const f = await fixture('lines.txt', 'a\nbb\r\n\nccc');
  const lines: string[] = [];
  await readLineBlocks(f, (buf, start, end) => {
    t.is(buf[end - 1], 10);
    lines.push(...buf.toString('latin1', start, end - 1).split('\n'));
  });
  t.deepEqual(lines, ['a', 'bb\r', '', 'ccc']);
});

// ---------------------------------------------------------------------------------------------
// edge lists: bad input, one test per case

const good = (k: number): string => Array.from({ length: k }, (_, i) => `${i} ${i + 1}`).join('\n') + '\n';

test('bad input: non-numeric id', async (t) => {
  const f = await fixture('ids.txt', `# c\n${good(10)}abc 5\n`);
  await rejects(t, f, {}, 12, "'abc' is not a vertex id");
  await rejects(t, await fixture('ids2.txt', '1 2x\n'), {}, 1, "'2x' is not a vertex id");
  await rejects(t, await fixture('ids3.txt', '1.5 2\n'), {}, 1, "'1.5' is not a vertex id");
});

test('bad input: missing column', async (t) => {
  await rejects(t, await fixture('miss.txt', `${good(3)}7\n`), {}, 4, 'missing the destination column');
  await rejects(t, await fixture('miss2.txt', `${good(3)}7 \t\r\n`), {}, 4, 'missing the destination column');
  // auto weights: the first data line has one, so every line needs one.
  await rejects(t, await fixture('miss3.txt', '1 2 0.5\n2 3\n'), {}, 2, 'missing the weight column', 'line 1');
});

test('bad input: extra junk columns', async (t) => {
  await rejects(t, await fixture('junk.txt', '1 2 3\n2 3 4 junk\n'), {}, 2, "extra column 'junk'");
  await rejects(t, await fixture('junk2.txt', '1 2\n2 3 4\n'), {}, 2, "unexpected third column '4'", 'line 1');
  await rejects(t, await fixture('junk3.txt', '1 2 1 x\n'), { weighted: false }, 1, "extra column 'x'");
});

test('bad input: negative weight unless allowed', async (t) => {
  const f = await fixture('neg.txt', '1 2 0.5\n2 3 -1.25\n');
  await rejects(t, f, {}, 2, 'negative weight -1.25', 'allowNegativeWeights');
  const { raw } = await readGraphFile(f, { allowNegativeWeights: true });
  t.deepEqual(arr(raw.weights), [0.5, -1.25]);
});

test('bad input: NaN, infinite or non-numeric weight', async (t) => {
  await rejects(t, await fixture('nan.txt', '1 2 1\n2 3 NaN\n'), {}, 2, "weight 'NaN' is not a finite number");
  await rejects(t, await fixture('inf.txt', '1 2 1\n2 3 inf\n'), {}, 2, 'not a finite number');
  await rejects(t, await fixture('word.txt', '1 2 1\n2 3 heavy\n'), {}, 2, "'heavy' is not a number");
  await rejects(t, await fixture('hex.txt', '1 2 0x10\n'), {}, 1, "'0x10' is not a number");
});

test('bad input: id larger than 2^32-2', async (t) => {
  await rejects(t, await fixture('huge.txt', '1 2\n4294967295 1\n'), {}, 2, 'vertex id 4294967295 is larger than 4294967294');
  await rejects(t, await fixture('huge2.txt', '1 99999999999999999999999\n'), {}, 1, 'vertex id 99999999999999999999999 is larger');
});

test('bad input: negative id', async (t) => {
  await rejects(t, await fixture('negid.txt', '1 2\n3 -4\n'), {}, 2, "'-4' is a negative vertex id");
});

test('bad input: truncated gzip', async (t) => {
  const full = gzipSync(good(20000));
  const f = await fixture('trunc.txt.gz', full.subarray(0, Math.floor(full.length / 2)));
  const e = await rejects(t, f, {}, undefined, 'truncated or corrupt gzip', 're-download', /breaks off after line \d+ /);
  // It says how far the text got (somewhere before the end of the 20000 lines).
  const n = Number(/after line (\d+)/.exec(e.message)![1]);
  t.true(n < 20000, e.message);
});

test('bad input: corrupt gzip (not gzip data, flipped bytes)', async (t) => {
  await rejects(t, await fixture('fake.txt.gz', '1 2\n2 3\n'), {}, undefined, 'truncated or corrupt gzip');
  const full = Buffer.from(gzipSync(good(2000)));
  for (let i = 20; i < 60; i++) full[i] = full[i]! ^ 0x5a;
  await rejects(t, await fixture('flip.txt.gz', full), {}, undefined, 'truncated or corrupt gzip');
});

test('bad input: empty file, comments only, empty gzip', async (t) => {
  await rejects(t, await fixture('empty.txt', ''), {}, undefined, 'no edges found');
  await rejects(t, await fixture('comments.txt', '# only\n% comments\n\n'), {}, undefined, 'no edges found');
  await rejects(t, await fixture('empty.txt.gz', gzipSync('')), {}, undefined, 'no edges found');
});

test('bad input: missing file', async (t) => {
  const f = path.join(dir, 'does-not-exist.txt');
  await rejects(t, f, {}, undefined, 'not found');
  await rejects(t, `${f}.gz`, {}, undefined, 'not found');
  await rejects(t, path.join(dir, 'nope.mtx'), {}, undefined, 'not found');
  await rejects(t, path.join(dir, 'nope.e'), {}, undefined, 'not found');
});

test('bad input: vertices option with a non-edge-list format', async (t) => {
  const f = await fixture('x.mtx', '%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n');
  await rejects(t, f, { vertices: f }, undefined, 'edge-list files only');
});

test('Graphalytics: a .properties naming a vertex or edge file outside its folder is refused, nothing of that file is read', async (t) => {
  const root = path.join(dir, 'escape');
  const ds = path.join(root, 'ds');
  await mkdir(ds, { recursive: true });
  const secret = path.join(root, 'secret.txt');
  await writeFile(secret, 'TOP-SECRET first line\n');
  await writeFile(path.join(ds, 'g.v'), '1\n2\n');
  await writeFile(path.join(ds, 'g.e'), '1 2\n');
  for (const key of ['edge-file', 'vertex-file']) {
    await writeFile(path.join(ds, 'g.properties'), `graph.g.directed = true\ngraph.g.${key} = ../secret.txt\n`);
    const e = await t.throwsAsync(readGraphalytics(ds), { instanceOf: TesseraError });
    t.regex(e!.message, new RegExp(`${key} names a file outside the dataset's folder`));
    t.regex(e!.message, /g\.properties/);
    t.notRegex(e!.message, /TOP-SECRET/);
  }
  // Inside the folder (another name) is fine.
  await writeFile(path.join(ds, 'edges.txt'), '1 2\n2 1\n');
  await writeFile(path.join(ds, 'g.properties'), 'graph.g.directed = true\ngraph.g.edge-file = edges.txt\n');
  const ok = await readGraphalytics(ds);
  t.is(ok.raw.src.length, 2);
});

test('Matrix Market: a size line declaring more than the machine can hold is refused before anything is allocated', async (t) => {
  const file = path.join(dir, 'huge.mtx');
  await writeFile(file, '%%MatrixMarket matrix coordinate pattern general\n4000000000 4000000000 1\n1 2\n');
  const e = await t.throwsAsync(readGraphFile(file), { instanceOf: TesseraError });
  t.regex(e!.message, /the size line declares 4000000000 vertices and 1 edges: about [\d.]+ GiB, more than this machine's/);
  t.regex(e!.message, /huge\.mtx:2: /);
});
