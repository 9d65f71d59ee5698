/**
 * A partition's boundary counts on the addon's threads (modelCount: native/src/addon_model.cpp)
 * against the JS pass (countMatricesJs), on partitions of 3 and 4 elements over RMAT graphs with
 * split pages; the memo of repeated partitions; and the fallback with TESSERA_NATIVE_MODEL=0.
 * Native cases skip only where the toolchain is missing (as native.test.ts).
 */
import test from 'ava';
import { nativeAvailable } from '../actors/gpu/native.js';
import { nativeModelCount } from '../actors/gpu/native-host.js';
import { buildGraph } from '../src/graph/build.js';
import { generateEdges } from '../src/graph/generate/index.js';
import type { Graph } from '../src/graph/types.js';
import { countMatrices, countMatricesJs, countMatricesNative } from '../src/model/boundary-count.js';
import { boundaryTraffic, boundaryTrafficExact, partitionGraph, type ModelElement, type Partition } from '../src/model/index.js';

const avail = nativeAvailable();
const skipNative = !avail.ok && avail.toolchainMissing;
const tn = skipNative ? test.skip : test;

const cpu = (name: string): ModelElement => ({ name, kind: 'cpu', rate: 1e8, threads: 1 });
const gpu = (name: string, rate: number): ModelElement => ({ name, kind: 'gpu', rate });
const THREE: ModelElement[] = [cpu('socket0'), gpu('gpu0', 3e8), gpu('gpu1', 2e8)];
const FOUR: ModelElement[] = [cpu('socket0'), cpu('socket1'), gpu('gpu0', 3e8), gpu('gpu1', 2e8)];

/** Small pages, so that hubs span several (split) pages and threads share an element's pages. */
function graphs(): Graph[] {
  return [
    buildGraph(generateEdges('rmat:11:ef=16:seed=3'), { pageEdges: 256 }),
    buildGraph({ ...generateEdges('rmat:10:ef=8:seed=5'), directed: false }, { pageEdges: 97 }),
  ];
}

/** Every (strategy, way, alpha) partition of both orientations. */
function* partitions(g: Graph, elements: ModelElement[]): Generator<Partition> {
  for (const orientation of ['in', 'out'] as const)
    for (const strategy of ['high', 'low', 'rand'] as const)
      for (const multiGpu of ['p', 's'] as const)
        for (const alpha of [0, 0.15, 0.4, 0.75, 1]) yield partitionGraph(g, { elements }, { strategy, multiGpu, alpha, orientation, seed: 11 });
}

/** Runs fn with TESSERA_NATIVE_MODEL set to v (restored after). */
function withEnv<T>(v: string | undefined, fn: () => T): T {
  const old = process.env.TESSERA_NATIVE_MODEL;
  if (v === undefined) delete process.env.TESSERA_NATIVE_MODEL;
  else process.env.TESSERA_NATIVE_MODEL = v;
  try {
    return fn();
  } finally {
    if (old === undefined) delete process.env.TESSERA_NATIVE_MODEL;
    else process.env.TESSERA_NATIVE_MODEL = old;
  }
}

tn('modelCount equals the JS count on 3 and 4 elements (high/low/rand, p/s, in/out, split pages)', (t) => {
  t.truthy(nativeModelCount(), avail.ok ? 'the addon has modelCount' : `native addon unavailable: ${avail.ok || avail.reason}`);
  let cases = 0;
  let crossing = 0;
  for (const g of graphs()) {
    t.true(g.in.pages.some((p) => p.split) && g.out.pages.some((p) => p.split), 'the graph has split pages');
    for (const elements of [THREE, FOUR])
      for (const part of partitions(g, elements)) {
        const js = countMatricesJs(g, part);
        const nat = countMatricesNative(g, part);
        if (nat === null) return t.fail('the native count declined a partitionGraph partition');
        const what = `${part.orientation} ${part.strategy}/${part.multiGpu} alpha ${part.alphaRequested} k ${elements.length}`;
        t.deepEqual([...nat.agg], [...js.agg], `agg: ${what}`);
        t.deepEqual([...nat.raw], [...js.raw], `raw: ${what}`);
        cases++;
        if (js.agg.some((x) => x > 0)) crossing++;
      }
  }
  t.true(crossing > cases / 2, 'most partitions have boundary messages');
});

