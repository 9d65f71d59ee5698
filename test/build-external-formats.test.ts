/**
 * The bounded-memory builder fed by the Matrix Market, Graphalytics and .tsr streams
 * (src/graph/build/external-formats.ts) against the in-memory readers + buildGraph: the .tsr it
 * writes must hold the same pages, degrees, id maps, drop counts and source, bit for bit, with
 * buckets small enough to force many runs. Bad input: the reader's one-line error (file, line,
 * fix), and no run or partial file left.
 */
import test, { type ExecutionContext } from 'ava';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { rawFromGraph } from '../src/cli/graph-commands.js';
import { TesseraError } from '../src/errors.js';
import { buildGraph, type BuildOptions } from '../src/graph/build.js';
import { CHUNK } from '../src/graph/chunked.js';
import { buildTsrExternal, type ExternalOptions } from '../src/graph/build/external.js';
import { graphalyticsStream, matrixMarketStream, tsrStream } from '../src/graph/build/external-formats.js';
import type { EdgeStream } from '../src/graph/build/external-source.js';
import { readEdgeList } from '../src/graph/readers/edgelist.js';
import { readGraphalytics } from '../src/graph/readers/graphalytics.js';
import { readMatrixMarket } from '../src/graph/readers/matrixmarket.js';
import { readTsr, readTsrHeader, writeTsr } from '../src/graph/tsr.js';
import type { Graph, RawEdges, WeightType } from '../src/graph/types.js';
import { REPO_ROOT } from './helpers/paths.js';
import { sameGraph } from './helpers/same-graph.js';

