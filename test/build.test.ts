import test from 'ava';
import { buildGraph } from '../src/graph/build.js';
import { forEachEdge } from '../src/graph/pages.js';
import type { Graph, PageSet } from '../src/graph/types.js';
import { rawFrom } from './helpers/raw.js';
import { TesseraError } from '../src/errors.js';
import { generateEdges } from '../src/graph/generate/index.js';
import { CHUNK } from '../src/graph/chunked.js';
import { Team } from '../src/graph/build/team.js';

/** Edge set of a page set in original ids: "a>b:w" strings, sorted. */
function edgesOf(g: Graph, set: PageSet): string[] {
  const out: string[] = [];
  forEachEdge(set, (v, u, w) => {
    const a = g.ids.toOriginal[v]!;
    const b = g.ids.toOriginal[u]!;
    out.push(set.orientation === 'out' ? `${a}>${b}:${w}` : `${b}>${a}:${w}`);
  });
  return out.sort();
}

function randomEdges(n: number, m: number, seed: number, maxW = 0): Array<[number, number, number]> {
  let x = seed;
  const rnd = (): number => {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    return x / 0x80000000;
  };
  const e: Array<[number, number, number]> = [];
  for (let i = 0; i < m; i++) {
    // Skewed: vertex 0 gets many edges so it spans several pages.
    const s = rnd() < 0.3 ? 0 : Math.floor(rnd() * n);
    e.push([s * 7 + 3, Math.floor(rnd() * n) * 7 + 3, maxW ? 1 + Math.floor(rnd() * maxW) : 1]);
  }
  return e;
}

function expected(edges: Array<[number, number, number]>, directed: boolean): string[] {
  const best = new Map<string, number>();
  for (const [s, d, w] of edges) {
    if (s === d) continue;
    for (const [a, b] of directed ? [[s, d]] : [[s, d], [d, s]]) {
      const k = `${a}>${b}`;
      best.set(k, Math.min(best.get(k) ?? Infinity, w));
    }
  }
  return [...best].map(([k, w]) => `${k}:${w}`).sort();
}

for (const directed of [true, false]) {
  for (const renumber of ['degree', 'none'] as const) {
    test(`build ${directed ? 'directed' : 'undirected'} renumber=${renumber}: pages hold exactly the deduplicated edges`, (t) => {
      const edges = randomEdges(200, 3000, 7, 9);
      const g = buildGraph(rawFrom(edges, { directed, weighted: true }), { pageEdges: 64, renumber });
      const want = expected(edges, directed);
      t.deepEqual(edgesOf(g, g.out), want);
      t.deepEqual(edgesOf(g, g.in), want);
      t.is(g.numEdges, want.length);
      t.true(g.out.pages.some((p) => p.split), 'the hub spans several pages');
      for (const p of g.out.pages) t.true(p.edges <= 64);
      if (!directed) t.is(g.in, g.out);
      // Sorted, duplicate-free neighbour lists.
      for (const set of [g.out, g.in]) {
        for (const p of set.pages) {
          for (let i = 0; i < p.vEnd - p.vBegin; i++) {
            for (let e = p.offsets[i]! + 1; e < p.offsets[i + 1]!; e++) t.true(p.nbrs[e - 1]! < p.nbrs[e]!);
          }
        }
      }
    });
  }
}

test('degree renumbering puts high-degree vertices first and ids map back', (t) => {
  const edges: Array<[number, number]> = [[10, 20], [30, 20], [40, 20], [50, 20], [10, 30]];
  const g = buildGraph(rawFrom(edges), { renumber: 'degree' });
  t.is(g.numVertices, 5);
  t.is(g.ids.toOriginal[0], 20);
  t.deepEqual([...g.ids.byOriginal].map((i) => g.ids.toOriginal[i]), [10, 20, 30, 40, 50]);
  t.is(g.inDegree[0], 4);
});