tn('modelCount on random owner maps (partitions no strategy makes) and up to 24 elements (wider cells)', (t) => {
  const g = buildGraph(generateEdges('rmat:10:ef=16:seed=9'), { pageEdges: 128 });
  let s = 12345;
  const rnd = (m: number): number => ((s = (s * 1103515245 + 12345) >>> 0) >>> 8) % m;
  for (const k of [3, 4, 12, 20, 30]) {
    for (let trial = 0; trial < 2; trial++) {
      const pages = g.in.pages;
      const lists: number[][] = Array.from({ length: k }, () => []);
      pages.forEach((_, i) => lists[rnd(k)]!.push(i));
      const owner = new Uint8Array(g.numVertices);
      for (let v = 0; v < owner.length; v++) owner[v] = rnd(k);
      const part: Partition = {
        strategy: 'rand',
        multiGpu: 'p',
        alphaRequested: 0,
        alpha: 0,
        orientation: 'in',
        seed: 1,
        totalEdges: g.numEdges,
        elements: lists.map((l, i) => ({ name: `e${i}`, kind: i === 0 ? 'cpu' : 'gpu', pages: Uint32Array.from(l), ranges: [], edges: 0, vertices: 0, bytes: 0, residentPages: 0, streamedPages: 0, residentBytes: 0, streamedBytes: 0 })),
        owner,
        feasible: true,
      };
      const js = countMatricesJs(g, part);
      const nat = countMatricesNative(g, part);
      if (k > 24) {
        t.is(nat, null, 'more than 24 elements: the JS count');
        t.deepEqual(boundaryTraffic(g, part), boundaryTrafficExact(g, part));
        continue;
      }
      t.truthy(nat);
      t.deepEqual([...nat!.agg], [...js.agg], `agg k ${k}`);
      t.deepEqual([...nat!.raw], [...js.raw], `raw k ${k}`);
      t.deepEqual(boundaryTraffic(g, part), boundaryTrafficExact(g, part));
    }
  }
});

test('TESSERA_NATIVE_MODEL=0: no addon count; boundaryTraffic is the JS count, and equals the native one', (t) => {
  const g = graphs()[0]!;
  const parts = [...partitions(g, THREE)].filter((_, i) => i % 7 === 0);
  const js = withEnv('0', () => {
    t.is(nativeModelCount(), undefined);
    t.is(countMatricesNative(g, parts[0]!), null);
    return parts.map((p) => boundaryTrafficExact(g, p));
  });
  parts.forEach((p, i) => t.deepEqual(js[i], { ...js[i]!, matrix: countMatricesJs(g, p).agg }));
  if (skipNative) return;
  const nat = parts.map((p) => boundaryTrafficExact(g, p));
  t.deepEqual(nat, js);
});

test('repeated partitions reuse the counts (equal key: equal counts), and fresh arrays each time', (t) => {
  const g = graphs()[1]!;
  // At alpha 1 every strategy and way puts all pages on the socket; at 0, HIGH and LOW cut alike.
  const a = partitionGraph(g, { elements: THREE }, { strategy: 'high', multiGpu: 'p', alpha: 1 });
  const b = partitionGraph(g, { elements: THREE }, { strategy: 'rand', multiGpu: 's', alpha: 1, seed: 5 });
  const c = partitionGraph(g, { elements: THREE }, { strategy: 'high', multiGpu: 'p', alpha: 0 });
  const d = partitionGraph(g, { elements: THREE }, { strategy: 'low', multiGpu: 'p', alpha: 0 });
  for (const [x, y] of [[a, b], [c, d]] as const) {
    const mx = countMatrices(g, x);
    const my = countMatrices(g, y);
    t.not(mx.agg, my.agg);
    t.deepEqual([...my.agg], [...countMatricesJs(g, y).agg]);
    t.deepEqual([...my.raw], [...countMatricesJs(g, y).raw]);
    mx.agg.fill(-1);
    t.deepEqual([...countMatrices(g, x).agg], [...countMatricesJs(g, x).agg], 'a caller writing its arrays does not change the memo');
  }
});