const dirs: string[] = [];
async function tmp(): Promise<string> {
  const d = await mkdtemp(path.join(os.tmpdir(), 'tessera-extf-'));
  dirs.push(d);
  return d;
}
test.after.always(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const BIG = 2 ** 40;
const RUNS = { pageEdges: 16, runEdges: 150, blockRecords: 13 };

/** In-memory build + writeTsr against the bounded build of `stream`, both read back. */
async function compare(t: ExecutionContext, raw: () => Promise<RawEdges>, stream: () => Promise<EdgeStream>, opts: Omit<ExternalOptions, 'hostMemory'> & BuildOptions): Promise<Graph> {
  const dir = await tmp();
  const memFile = path.join(dir, 'mem.tsr');
  const { runEdges: _r, blockRecords: _b, ...build } = opts;
  await writeTsr(buildGraph(await raw(), build), memFile);
  const out = path.join(dir, 'ext.tsr');
  const r = await buildTsrExternal(await stream(), out, { hostMemory: BIG, ...opts });
  t.true(r.buckets.out > 1, `several out-buckets (${r.buckets.out})`);
  const got = await readTsr(out);
  sameGraph(t, await readTsr(memFile), got);
  t.deepEqual((await readdir(dir)).sort(), ['ext.tsr', 'mem.tsr'], 'no run file left');
  return got;
}

/** The bounded build of `stream` fails with `message` and leaves nothing behind. */
async function refused(t: ExecutionContext, stream: () => Promise<EdgeStream>, message: RegExp): Promise<void> {
  const dir = await tmp();
  const e = await t.throwsAsync(async () => buildTsrExternal(await stream(), path.join(dir, 'g.tsr'), { hostMemory: BIG, ...RUNS }), { instanceOf: TesseraError });
  t.regex(e!.message, message);
  t.false(e!.message.includes('\n'));
  t.deepEqual(await readdir(dir), [], 'no run or partial file left');
}

/** Pseudo-random edges over ids 0..299 with a hub (5), self-loops and repeats (several weights). */
function edges(count: number, seed: number): Array<[number, number, number]> {
  let x = seed;
  const rnd = (k: number): number => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % k;
  };
  const out: Array<[number, number, number]> = [];
  for (let i = 0; i < count; i++) {
    const s = rnd(10) < 3 ? 5 : rnd(300);
    const d = rnd(10) < 1 ? s : rnd(300);
    out.push([s, d, (1 + rnd(50)) / 8]);
  }
  for (let i = 0; i < 40; i++) out.push([7, 8, (60 - i) / 4]);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Matrix Market

/** A 400-row matrix (rows 302..400 have no entry), 1-based, comments among the entries. */
async function mtxFile(field: 'real' | 'integer' | 'pattern', symmetry: 'general' | 'symmetric'): Promise<string> {
  const es = edges(3000, field.length * 7 + symmetry.length);
  const lines = [`%%MatrixMarket matrix coordinate ${field} ${symmetry}`, '% a comment', '%', `400 400 ${es.length}`];
  es.forEach(([s, d, w], i) => {
    if (i === 1000) lines.push('% a comment among the entries', '');
    const v = field === 'pattern' ? '' : field === 'integer' ? ` ${Math.round(w * 8)}` : ` ${w}`;
    lines.push(`${s + 1} ${d + 1}${v}`);
  });
  const file = path.join(await tmp(), `g-${field}-${symmetry}.mtx`);
  await writeFile(file, lines.join('\n') + '\n');
  return file;
}

for (const [field, symmetry, weightType, directed] of [
  ['real', 'general', 'float64', undefined],
  ['real', 'general', 'float32', undefined],
  ['real', 'general', 'none', undefined],
  ['real', 'general', 'float64', false],
  ['integer', 'general', 'float32', undefined],
  ['pattern', 'general', undefined, undefined],
  ['real', 'symmetric', 'float64', undefined],
  ['pattern', 'symmetric', undefined, undefined],
] as const) {
  const name = `${field} ${symmetry}${weightType ? ` weights ${weightType}` : ''}${directed === false ? ' read undirected' : ''}`;
  test(`bounded Matrix Market ${name}: same .tsr as in memory`, async (t) => {
    const file = await mtxFile(field, symmetry);
    const read = { ...(directed === false ? { directed } : {}), ...(weightType === 'none' ? { weighted: false } : weightType ? { weightType } : {}) };
    const g = await compare(t, () => readMatrixMarket(file, read), () => matrixMarketStream(file, read), { ...RUNS, ...(weightType ? { weightType } : {}) });
    t.is(g.numVertices, 400, 'every row a vertex, isolated ones included');
    t.is(g.directed, symmetry === 'general' && directed !== false);
    t.is(g.weightType, field === 'pattern' || weightType === 'none' ? undefined : (weightType ?? 'float64'));
    t.true(g.out.pages.some((p) => p.split), "the hub's list is split");
  });
}

test('bounded Matrix Market, gzipped: same .tsr as in memory', async (t) => {
  const plain = await mtxFile('real', 'symmetric');
  const file = `${plain}.gz`;
  await writeFile(file, gzipSync(await readFile(plain)));
  await compare(t, () => readMatrixMarket(file), () => matrixMarketStream(file), RUNS);
});

test('bounded Matrix Market: more entries than the size line says, an index past it, or fewer: the reader\'s error', async (t) => {
  const file = await mtxFile('real', 'general');
  const text = await readFile(file, 'utf8');
  const more = path.join(path.dirname(file), 'more.mtx');
  await writeFile(more, text + '1 2 3\n');
  await refused(t, () => matrixMarketStream(more), /more\.mtx:3047: more entries than the 3040 the size line \(line 4\) announces: entry 3041 is here\. Fix: /);
  const far = path.join(path.dirname(file), 'far.mtx');
  await writeFile(far, text.replace('\n1 ', '\n401 '));
  await refused(t, () => matrixMarketStream(far), /far\.mtx:\d+: index 401 is outside 1 to 400 \(the size line, line 4, says 400 rows\)\. Fix: /);
  const fewer = path.join(path.dirname(file), 'fewer.mtx');
  await writeFile(fewer, text.replace('400 400 3040', '400 400 3041'));
  await refused(t, () => matrixMarketStream(fewer), /fewer\.mtx:\d+: the size line \(line 4\) announces 3041 entries but the file has 3040 \(truncated\?\)\. Fix: /);
});

test('Matrix Market stream: the edges pass in chunks of at most 2^20, and a file past its count stops at the chunk that passes it', async (t) => {
  const total = 3 * CHUNK;
  const lines = ['%%MatrixMarket matrix coordinate pattern general', `1000 1000 ${CHUNK - 5}`];
  for (let i = 0; i < total; i++) lines.push(`${(i % 1000) + 1} ${((i * 7) % 1000) + 1}`);
  const file = path.join(await tmp(), 'long.mtx');
  await writeFile(file, lines.join('\n') + '\n');
  const stream = await matrixMarketStream(file);
  let seen = 0;
  let largest = 0;
  let read = 0;
  let size = 0;
  const e = await t.throwsAsync(
    stream.run(
      (_s, _d, w, k) => {
        t.is(w, undefined);
        seen += k;
        largest = Math.max(largest, k);
      },
      (done, all) => {
        read = done;
        size = all;
      },
    ),
    { instanceOf: TesseraError },
  );
  t.regex(e!.message, new RegExp(`long\\.mtx:${CHUNK - 2}: more entries than the ${CHUNK - 5} the size line \\(line 2\\) announces: entry ${CHUNK - 4} is here\\.`));
  t.true(largest <= CHUNK, `chunks of ${largest}`);
  t.true(seen >= CHUNK && seen < total, `edges passed before stopping: ${seen}`);
  t.true(read < size, `read ${read} of ${size} bytes`);
});

// ---------------------------------------------------------------------------------------------
// Graphalytics

interface GraphalyticsCase {
  name: string;
  /** .properties lines after graph.g. (none: no .properties file). */
  props?: string[];
  /** Extra columns of each edge line, from the edge's weight. */
  columns: (w: number, i: number) => string;
  sparse: boolean;
}

/** A Graphalytics dataset g.{v,e,properties}: its .v lists the vertices shuffled, some isolated. */
async function graphalyticsDir(c: GraphalyticsCase): Promise<string> {
  const dir = await tmp();
  const id = (v: number): number => (c.sparse ? v * 10_007 + 3 : v);
  const es = edges(2500, c.name.length);
  const vs = Array.from({ length: 330 }, (_, i) => id((i * 37) % 330));
  await writeFile(path.join(dir, 'g.v'), vs.join('\n') + '\n');
  await writeFile(path.join(dir, 'g.e'), es.map(([s, d, w], i) => `${id(s)} ${id(d)}${c.columns(w, i)}`).join('\n') + '\n');
  if (c.props !== undefined) {
    await writeFile(path.join(dir, 'g.properties'), ['graph.g.vertex-file = g.v', 'graph.g.edge-file = g.e', ...c.props.map((l) => `graph.g.${l}`)].join('\n') + '\n');
  }
  return dir;
}

const GRAPHALYTICS: GraphalyticsCase[] = [
  { name: 'directed weighted', props: ['directed = true', 'edge-properties.names = weight', 'meta.vertices = 330', 'meta.edges = 2540'], columns: (w) => ` ${w}`, sparse: false },
  { name: 'undirected unweighted, sparse ids', props: ['directed = false', 'bfs.source-vertex = 3'], columns: () => '', sparse: true },
  { name: 'directed, weight the second property', props: ['directed = true', 'edge-properties.names = stamp, cost', 'sssp.weight-property = cost'], columns: (w, i) => ` ${i} ${w}`, sparse: true },
  { name: 'no .properties, a third column', columns: (w) => ` ${w}`, sparse: false },
];

for (const c of GRAPHALYTICS) {
  for (const weightType of c.columns(1, 0) === '' ? [undefined] : (['float64', 'float32', 'none'] as const)) {
    test(`bounded Graphalytics ${c.name}${weightType ? ` weights ${weightType}` : ''}: same .tsr as in memory`, async (t) => {
      const dir = await graphalyticsDir(c);
      const read = weightType === 'none' ? { weighted: false } : weightType ? { weightType } : {};
      const g = await compare(t, async () => (await readGraphalytics(dir, read)).raw, () => graphalyticsStream(dir, read), { ...RUNS, ...(weightType ? { weightType } : {}) });
      t.is(g.numVertices, 330, 'every vertex of the .v file, isolated ones included');
      t.is(g.source, path.join(dir, 'g.e'));
    });
  }
}

for (const name of ['example-directed', 'example-undirected']) {
  test(`bounded Graphalytics ${name} (repository dataset): same .tsr as in memory`, async (t) => {
    const dir = path.join(REPO_ROOT, 'test/data/graphalytics', name);
    const g = await compare(t, async () => (await readGraphalytics(dir)).raw, () => graphalyticsStream(dir), { pageEdges: 2, runEdges: 4, blockRecords: 3 });
    t.is(g.directed, name === 'example-directed');
    t.is(g.weightType, 'float64');
  });
}

test('bounded Graphalytics: an endpoint not in the .v file, a vertex listed twice, a wrong meta.edges: the reader\'s error', async (t) => {
  const c = GRAPHALYTICS[0]!;
  const foreign = await graphalyticsDir(c);
  const e = path.join(foreign, 'g.e');
  const lines = (await readFile(e, 'utf8')).split('\n');
  lines[1999] = `331 2 1.5`;
  await writeFile(e, lines.join('\n'));
  await refused(t, () => graphalyticsStream(foreign), /g\.e:2000: edge endpoint 331 is not a vertex of g\.v\. Fix: add vertex 331 to .*g\.v, or remove the edge/);
  const twice = await graphalyticsDir(c);
  await writeFile(path.join(twice, 'g.v'), (await readFile(path.join(twice, 'g.v'), 'utf8')) + '12\n');
  await refused(t, () => graphalyticsStream(twice), /g\.v:331: vertex 12 is listed twice\. Fix: list each vertex once/);
  const meta = await graphalyticsDir({ ...c, props: c.props!.map((l) => l.replace('meta.edges = 2540', 'meta.edges = 2541')) });
  await refused(t, () => graphalyticsStream(meta), /g\.properties:\d+: meta\.edges = 2541 but g\.e has 2540 edges \(at graph\.g\.meta\.edges\)\. Fix: /);
});

// ---------------------------------------------------------------------------------------------
// .tsr re-paged

/** A .tsr built in memory from an edge list (pages of 64 edges). */
async function tsrFile(directed: boolean, weightType: WeightType | 'none'): Promise<string> {
  const dir = await tmp();
  const el = path.join(dir, 'g.el');
  await writeFile(el, edges(3000, 99).map(([s, d, w]) => `${s * 3 + 1} ${d * 3 + 1} ${w}`).join('\n') + '\n');
  const raw = await readEdgeList(el, { directed, ...(weightType === 'none' ? { weighted: false } : { weightType }) });
  const file = path.join(dir, 'in.tsr');
  await writeTsr(buildGraph(raw, { pageEdges: 64 }), file);
  await rm(el);
  return file;
}

for (const [directed, weightType, change] of [
  [true, 'float64', {}],
  [true, 'float32', {}],
  [true, 'none', {}],
  [false, 'float64', {}],
  [true, 'float64', { directed: false }],
  [true, 'float64', { weightType: 'float32' }],
  [false, 'float32', { weightType: 'none' }],
] as const) {
  const what = `${directed ? 'directed' : 'undirected'} weights ${weightType}${'directed' in change ? ' made undirected' : ''}${'weightType' in change ? ` stored ${change.weightType}` : ''}`;
  test(`bounded .tsr re-paged (${what}): same .tsr as in memory`, async (t) => {
    const file = await tsrFile(directed, weightType);
    const g = await compare(t, async () => rawFromGraph(await readTsr(file)), () => tsrStream(file), { ...RUNS, ...change });
    t.is(g.pageEdges, 16);
    t.is(g.source, (await readTsrHeader(file)).source, "the graph's own source");
    t.is(g.directed, directed && !('directed' in change));
  });
}

test('bounded .tsr: a damaged page is the reader\'s error naming it', async (t) => {
  const file = await tsrFile(true, 'float64');
  const h = await readTsrHeader(file);
  const bytes = await readFile(file);
  const p = h.pages.out[3]!;
  bytes[p.offset + p.length - 1]! ^= 0x40;
  await writeFile(file, bytes);
  await refused(t, () => tsrStream(file), /in\.tsr: out page 3 \((vertex \d+|vertices \d+ to \d+)\) is corrupt: checksum mismatch .*\. Fix: the file is damaged: convert the source graph again/);
});