test('hubs (degree 2^16 and more, placed apart from the counted degrees) take the first ids, ties by original id, on 1 and 3 threads', (t) => {
  // Hubs: 70 000 in-edges (two), 70 000 out-edges (one: three tied), 66 000 in-edges; a tail.
  const edges: Array<[number, number]> = [];
  for (let i = 0; i < 70_000; i++) edges.push([1000 + i, 900], [1000 + i, 5]);
  for (let i = 0; i < 66_000; i++) edges.push([1000 + i, 7]);
  for (let i = 0; i < 10_000; i++) edges.push([3, 200_000 + i]);
  for (let i = 0; i < 70_000; i++) edges.push([11, 300_000 + i]);
  for (const threads of [1, 3]) {
    const g = buildGraph(rawFrom(edges), { renumber: 'degree', threads });
    const deg = (v: number): number => g.outDegree[v]! + g.inDegree[v]!;
    t.deepEqual([0, 1, 2, 3].map((v) => g.ids.toOriginal[v]), [5, 11, 900, 7]);
    let sorted = true;
    for (let v = 1; v < g.numVertices; v++) {
      const [a, b] = [deg(v - 1), deg(v)];
      if (a < b || (a === b && g.ids.toOriginal[v - 1]! > g.ids.toOriginal[v]!)) sorted = false;
    }
    t.true(sorted, `${threads} threads: ids by degree descending, then original id`);
  }
});

test('isolated vertices from a vertex list exist; sparse huge ids work', (t) => {
  const big = 4_000_000_000;
  const g = buildGraph(rawFrom([[big, 5]], { vertices: [5, 7, big] }));
  t.is(g.numVertices, 3);
  t.deepEqual([...g.ids.byOriginal].map((i) => g.ids.toOriginal[i]), [5, 7, big]);
  t.is(g.numEdges, 1);
});

/** Same bytes (typed arrays of any size, compared without building JS arrays). */
function bytesEqual(a: ArrayBufferView | undefined, b: ArrayBufferView | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.constructor === b.constructor && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

/** Every array of two graphs, page by page (bit-identical builds). */
function sameGraph(t: import('ava').ExecutionContext, a: Graph, b: Graph): void {
  t.is(a.numVertices, b.numVertices);
  t.is(a.numEdges, b.numEdges);
  t.true(bytesEqual(a.ids.toOriginal, b.ids.toOriginal), 'toOriginal');
  t.true(bytesEqual(a.ids.byOriginal, b.ids.byOriginal), 'byOriginal');
  t.true(bytesEqual(a.outDegree, b.outDegree), 'outDegree');
  t.true(bytesEqual(a.inDegree, b.inDegree), 'inDegree');
  t.is(a.in === a.out, b.in === b.out);
  for (const k of ['out', 'in'] as const) {
    const x = a[k];
    const y = b[k];
    t.true(bytesEqual(x.firstPageOf, y.firstPageOf), `${k} firstPageOf`);
    t.is(x.pages.length, y.pages.length);
    x.pages.forEach((p, i) => {
      const q = y.pages[i]!;
      t.deepEqual([p.index, p.vBegin, p.vEnd, p.split, p.edges], [q.index, q.vBegin, q.vEnd, q.split, q.edges]);
      t.true(bytesEqual(p.offsets, q.offsets) && bytesEqual(p.nbrs, q.nbrs) && bytesEqual(p.weights, q.weights), `${k} page ${i} arrays`);
      t.is(p.buffer.byteLength, q.buffer.byteLength, 'exact-size page buffers');
    });
  }
}

for (const directed of [true, false]) {
  test(`build ${directed ? 'directed' : 'undirected'}: 1, 2 and 3 threads give the same graph`, (t) => {
    const edges = randomEdges(300, 6000, 3, 5);
    const one = buildGraph(rawFrom(edges, { directed, weighted: true }), { pageEdges: 97, threads: 1 });
    for (const threads of [2, 3]) sameGraph(t, one, buildGraph(rawFrom(edges, { directed, weighted: true }), { pageEdges: 97, threads }));
    t.deepEqual(edgesOf(one, one.out), expected(edges, directed));
  });
}

test('in-pages filled straight or through target blocks (several rounds) give the same graph', (t) => {
  for (const directed of [true, false]) {
    for (const weighted of [true, false]) {
      const edges = randomEdges(300, 6000, 9, 5);
      const a = buildGraph(rawFrom(edges, { directed, weighted }), { pageEdges: 61, threads: 1 }, { transpose: 'direct' });
      for (const threads of [1, 3]) {
        const b = buildGraph(rawFrom(edges, { directed, weighted }), { pageEdges: 61, threads }, { transpose: { round: 500, groupBits: 1, blocks: 7 } });
        sameGraph(t, a, b);
      }
      t.deepEqual(edgesOf(a, a.in), expected(weighted ? edges : edges.map(([s, d]) => [s, d, 1]), directed));
    }
  }
});

test('float64 staging cursors (used beyond 2^32 positions) give the same graph', (t) => {
  for (const directed of [true, false]) {
    const edges = randomEdges(150, 2500, 5, 3);
    const a = buildGraph(rawFrom(edges, { directed, weighted: true }), { pageEdges: 50 });
    const b = buildGraph(rawFrom(edges, { directed, weighted: true }), { pageEdges: 50 }, { wideCursors: true });
    sameGraph(t, a, b);
    const c = buildGraph(rawFrom(edges, { directed }), { pageEdges: 50 }, { wideCursors: true });
    t.deepEqual(edgesOf(c, c.in), expected(edges.map(([s, d]) => [s, d, 1]), directed));
  }
});

test('medium and long lists (built-in and radix sort paths) dedupe with the smallest weight', (t) => {
  // 20 vertices, 4000 edges: lists of ~200 (medium) and one hub of ~1200 (long), many repeats.
  const edges = randomEdges(20, 4000, 11, 1000);
  for (const directed of [true, false]) {
    const g = buildGraph(rawFrom(edges, { directed, weighted: true }), { pageEdges: 300 });
    t.deepEqual(edgesOf(g, g.out), expected(edges, directed));
    t.deepEqual(edgesOf(g, g.in), expected(edges, directed));
    t.true(g.build.duplicatesDropped > 0 && g.build.selfLoopsDropped > 0);
  }
});

test('ids: dense, gapped (counted by id), sparse (bitmap ranks) and very sparse (sorted) give the same graph', (t) => {
  const base = randomEdges(100, 1500, 13, 4).map(([s, d, w]) => [(s - 3) / 7, (d - 3) / 7, w] as [number, number, number]);
  const graphs = [(x: number) => x, (x: number) => 2 * x + 1, (x: number) => x * 40_000 + 9, (x: number) => x * 40_000_000 + 5].map((f) => {
    const g = buildGraph(rawFrom(base.map(([s, d, w]) => [f(s), f(d), w]), { weighted: true, vertices: [f(100), f(101)] }), { pageEdges: 40 });
    t.deepEqual(edgesOf(g, g.out), expected(base.map(([s, d, w]) => [f(s), f(d), w]), true));
    return g;
  });
  for (const g of graphs.slice(1)) {
    t.is(g.numVertices, graphs[0]!.numVertices);
    t.deepEqual([...g.outDegree], [...graphs[0]!.outDegree]);
    t.deepEqual(
      g.out.pages.map((p) => [...p.nbrs]),
      graphs[0]!.out.pages.map((p) => [...p.nbrs]),
      'same internal ids: renumbering depends on degrees and id order only',
    );
  }
});

test('the raw edge lists are consumed, the vertex list is kept; a NaN weight is a TesseraError', (t) => {
  const raw = rawFrom([[1, 2, 1], [2, 3, 2]], { weighted: true, vertices: [1, 2, 3, 4] });
  const g = buildGraph(raw);
  t.is(g.numVertices, 4);
  t.is(raw.src.length + raw.dst.length + raw.weights!.length, 0);
  t.is(raw.vertices?.length, 4);
  const bad = rawFrom([[1, 2, 1], [2, 3, Number.NaN]], { weighted: true });
  const e = t.throws(() => buildGraph(bad), { instanceOf: TesseraError });
  t.regex(e!.message, /edge 2 has a NaN weight/);
  t.throws(() => buildGraph(rawFrom([[1, 2]]), { threads: 0 }), { instanceOf: TesseraError });
  t.throws(() => buildGraph(rawFrom([[1, 2]]), { pageEdges: 0 }), { instanceOf: TesseraError });
});

test('shared raw chunks (a generator\'s) are scanned by all threads: the first NaN weight is named', (t) => {
  const raw = generateEdges('rmat:18:weighted', { threads: 2 });
  t.true(raw.src.chunks[0]!.buffer instanceof SharedArrayBuffer);
  const w = raw.weights!;
  w.set(3 * CHUNK + 7, Number.NaN);
  w.set(CHUNK + 5, Number.NaN);
  // Edited lists are no longer what the generator vouched for: without its maxId they are scanned.
  delete raw.maxId;
  const e = t.throws(() => buildGraph(raw, { threads: 3 }), { instanceOf: TesseraError });
  t.regex(e!.message, new RegExp(`edge ${CHUNK + 6} has a NaN weight`));
  const g = buildGraph(generateEdges('rmat:18:weighted', { threads: 2 }), { threads: 3 });
  sameGraph(t, g, buildGraph(generateEdges('rmat:18:weighted', { threads: 1 }), { threads: 1 }));
});

test('weights: float32 / float64 / none as asked', (t) => {
  const edges = randomEdges(50, 800, 17, 7).map(([s, d, w]) => [s, d, w + 0.1] as [number, number, number]);
  const g64 = buildGraph(rawFrom(edges, { weighted: true }), { pageEdges: 100 });
  const g32 = buildGraph(rawFrom(edges, { weighted: true }), { pageEdges: 100, weightType: 'float32' });
  const g0 = buildGraph(rawFrom(edges, { weighted: true }), { pageEdges: 100, weightType: 'none' });
  t.true(g64.out.pages.every((p) => p.weights instanceof Float64Array));
  t.true(g32.in.pages.every((p) => p.weights instanceof Float32Array));
  t.true(g0.out.pages.every((p) => p.weights === undefined) && g0.weightType === undefined);
  t.deepEqual(edgesOf(g64, g64.in), expected(edges, true));
  t.deepEqual(
    edgesOf(g32, g32.in),
    expected(edges.map(([s, d, w]) => [s, d, Math.fround(w)]), true),
  );
});

test("one team of helpers serves a generator and the build after it, and stays open for the caller; a generator's maxId spares the scan", (t) => {
  const team = new Team(3);
  try {
    const g = buildGraph(generateEdges('rmat:16:ef=40:weighted', { team }), { pageEdges: 4096 }, { team });
    t.is(team.size, 3, 'the build does not close a team it was given');
    const again = buildGraph(generateEdges('rmat:16:ef=40:weighted', { team }), { pageEdges: 4096 }, { team });
    // Without the generator's maxId the builder scans the lists for it: the same graph.
    const scanned = generateEdges('rmat:16:ef=40:weighted', { threads: 1 });
    t.is(scanned.maxId, 2 ** 16 - 1);
    delete scanned.maxId;
    const alone = buildGraph(scanned, { pageEdges: 4096, threads: 1 });
    sameGraph(t, g, alone);
    sameGraph(t, again, alone);
  } finally {
    team.close();
  }
});

test('generateEdges gives the same edges with 1 and 3 threads (shared chunks)', (t) => {
  for (const spec of ['rmat:16:ef=70:weighted', 'uniform:16:ef=65']) {
    const a = generateEdges(spec, { threads: 1 });
    const b = generateEdges(spec, { threads: 3 });
    t.true(b.src.chunks.length > 3 && b.src.chunks[1]!.buffer instanceof SharedArrayBuffer, 'several full blocks, generated by helpers');
    t.is(a.weights === undefined, b.weights === undefined);
    for (const k of ['src', 'dst', 'weights', 'vertices'] as const) {
      const x = a[k];
      const y = b[k];
      if (x === undefined || y === undefined) continue;
      t.is(x.length, y.length);
      t.true(x.chunks.every((c, i) => bytesEqual(c, y.chunks[i])), `${spec} ${k}`);
    }
    // Shared chunks build like any others, with helper threads too.
    sameGraph(t, buildGraph(a, { pageEdges: 4096, threads: 1 }), buildGraph(b, { pageEdges: 4096, threads: 2 }));
  }
});

test('buildGraph takes plain and typed arrays (docs/PROGRAMS.md "Testing a program"), checked value by value', async (t) => {
  const { buildGraph: fromPackage, run } = await import('../src/index.js');
  const edges: Array<[number, number, number]> = [[0, 1, 2], [1, 2, 0.5], [2, 0, 1], [5, 2, 3]];
  const want = buildGraph(rawFrom(edges, { weighted: true, vertices: [9] }), { pageEdges: 2 });
  const plain = fromPackage({ src: edges.map((e) => e[0]), dst: edges.map((e) => e[1]), weights: edges.map((e) => e[2]), vertices: [9], source: 'test' }, { pageEdges: 2 });
  sameGraph(t, want, plain);
  const typed = fromPackage(
    { src: Uint32Array.from(edges, (e) => e[0]), dst: Int32Array.from(edges, (e) => e[1]), weights: Float64Array.from(edges, (e) => e[2]), vertices: Uint32Array.of(9), directed: true, source: 'test' },
    { pageEdges: 2 },
  );
  sameGraph(t, want, typed);
  // Float32 weights stay float32; directed defaults to true; undirected on request.
  t.is(fromPackage({ src: [0], dst: [1], weights: Float32Array.of(1.5) }).weightType, 'float32');
  t.true(fromPackage({ src: [0], dst: [1] }).directed);
  t.false(fromPackage({ src: [0], dst: [1], directed: false }).directed);
  // The documented snippet: a small graph with small pages, run.
  const g = fromPackage({ src: [0, 1, 2], dst: [1, 2, 3] }, { pageEdges: 64 });
  const r = await run(g, 'bfs', { source: 0, topology: { name: '1S', source: 'test', sockets: [{ id: 0, threads: 1 }], gpus: [], interconnect: {}, model: {} } });
  t.deepEqual([0, 1, 2, 3].map((v) => r.get(v)), [0, 1, 2, 3]);
  const cases: Array<[unknown, unknown, RegExp]> = [
    [{ src: [0, -1], dst: [1, 2] }, undefined, /buildGraph edges: src\[1\] is -1, not a vertex id/],
    [{ src: [0, 1], dst: [1, 2.5] }, undefined, /dst\[1\] is 2\.5, not a vertex id/],
    [{ src: [0], dst: [4294967295] }, undefined, /dst\[0\] is 4294967295, not a vertex id/],
    [{ src: '01', dst: [1, 2] }, undefined, /src must be an array of numbers or a typed array, got a string/],
    [{ src: [0, 1], dst: [1, 2], weights: [1, Number.NaN] }, undefined, /weights\[1\] is NaN, not a finite number/],
    [{ src: [0, 1], dst: [1] }, undefined, /the edge lists differ in length \(2 sources, 1 targets\)/],
    [{ src: [0] }, undefined, /src and dst are required/],
    [{ src: [0], dst: [1], directd: true }, undefined, /unknown option 'directd'.*did you mean 'directed'\?/],
    [{ src: [0], dst: [1], maxId: 1 }, undefined, /maxId is a reader's promise/],
    [null, undefined, /buildGraph takes edges as an object, got null/],
    [{ src: [0], dst: [1] }, { renumber: 'bogus' }, /renumber must be 'degree' or 'none'/],
    [{ src: [0], dst: [1] }, { pagEdges: 4 }, /unknown option 'pagEdges'.*did you mean 'pageEdges'\?/],
  ];
  for (const [raw, opts, re] of cases) {
    const e = t.throws(() => fromPackage(raw as never, opts as never), { instanceOf: TesseraError });
    t.regex(e!.message, re);
    t.false(e!.message.includes('\n'));
  }
});
