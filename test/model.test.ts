import { busiestQueue, planSteal, releaseFromTail, shouldSteal } from '../src/engine/steal.js';
import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildGraph } from '../src/graph/build.js';
import { generateEdges } from '../src/graph/generate/index.js';
import type { Graph, Orientation } from '../src/graph/types.js';
import { parseTopology } from '../src/topology/load.js';
import type { Topology } from '../src/topology/schema.js';
import { isTesseraError } from '../src/errors.js';
import { nativeAvailable } from '../actors/gpu/native.js';
import { gpuRanges, gpuShareFor } from '../src/engine/partition.js';
import {
  alphaGrid,
  bestPoint,
  boundaryTraffic,
  boundaryTrafficExact,
  cacheKey,
  cpuCacheKey,
  calibratedTooSmall,
  ENGINE_COSTS,
  measureLink,
  calibrate,
  choosePartition,
  gpuJoins,
  measureCpuOn,
  fitPassTime,
  fitVertexTerm,
  tooCloseToFit,
  minResidentAlpha,
  modelSummary,
  measuredBeta,
  modelParamsFor,
  modelSweep,
  partitionGraph,
  predict,
  predictAlpha,
  pushLevels,
  levelEdgesOf,
  pullToGpuFromPrediction,
  programProfile,
  readCache,
  speedupEq4,
  splitShares,
  splitRunTime,
  type MeasureFn,
  type ModelElement,
  type ModelParams,
  type Partition,
  type Strategy,
  type SweepPoint,
} from '../src/model/index.js';
import { tinyGraph } from './helpers/tiny-graph.js';
import { rawFrom } from './helpers/raw.js';
import { REPO_ROOT } from './helpers/paths.js';
import { run as runAlgo } from '../src/api.js';

const close = (a: number, b: number, rel = 1e-9): boolean => Math.abs(a - b) <= rel * Math.max(1, Math.abs(a), Math.abs(b));

// ------------------------------------------------------------------------------------------------
// The model's numbers, by hand

test('two elements: TOTEM Eq. 1-4 on a hand-computed example', (t) => {
  // |E| = 1e9, r_cpu = 1e9, r_gpu = 4e9, c = 3e9 (TOTEM Fig. 1 magnitudes), alpha 0.6, beta 0.05.
  const params: ModelParams = {
    elements: [
      { name: 'socket0', kind: 'cpu', rate: 1e9, threads: 1 },
      { name: 'gpu0', kind: 'gpu', rate: 4e9 },
    ],
    c: 3e9,
    messageBytes: 4,
  };
  const p = predictAlpha(params, 1e9, 0.6, 0.05);
  // CPU: 0.6e9 / 1e9 = 0.6 s; GPU: 0.4e9 / 4e9 = 0.1 s; communication: 0.05e9 / 3e9 = 1/60 s.
  t.true(close(p.elements[0]!.computeS, 0.6));
  t.true(close(p.elements[1]!.computeS, 0.1));
  t.true(close(p.commS, 1 / 60));
  t.true(close(p.makespanS, 0.6 + 1 / 60));
  t.true(close(p.cpuOnlyS, 1));
  t.is(p.bottleneck, 'socket0');
  // Eq. 4: 1 / (alpha + beta r_cpu / c) = 1 / (0.6 + 0.05 / 3) = 1.6216...
  t.true(close(p.speedup, 1 / (0.6 + 0.05 / 3)));
  t.true(close(p.speedup, speedupEq4(0.6, 0.05, 1e9, 3e9)));
  t.true(close(p.alpha, 0.6));
  t.true(close(p.beta, 0.05));
  // c -> infinity: the speedup tends to 1 / alpha (TOTEM §3).
  t.true(close(predictAlpha({ ...params, c: Infinity }, 1e9, 0.6, 0.05).speedup, 1 / 0.6));
  // The GPU as the bottleneck: alpha 0.1 -> GPU 0.9e9 / 4e9 = 0.225 s > CPU 0.1 s.
  const g = predictAlpha(params, 1e9, 0.1, 0.05);
  t.is(g.bottleneck, 'gpu0');
  t.true(close(g.makespanS, 0.225 + 1 / 60));
  // alpha = 1: everything on the CPU, no messages, speedup 1.
  const one = predictAlpha(params, 1e9, 1, 0.05);
  t.true(close(one.speedup, 1));
  t.is(one.commS, 0);
});

test('level-synchronous BFS: each level waits for its slowest element, by hand', (t) => {
  // CPU 1e9 edges/s, GPU 4e9. Three levels: the CPU's hubs are all in level 1, the GPU's tail in
  // levels 2 and 3. Totals: CPU 0.4e9 (0.4 s), GPU 1.6e9 (0.4 s): balanced over the run, yet
  // level 1 waits for the CPU (0.3 s vs GPU 0.1e9 / 4e9 = 0.025 s), level 2 for the GPU
  // (0.8e9 / 4e9 = 0.2 vs 0.1), level 3 for the GPU (0.7e9 / 4e9 = 0.175 vs 0).
  const params: ModelParams = {
    elements: [
      { name: 'socket0', kind: 'cpu', rate: 1e9, threads: 1, overheadS: 0.01 },
      { name: 'gpu0', kind: 'gpu', rate: 4e9, overheadS: 0.02 },
    ],
    c: Infinity,
    messageBytes: 12,
  };
  const loads = [
    { edges: 0.4e9, levels: [0.3e9, 0.1e9, 0] },
    { edges: 1.6e9, levels: [0.1e9, 0.8e9, 0.7e9] },
  ];
  const p = predict(params, loads, { messages: 0 });
  // Sum of per-level maxima + the larger overhead of the elements that have edges.
  t.true(close(p.computeS, 0.3 + 0.2 + 0.175 + 0.02), `${p.computeS}`);
  t.true(close(p.makespanS, 0.695));
  // Without levels: the slower element's total (0.4 + its overhead) — the level form is never less.
  const flat = predict(params, loads.map(({ edges }) => ({ edges })), { messages: 0 });
  t.true(close(flat.computeS, 0.42));
  t.true(p.computeS >= flat.computeS);
  // The CPU-only baseline is the same either way (its levels add up to its total)...
  t.true(close(p.cpuOnlyS, flat.cpuOnlyS));
  // ...and walks only what the levels reach when the source does not reach every edge.
  const part = predict(params, [{ edges: 0.4e9, levels: [0.3e9, 0, 0] }, { edges: 1.6e9, levels: [0.1e9, 0.1e9, 0] }], { messages: 0 });
  t.true(close(part.cpuOnlyS, 0.5 + 0.01));
  t.true(close(part.computeS, 0.3 + 0.025 + 0.02));
  // The coordinator's share of each rate (coordShare), paid once per level for all its edges:
  // CPU 0.2 of its 1 ns per edge (0.2 ns), GPU 0.4 of its 0.25 ns (0.1 ns).
  const coord: ModelParams = { ...params, elements: [{ ...params.elements[0]!, coordShare: 0.2 }, { ...params.elements[1]!, coordShare: 0.4 }] };
  const c = predict(coord, loads, { messages: 0 });
  // Level 1 (both): 0.4e9 x 0.2 ns + max(0.3e9 x 0.8 ns, 0.1e9 x 0.15 ns) = 0.08 + 0.24
  // Level 2 (both): 0.9e9 x 0.2 ns + max(0.1e9 x 0.8 ns, 0.8e9 x 0.15 ns) = 0.18 + 0.12
  // Level 3 (GPU):  0.7e9 x 0.1 ns + 0.7e9 x 0.15 ns = 0.175 (its own rate, as without the term)
  t.true(close(c.computeS, 0.32 + 0.3 + 0.175 + 0.02), `${c.computeS}`);
  t.true(c.computeS > p.computeS, 'a level that both compute pays the coordinator once more');
  t.true(close(c.cpuOnlyS, p.cpuOnlyS));
});

test('pushLevels: a serial top-down BFS per level and page; page sums give each element its level loads', (t) => {
  const g = buildGraph(rawFrom(Array.from({ length: 4000 }, (_, i): [number, number] => [(i * 7919) % 600, (i * 104729 + 13) % 600]), { directed: true }), { pageEdges: 256 });
  const source = 0;
  const levels = pushLevels(g, source);
  // Reference: BFS over the flat adjacency; level k pushes the out-edges of the vertices at depth k.
  const adj: number[][] = Array.from({ length: g.numVertices }, () => []);
  for (const p of g.out.pages) for (let v = p.vBegin; v < p.vEnd; v++) for (let e = p.offsets[p.split ? 0 : v - p.vBegin]!; e < p.offsets[p.split ? 1 : v - p.vBegin + 1]!; e++) adj[v]!.push(p.nbrs[e]!);
  const depth = new Int32Array(g.numVertices).fill(-1);
  depth[source] = 0;
  const want: number[] = [];
  for (let q = [source], k = 0; q.length > 0; k++) {
    want.push(q.reduce((a, v) => a + g.outDegree[v]!, 0));
    const nq: number[] = [];
    for (const v of q) for (const u of adj[v]!) if (depth[u] === -1) ((depth[u] = k + 1), nq.push(u));
    q = nq;
  }
  t.true(want.length >= 3, `${want.length} levels`);
  t.deepEqual(levels.map((l) => l.reduce((a, b) => a + b, 0)), want);
  // Two elements cutting the pages: their level loads add up to the level totals.
  const cut = Math.floor(g.out.pages.length / 2);
  const a = levelEdgesOf(levels, Array.from({ length: cut }, (_, i) => i));
  const b = levelEdgesOf(levels, Array.from({ length: g.out.pages.length - cut }, (_, i) => cut + i));
  t.deepEqual(a.map((x, i) => x + b[i]!), want);
  // Each page's share is the out-degree of its frontier vertices in that page.
  for (let k = 0; k < levels.length; k++)
    for (const p of g.out.pages) {
      let e = 0;
      for (let v = p.vBegin; v < p.vEnd; v++) if (depth[v] === k) e += p.split ? p.edges : p.offsets[v - p.vBegin + 1]! - p.offsets[v - p.vBegin]!;
      if (levels[k]![p.index] !== e) t.fail(`level ${k} page ${p.index}: ${levels[k]![p.index]} vs ${e}`);
    }
});

test('n sockets + m GPUs: shares by rate, per-link communication, streaming and loading, by hand', (t) => {
  // Sockets: 2 threads and 1 thread at 1e8 edges/s per thread; GPUs at 6e8 and 3e8; c = 1e8 msg/s.
  const elements: ModelElement[] = [
    { name: 'socket0', kind: 'cpu', rate: 2e8, threads: 2 },
    { name: 'socket1', kind: 'cpu', rate: 1e8, threads: 1 },
    { name: 'gpu0', kind: 'gpu', rate: 6e8 },
    { name: 'gpu1', kind: 'gpu', rate: 3e8 },
  ];
  const E = 9e8;
  const shares = splitShares(elements, 1 / 3, E);
  // CPU 3e8 split 2:1, GPU 6e8 split 6:3.
  t.true(close(shares[0]!, 2e8) && close(shares[1]!, 1e8) && close(shares[2]!, 4e8) && close(shares[3]!, 2e8));
  const params: ModelParams = { elements, c: 1e8, messageBytes: 10 };
  const loads = shares.map((edges) => ({ edges }));
  const p = predict(params, loads, { messages: 2.5e7, perLink: [0, 0, 2e7, 1e7] });
  // CPU: 3e8 / 3e8 = 1 s; GPUs: 4e8 / 6e8 = 2e8 / 3e8 = 2/3 s; links: 2e7 / 1e8 = 0.2 s (parallel).
  t.true(close(p.computeS, 1));
  t.true(close(p.elements[2]!.computeS, 2 / 3) && close(p.elements[3]!.computeS, 2 / 3));
  t.true(close(p.commS, 0.2));
  t.true(close(p.makespanS, 1.2));
  t.true(close(p.cpuOnlyS, 3));
  t.true(close(p.speedup, 2.5));
  // gpu0 streams 2e9 B per pass at 1e8 x 10 = 1e9 B/s: 2 s > its 2/3 s compute (overlapped, GTS);
  // it loads 1e9 B of resident pages + 5e8 B of state once: 1.5 s. Two passes: 1.5 + 2 x (2 + 0.2).
  const loads2 = loads.map((l, i) => (i === 2 ? { ...l, residentBytes: 1e9, streamedBytes: 2e9 } : l));
  const q = predict({ ...params, gpuStateBytes: 5e8, passes: 2 }, loads2, { messages: 2.5e7, perLink: [0, 0, 2e7, 1e7] });
  t.true(close(q.elements[2]!.streamS, 2));
  t.true(close(q.elements[2]!.stepS, 2));
  t.is(q.bottleneck, 'gpu0');
  t.true(close(q.loadS, 1.5 + 0)); // gpu1: state only (5e8 / 1e9 = 0.5 s) < 1.5 s
  t.true(close(q.makespanS, 1.5 + 2 * 2.2));
  t.true(close(q.speedup, 6 / 5.9));
  // Without per-link counts every message is charged to one link (TOTEM's single c).
  t.true(close(predict(params, loads, { messages: 2.5e7 }).commS, 0.25));
});

test('alpha grid and Garaph join rule', (t) => {
  t.deepEqual(alphaGrid(4, true), [0, 0.25, 0.5, 0.75, 1]);
  t.deepEqual(alphaGrid(4, false), [1]);
  // alpha_G = min(2 f rho, 1) T_pull / T_GPU (Garaph Eq. 3).
  t.deepEqual(gpuJoins({ activeFraction: 0.01, pullToGpu: 10 }), { alphaG: 0.2, join: false });
  t.true(gpuJoins({ activeFraction: 0.1, pullToGpu: 10 }).join); // 0.2 x 10 = 2
  t.true(close(gpuJoins({ activeFraction: 0.9, pullToGpu: 0.8 }).alphaG, 0.8)); // capped at a dense pull
  t.false(gpuJoins({ activeFraction: 0.9, pullToGpu: 0.8 }).join);
  // T_pull / T_GPU from the model: the CPU pulling all 1e9 edges (1 s) against the GPU's
  // 0.4e9 / 4e9 s compute + 0.05e9 / 3e9 s transfer at alpha 0.6 (the first test's example).
  const params: ModelParams = { elements: [{ name: 'socket0', kind: 'cpu', rate: 1e9 }, { name: 'gpu0', kind: 'gpu', rate: 4e9 }], c: 3e9, messageBytes: 4 };
  const ratio = pullToGpuFromPrediction(params, predictAlpha(params, 1e9, 0.6, 0.05));
  t.true(close(ratio, 1 / (0.1 + 1 / 60)));
  // The GPU joins a superstep once 2f x 8.57 >= 1, i.e. f >= 5.8%.
  t.false(gpuJoins({ activeFraction: 0.05, pullToGpu: ratio }).join);
  t.true(gpuJoins({ activeFraction: 0.06, pullToGpu: ratio }).join);
});

// ------------------------------------------------------------------------------------------------
// Partitions

function skewedGraph(pageEdges: number): Graph {
  return buildGraph(generateEdges('rmat:10:ef=16:seed=3'), { pageEdges });
}

/** The same edges without self-loops and repeats, so that the builder's degree order is the final one. */
function simpleSkewedGraph(pageEdges: number): Graph {
  const raw = generateEdges('rmat:10:ef=16:seed=3');
  const seen = new Set<number>();
  const edges: Array<[number, number]> = [];
  for (let i = 0; i < raw.src.length; i++) {
    const s = raw.src.get(i);
    const d = raw.dst.get(i);
    if (s !== d && !seen.has(s * 4096 + d)) (seen.add(s * 4096 + d), edges.push([s, d]));
  }
  return buildGraph(rawFrom(edges), { pageEdges });
}

const cpuGpu = (gpuMemory?: number): ModelElement[] => [
  { name: 'socket0', kind: 'cpu', rate: 1e8, threads: 2 },
  { name: 'gpu0', kind: 'gpu', rate: 1e8, ...(gpuMemory !== undefined ? { memoryBytes: gpuMemory } : {}) },
];

function checkCovers(t: import('ava').ExecutionContext, g: Graph, part: Partition): void {
  const pages = g[part.orientation].pages;
  const seen = new Uint8Array(pages.length);
  for (const e of part.elements) for (const i of e.pages) seen[i]!++;
  t.true(seen.every((x) => x === 1), 'every page owned exactly once');
  let edges = 0;
  for (const e of part.elements) edges += e.edges;
  t.is(edges, g.numEdges);
  for (let i = 0; i < part.elements.length; i++)
    for (const pi of part.elements[i]!.pages) for (let v = pages[pi]!.vBegin; v < pages[pi]!.vEnd; v++) if (part.owner[v] !== i) return t.fail(`owner of ${v}`);
}

test('HIGH puts the highest-degree vertices (lowest internal ids) on the CPU, LOW on the GPU', (t) => {
  const g = simpleSkewedGraph(256);
  t.true(g.in.pages.length > 20);
  const deg = (v: number): number => g.outDegree[v]! + g.inDegree[v]!;
  for (const alpha of [0.2, 0.5, 0.8]) {
    for (const strategy of ['high', 'low'] as const) {
      const part = partitionGraph(g, { elements: cpuGpu() }, { strategy, alpha });
      checkCovers(t, g, part);
      const [cpu, gpu] = part.elements;
      const top = strategy === 'high' ? cpu! : gpu!;
      const bottom = strategy === 'high' ? gpu! : cpu!;
      t.true(top.pages.length > 0 && bottom.pages.length > 0);
      // Contiguous: every page of the "top" element precedes every page of the other.
      t.true(top.pages[top.pages.length - 1]! < bottom.pages[0]!, `${strategy} ${alpha}`);
      t.is(top.ranges.length, 1);
      t.is(top.ranges[0]![0], 0);
      // Degree order: the least connected "top" vertex has at least the degree of every "bottom" one.
      let minTop = Infinity;
      let maxBottom = 0;
      for (let v = 0; v < g.numVertices; v++) {
        if (part.owner[v] === (strategy === 'high' ? 0 : 1)) minTop = Math.min(minTop, deg(v));
        else maxBottom = Math.max(maxBottom, deg(v));
      }
      t.true(minTop >= maxBottom, `${strategy} alpha ${alpha}: ${minTop} < ${maxBottom}`);
      // The cut lands within one unit (a page, or a split vertex's pages) of the request.
      let maxUnit = 0;
      for (const p of g.in.pages) maxUnit = Math.max(maxUnit, p.edges);
      const hubs = new Map<number, number>();
      for (const p of g.in.pages) if (p.split) hubs.set(p.vBegin, (hubs.get(p.vBegin) ?? 0) + p.edges);
      for (const e of hubs.values()) maxUnit = Math.max(maxUnit, e);
      t.true(Math.abs(part.alpha - alpha) * g.numEdges <= maxUnit, `alpha ${part.alpha} vs ${alpha}`);
    }
  }
  // alpha = 1 / 0: one side gets every page.
  t.is(partitionGraph(g, { elements: cpuGpu() }, { strategy: 'high', alpha: 1 }).elements[1]!.pages.length, 0);
  t.is(partitionGraph(g, { elements: cpuGpu() }, { strategy: 'low', alpha: 0 }).elements[0]!.pages.length, 0);
});

test('RAND is deterministic by seed and differs across seeds', (t) => {
  const g = skewedGraph(128);
  const a = partitionGraph(g, { elements: cpuGpu() }, { strategy: 'rand', alpha: 0.5, seed: 7 });
  const b = partitionGraph(g, { elements: cpuGpu() }, { strategy: 'rand', alpha: 0.5, seed: 7 });
  const c = partitionGraph(g, { elements: cpuGpu() }, { strategy: 'rand', alpha: 0.5, seed: 8 });
  checkCovers(t, g, a);
  t.deepEqual(a.owner, b.owner);
  t.deepEqual([...a.elements[0]!.pages], [...b.elements[0]!.pages]);
  t.notDeepEqual(a.owner, c.owner);
  // Not HIGH in disguise: the CPU's pages are not one prefix.
  t.true(a.elements[0]!.ranges.length > 1);
  t.true(Math.abs(a.alpha - 0.5) < 0.1);
});

test('split pages of one vertex are never separated (every strategy, many alphas, 2S2G)', (t) => {
  const g = skewedGraph(64);
  const splits = g.in.pages.filter((p) => p.split);
  t.true(splits.length >= 2, 'the graph has split pages');
  const elements: ModelElement[] = [
    { name: 'socket0', kind: 'cpu', rate: 1e8, threads: 1 },
    { name: 'socket1', kind: 'cpu', rate: 1e8, threads: 1 },
    { name: 'gpu0', kind: 'gpu', rate: 3e8 },
    { name: 'gpu1', kind: 'gpu', rate: 2e8 },
  ];
  let checked = 0;
  for (const strategy of ['high', 'low', 'rand'] as const)
    for (let k = 0; k <= 20; k++) {
      const part = partitionGraph(g, { elements }, { strategy, alpha: k / 20, seed: k });
      const ownerOfPage = new Int32Array(g.in.pages.length).fill(-1);
      part.elements.forEach((e, i) => e.pages.forEach((p) => (ownerOfPage[p] = i)));
      for (const p of splits) {
        const first = g.in.firstPageOf[p.vBegin]!;
        if (ownerOfPage[p.index] !== ownerOfPage[first]) return t.fail(`${strategy} alpha ${k / 20}: split vertex ${p.vBegin} separated`);
        checked++;
      }
    }
  t.true(checked > 0, 'split pages were checked');
});

// ------------------------------------------------------------------------------------------------
// Beta, by hand

/** A partition with the owner per vertex given (tiny graphs whose pages each hold one vertex). */
function handPartition(g: Graph, orientation: Orientation, owner: number[], kinds: Array<'cpu' | 'gpu'>): Partition {
  const pages = g[orientation].pages;
  const elements = kinds.map((kind, i) => {
    const list = pages.filter((p) => owner[p.vBegin] === i).map((p) => p.index);
    return { name: `${kind}${i}`, kind, pages: Uint32Array.from(list), ranges: [], edges: 0, vertices: 0, bytes: 0, residentPages: 0, streamedPages: 0, residentBytes: 0, streamedBytes: 0 };
  });
  return { strategy: 'high', multiGpu: 'p', alphaRequested: 0, alpha: 0, orientation, seed: 1, totalEdges: g.numEdges, elements, owner: Uint8Array.from(owner), feasible: true };
}

test('beta after aggregation counted by hand on a tiny graph (pull and push, 2 and 3 elements)', (t) => {
  const edges: Array<[number, number]> = [
    [0, 3], [1, 3], [2, 3], [0, 4], [3, 0], [4, 1], [5, 1], [5, 2], [3, 4], [1, 2],
  ];
  const g = tinyGraph(edges, { pageEdges: 1 });
  for (const o of ['in', 'out'] as const) for (const p of g[o].pages) t.is(p.vEnd - p.vBegin, 1, 'one vertex per page');
  // CPU {0,1,2}, GPU {3,4,5}.
  // Pull (in-pages): CPU reads remote 3 (for 0), 4 and 5 (for 1), 5 (for 2): {3,4,5} = 3 messages, 4 edges;
  // GPU reads 0, 1, 2 (for 3) and 0 (for 4): {0,1,2} = 3 messages, 4 edges. beta = 6/10.
  const pull = boundaryTraffic(g, handPartition(g, 'in', [0, 0, 0, 1, 1, 1], ['cpu', 'gpu']));
  t.is(pull.messages, 6);
  t.is(pull.messagesRaw, 8);
  t.deepEqual(pull.perLink, [0, 6]);
  t.is(pull.hostMessages, 0);
  // Push (out-pages): CPU sends to 3 (from 0, 1, 2) and 4 (from 0): 2 messages, 4 edges;
  // GPU sends to 0 (from 3), 1 (from 4 and 5), 2 (from 5): 3 messages, 4 edges; 3 -> 4 is local.
  const push = boundaryTraffic(g, handPartition(g, 'out', [0, 0, 0, 1, 1, 1], ['cpu', 'gpu']));
  t.is(push.messages, 5);
  t.is(push.messagesRaw, 8);
  // Three elements, pull: socket0 {0,1}, socket1 {2}, gpu {3,4,5}.
  // socket0 reads 3, 4, 5 (gpu: 3); socket1 reads 5 (gpu) and 1 (socket0: host, no link);
  // gpu reads 0, 1 (socket0: 2) and 2 (socket1: 1). Link: 3 + 1 + 2 + 1 = 7; host: 1.
  const three = boundaryTraffic(g, handPartition(g, 'in', [0, 0, 1, 2, 2, 2], ['cpu', 'cpu', 'gpu']));
  t.is(three.messages, 7);
  t.is(three.hostMessages, 1);
  t.deepEqual(three.perLink, [0, 0, 7]);
  t.deepEqual([...three.matrix], [0, 0, 3, 1, 0, 1, 2, 1, 0]);
  // Two GPUs: a GPU-GPU message uses both links. gpu {3,4} and gpu {5}, CPU {0,1,2}, pull:
  // gpu(3,4) reads 0,1,2 (cpu) -> 3; gpu(5) reads nothing; cpu reads 3,4 (gpu A) and 5 (gpu B).
  const two = boundaryTraffic(g, handPartition(g, 'in', [0, 0, 0, 1, 1, 2], ['cpu', 'gpu', 'gpu']));
  t.deepEqual([...two.matrix], [0, 2, 1, 3, 0, 0, 0, 0, 0]);
  t.deepEqual(two.perLink, [0, 5, 1]);
  t.deepEqual(two.perPeer, [0, 0, 0], 'no message between the two GPUs');
  // GPU A {3,4} and GPU B {0,5}, CPU {1,2}, pull: A reads 0 (B), 1 and 2 (cpu); B's 0 reads 3
  // (A); B's 5 reads nothing; cpu's 1 reads 4 (A) and 5 (B), 2 reads 5 (B). Each GPU's link: A
  // 2 + 1 + 1 + 1 = 5, B 1 + 1 + 1 = 3; of them A <-> B: 2 messages, on each GPU's peer side.
  const peers = boundaryTraffic(g, handPartition(g, 'in', [2, 0, 0, 1, 1, 2], ['cpu', 'gpu', 'gpu']));
  t.deepEqual([...peers.matrix], [0, 1, 1, 2, 0, 1, 0, 1, 0]);
  t.deepEqual(peers.perPeer, [0, 2, 2]);
  t.deepEqual(peers.perLink, [0, 5, 3]);
});

test('messages between GPUs cross the peer link when its rate is known (GTS peer copies), else both host links', (t) => {
  const elements: ModelElement[] = [
    { name: 'socket0', kind: 'cpu', rate: 1e9, threads: 1 },
    { name: 'gpu0', kind: 'gpu', rate: 1e9 },
    { name: 'gpu1', kind: 'gpu', rate: 1e9 },
  ];
  const params: ModelParams = { elements, c: 10, messageBytes: 8 };
  const loads = [{ edges: 0 }, { edges: 1 }, { edges: 1 }];
  const traffic = { messages: 30, perLink: [0, 30, 20], perPeer: [0, 20, 20] };
  const host = predict(params, loads, traffic);
  t.true(close(host.elements[1]!.transferS, 3) && close(host.elements[2]!.transferS, 2));
  // 20 messages x 8 B at 1600 B/s: 0.1 s; gpu0's 10 host messages still 1 s.
  const peer = predict({ ...params, peerBytesPerSec: 1600 }, loads, traffic);
  t.true(close(peer.elements[1]!.transferS, 1.1), `${peer.elements[1]!.transferS}`);
  t.true(close(peer.elements[2]!.transferS, 0.1), `${peer.elements[2]!.transferS}`);
  t.true(close(peer.commS, 1.1));
});

test('beta of a real partition matches a direct count over the edges', (t) => {
  const g = skewedGraph(128);
  const part = partitionGraph(g, { elements: cpuGpu() }, { strategy: 'rand', alpha: 0.4, seed: 3 });
  // Direct: pairs (owner of the edge's page vertex, remote neighbour) over the in-pages.
  const pairs = new Set<number>();
  let raw = 0;
  for (const p of g.in.pages)
    for (let v = p.vBegin; v < p.vEnd; v++)
      for (let k = p.offsets[v - p.vBegin]!; k < p.offsets[v - p.vBegin + 1]!; k++) {
        const u = p.nbrs[k]!;
        if (part.owner[u] !== part.owner[v]) (raw++, pairs.add(part.owner[v]! * g.numVertices + u));
      }
  const tr = boundaryTraffic(g, part);
  t.is(tr.messages, pairs.size);
  t.is(tr.messagesRaw, raw);
  t.true(tr.messages < tr.messagesRaw, 'aggregation reduces messages on a skewed graph');
});

test('one socket + one GPU (HIGH, LOW, RAND of two seeds): traffic from the per-cut counts equals the exact pass', (t) => {
  // Small pages: many units, split pages for the hubs; both orientations; directed and undirected.
  for (const g of [skewedGraph(64), buildGraph({ ...generateEdges('rmat:9:ef=8:seed=5'), directed: false }, { pageEdges: 48 })]) {
    t.true(g.in.pages.some((p) => p.split), 'the graph has split pages');
    for (const orientation of ['in', 'out'] as const)
      for (const [strategy, seed] of [['high', 1], ['low', 1], ['rand', 1], ['rand', 7]] as const)
        for (let a = 0; a <= 20; a++) {
          const part = partitionGraph(g, { elements: cpuGpu() }, { strategy, alpha: a / 20, orientation, seed });
          if (strategy !== 'rand') t.true(part.elements.every((e) => e.ranges.length <= 1), 'one contiguous range each');
          t.deepEqual(boundaryTraffic(g, part), boundaryTrafficExact(g, part), `${orientation} ${strategy} seed ${seed} alpha ${a / 20}`);
        }
  }
});

// ------------------------------------------------------------------------------------------------
// GPU memory

test('RAND charges a GPU its byte per vertex of ownership: a memory that holds the HIGH state and a slot may not hold the RAND one', (t) => {
  const g = skewedGraph(64);
  const state = 6 * g.numVertices;
  let slot = 0;
  for (const p of g.in.pages) slot = Math.max(slot, p.buffer.byteLength);
  const mem = state + slot + Math.floor(g.numVertices / 2);
  const high = partitionGraph(g, { elements: cpuGpu(mem), gpuStateBytes: state }, { strategy: 'high', alpha: 0.5 });
  const rand = partitionGraph(g, { elements: cpuGpu(mem), gpuStateBytes: state }, { strategy: 'rand', alpha: 0.5 });
  t.true(high.feasible);
  t.false(rand.feasible);
  t.regex(rand.problem!, /cannot hold its vertex state/);
});

test('alpha respects GPU memory: streamed pages are charged, or alpha is pushed up until they fit', (t) => {
  const g = skewedGraph(256);
  const state = g.numVertices * 16;
  let slot = 0;
  for (const p of g.in.pages) slot = Math.max(slot, p.buffer.byteLength);
  const memory = state + 6 * slot; // room for 6 pages
  const params: ModelParams = { elements: cpuGpu(memory), c: 1e8, messageBytes: 12, gpuStateBytes: state };
  const part = partitionGraph(g, params, { strategy: 'high', alpha: 0 });
  const gpu = part.elements[1]!;
  t.is(gpu.residentPages, 6);
  t.is(gpu.streamedPages, gpu.pages.length - 6);
  t.true(gpu.streamedBytes > 0);
  const choiceStreaming = choosePartition(g, params, { partition: 'high', alpha: 0 })!;
  const e = choiceStreaming.point.prediction.elements[1]!;
  t.true(close(e.streamS, gpu.streamedBytes / (1e8 * 12)));
  // No streaming allowed: the chosen alpha is at least the smallest alpha where the GPU's pages fit.
  const minA = minResidentAlpha(g, params, 'high', 20)!;
  t.true(minA > 0 && minA < 1);
  const resident = choosePartition(g, params, { partition: 'high', steps: 20, allowStreaming: false })!;
  t.is(resident.point.streamedPages, 0);
  t.true(resident.partition.alphaRequested >= minA);
  t.true(resident.partition.elements[1]!.pages.length <= 6);
  // A GPU that cannot even hold its vertex state: every alpha < 1 is infeasible, alpha 1 is chosen.
  const tiny: ModelParams = { ...params, elements: cpuGpu(state - 1) };
  const p0 = partitionGraph(g, tiny, { strategy: 'high', alpha: 0.5 });
  t.false(p0.feasible);
  t.regex(p0.problem!, /gpu0 cannot hold/);
  const forced = choosePartition(g, tiny, { steps: 10 })!;
  t.is(forced.partition.alphaRequested, 1);
  t.is(forced.partition.elements[1]!.pages.length, 0);
});

test('auto picks the smallest predicted makespan over strategies and alphas', (t) => {
  const g = skewedGraph(256);
  const params: ModelParams = {
    elements: [
      { name: 'socket0', kind: 'cpu', rate: 1e8, threads: 1 },
      { name: 'gpu0', kind: 'gpu', rate: 3e8 },
    ],
    c: 1e9,
    messageBytes: 12,
    passes: 10,
  };
  const choice = choosePartition(g, params, { steps: 10 })!;
  t.is(choice.points.length, 33);
  for (const p of choice.points) t.true(choice.point.prediction.makespanS <= p.prediction.makespanS);
  // A GPU three times faster with a fast link takes most of the edges.
  t.true(choice.partition.alpha < 0.5);
  // A slow link and a single pass: loading the GPU's pages costs more than it saves.
  const slow = choosePartition(g, { ...params, c: 1e5, passes: 1 }, { steps: 10 })!;
  t.is(slow.partition.alpha, 1);
  t.deepEqual(STRATS(choice.points), ['high', 'low', 'rand']);
});
const STRATS = (pts: Array<{ strategy: Strategy }>): Strategy[] => [...new Set(pts.map((p) => p.strategy))];

test('auto with a GPU that pays per vertex: LOW hands the CPU the low-degree tail, where HIGH would leave the GPU every vertex', (t) => {
  // CDLP's costs on an H100 with 16 threads (calibration-cache-call3.json in h100-2026-11-23i):
  // per edge 1.75 ns on the CPU, 0.3 ns on the GPU; per vertex 1.45 ns and 0.81 ns.
  const g = skewedGraph(256);
  const params = (perVertex: boolean): ModelParams => ({
    elements: [
      { name: 'socket0', kind: 'cpu', rate: 1 / 1.75e-9, threads: 16, ...(perVertex ? { vertexS: 1.45e-9 } : {}) },
      { name: 'gpu0', kind: 'gpu', rate: 1 / 0.3e-9, ...(perVertex ? { vertexS: 0.81e-9 } : {}) },
    ],
    c: 1e12,
    messageBytes: 12,
    passes: 10,
    pagesResident: true,
  });
  const choice = choosePartition(g, params(true), { steps: 20 })!;
  t.is(choice.point.strategy, 'low');
  t.true(choice.partition.alpha > 0 && choice.partition.alpha < 0.5, `alpha ${choice.partition.alpha}`);
  const bestOf = (pts: SweepPoint[], s: Strategy): number => Math.min(...pts.filter((p) => p.strategy === s && p.feasible).map((p) => p.prediction.makespanS));
  // The best LOW split beats the best HIGH split and the GPU alone.
  const gpuOnly = choice.points.find((p) => p.alphaRequested === 0)!.prediction.makespanS;
  t.true(bestOf(choice.points, 'low') < bestOf(choice.points, 'high') && bestOf(choice.points, 'low') < gpuOnly);
  // Edges alone (TOTEM's model) cannot tell them apart: the best HIGH and LOW splits are within a page of each other.
  const plain = choosePartition(g, params(false), { steps: 20 })!.points;
  t.true(Math.abs(bestOf(plain, 'low') - bestOf(plain, 'high')) < 0.1 * bestOf(plain, 'high'));
});

// ------------------------------------------------------------------------------------------------
// Page stealing policy

test('run-time partitions: HIGH gives the GPUs the low-degree tail, LOW the hubs at the head; both hold about the share of in-edges', (t) => {
  const g = buildGraph({ ...generateEdges('rmat:12'), directed: true }, { pageEdges: 1024 });
  const n = g.numVertices;
  const edgesIn = (b: number, e: number): number => {
    let s = 0;
    for (let v = b; v < e; v++) s += g.inDegree[v]!;
    return s;
  };
  const maxDeg = (b: number, e: number): number => {
    let m = 0;
    for (let v = b; v < e; v++) m = Math.max(m, g.inDegree[v]!);
    return m;
  };
  const [[hb, he]] = gpuRanges(g, 1, 0.3, 'high') as [[number, number]];
  const [[lb, le]] = gpuRanges(g, 1, 0.3, 'low') as [[number, number]];
  t.is(he, n);
  t.is(lb, 0);
  t.true(Math.abs(edgesIn(hb, he) / g.numEdges - 0.3) < 0.05 && Math.abs(edgesIn(lb, le) / g.numEdges - 0.3) < 0.05);
  // Degree order: LOW's GPU range holds the highest-degree vertices, HIGH's the lowest.
  t.true(maxDeg(lb, le) >= maxDeg(le, n) && maxDeg(hb, he) <= maxDeg(0, hb));
  t.true(le - lb < he - hb, 'the hubs are few vertices for the same edges');
  // Two GPUs split the range; shares 0 and 1 give empty / whole ranges.
  const two = gpuRanges(g, 2, 0.5, 'low');
  t.is(two[0]![0], 0);
  t.is(two[0]![1], two[1]![0]);
  t.deepEqual(gpuRanges(g, 1, 0, 'low'), [[0, 0]]);
  t.deepEqual(gpuRanges(g, 1, 1, 'low'), [[0, n]]);
});

test('default split: real GPUs take every edge, emulated ones half; the topology and the option override', (t) => {
  const g = buildGraph(generateEdges('rmat:8'));
  const real = parseTopology('sockets: [{ threads: 2 }]\ngpus: [{ device: 0 }]\n', 'r.yaml');
  const emulated = parseTopology('sockets: [{ threads: 2 }]\ngpus: [{ device: 0, emulated: true }]\n', 'e.yaml');
  const given = parseTopology('sockets: [{ threads: 2 }]\ngpus: [{ device: 0 }]\nmodel: { gpuShare: 0.3 }\n', 'g.yaml');
  t.is(gpuShareFor(g, real, undefined), 1);
  t.is(gpuShareFor(g, emulated, undefined), 0.5);
  t.is(gpuShareFor(g, given, undefined), 0.3);
  t.is(gpuShareFor(g, given, 0.8), 0.8);
  t.is(gpuShareFor(g, parseTopology('sockets: [{ threads: 2 }]\n', 'c.yaml'), undefined), 0);
});

test('releaseFromTail: the victim gives up the planned tail of its queue, in queue order', (t) => {
  const queue = (): Array<{ id: number; edges: number; count: number; lo: number; hi: number }> =>
    Array.from({ length: 10 }, (_, i) => ({ id: i, edges: 100, count: 1, lo: 0, hi: 10 }));
  const shared = { bytesPerEdge: 0, bytesPerVertex: 0, linkBytesPerSec: Infinity, overheadS: 0, policy: 'auto' as const };
  // Equal rates, shared memory: half of the queue, the last five tasks, and the queue keeps the rest.
  const q = queue();
  t.deepEqual(releaseFromTail(q, { ...shared, thiefRate: 1 }, 1).map((x) => x.id), [5, 6, 7, 8, 9]);
  t.deepEqual(q.map((x) => x.id), [0, 1, 2, 3, 4]);
  // Unknown victim rate: taken as the thief's.
  t.is(releaseFromTail(queue(), { ...shared, thiefRate: 3 }, 0).length, 5);
  // A thief twice as fast: 7 (as planSteal).
  t.is(releaseFromTail(queue(), { ...shared, thiefRate: 2 }, 1).length, 7);
  // Across a slow link (100 B per edge at 1 kB/s: 10 s per task vs 100 s of victim work per task at rate 1): still pays.
  const link = { ...shared, bytesPerEdge: 100, linkBytesPerSec: 1000 };
  t.true(releaseFromTail(queue(), { ...link, thiefRate: 10 }, 1).length > 0);
  // ...but not at 1 B/s, nor with an unknown thief rate.
  t.is(releaseFromTail(queue(), { ...link, linkBytesPerSec: 1, thiefRate: 10 }, 1).length, 0);
  t.is(releaseFromTail(queue(), { ...shared, thiefRate: 0 }, 1).length, 0);
  // 'always': half, rounded up, whatever the rates; an empty queue gives nothing.
  t.is(releaseFromTail(queue().slice(0, 3), { ...shared, thiefRate: 0, policy: 'always' }, 0).length, 2);
  t.deepEqual(releaseFromTail([], { ...shared, thiefRate: 1, policy: 'always' }, 1), []);
});

test('steal policy: balances shared-memory queues, refuses transfers that do not pay', (t) => {
  const tail = Array.from({ length: 10 }, () => ({ edges: 100, bytes: 0 }));
  // Two equal sockets, victim holds 10 pages of 100 edges: take 5, finish at 500 instead of 1000.
  const even = planSteal({ thiefRate: 1, victimRate: 1, victimQueueEdges: 1000, tail, linkBytesPerSec: Infinity });
  t.deepEqual(even, { pages: 5, edges: 500, bytes: 0, beforeS: 1000, afterS: 500 });
  // A thief twice as fast takes more: k pages end at max(100k/2, 1000-100k): k = 7 -> max(350, 300).
  t.is(planSteal({ thiefRate: 2, victimRate: 1, victimQueueEdges: 1000, tail, linkBytesPerSec: Infinity }).pages, 7);
  // Across a link: each page costs 1000 B at 10 B/s = 100 s on top of its compute: never pays here.
  const far = tail.map((p) => ({ ...p, bytes: 1000 }));
  t.is(planSteal({ thiefRate: 10, victimRate: 1, victimQueueEdges: 100, tail: far.slice(0, 1), linkBytesPerSec: 10 }).pages, 0);
  // ... but with 150 edges queued it does: 110 s < 150 s.
  t.is(planSteal({ thiefRate: 10, victimRate: 1, victimQueueEdges: 150, tail: far.slice(0, 1), linkBytesPerSec: 10 }).afterS, 110);
  // The same page at 1000 B/s costs 1 s + 10 s compute < the victim's 150 s: it pays.
  t.true(shouldSteal({ thiefRate: 10, victimRate: 1, victimQueueEdges: 150, pageEdges: 100, pageBytes: 1000, linkBytesPerSec: 1000 }));
  // A slower thief and the victim's last page: 100 / 0.5 = 200 s > 100 s.
  t.false(shouldSteal({ thiefRate: 0.5, victimRate: 1, victimQueueEdges: 100, pageEdges: 100, pageBytes: 0, linkBytesPerSec: Infinity }));
  // Break-even is not a gain: thief 100 s == victim 100 s.
  t.false(shouldSteal({ thiefRate: 1, victimRate: 1, victimQueueEdges: 100, pageEdges: 100, pageBytes: 0, linkBytesPerSec: Infinity }));
  // A fixed overhead and a minimum gain.
  t.false(shouldSteal({ thiefRate: 1, victimRate: 1, victimQueueEdges: 200, pageEdges: 100, pageBytes: 0, linkBytesPerSec: Infinity, overheadS: 100 }));
  t.false(shouldSteal({ thiefRate: 1, victimRate: 1, victimQueueEdges: 200, pageEdges: 100, pageBytes: 0, linkBytesPerSec: Infinity, minGainS: 100 }));
  t.true(shouldSteal({ thiefRate: 1, victimRate: 1, victimQueueEdges: 200, pageEdges: 100, pageBytes: 0, linkBytesPerSec: Infinity, minGainS: 99 }));
  // The busiest queue is by time, not edges, and never the thief's own.
  t.is(busiestQueue([100, 300, 200], [1, 10, 1], 0), 2);
  t.is(busiestQueue([100, 0, 0], [1, 1, 1], 0), -1);
});

// ------------------------------------------------------------------------------------------------
// Calibration

const topoYaml = (extra: string): string => `name: emu\nsockets:\n  - threads: 2\ngpus:\n  - device: 0\n    emulated: true\n    memoryLimit: 64MiB\n${extra}`;

test('calibration: a topology with two GPUs caches the peer link rate the GPU measurement gives; the model uses it', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-cal-'));
  const cacheFile = path.join(dir, 'calibration.json');
  let gpuCalls = 0;
  const measure: MeasureFn = async (el) => (el.kind === 'cpu' ? { rate: 5e6, on: 'fake' } : (gpuCalls++, { rate: 4e8, c: 2e9, linkBytesPerSec: 2.4e10, peerBytesPerSec: 3e11, on: 'fake-gpu' }));
  const topo = parseTopology(topoYaml('  - device: 1\n    emulated: true\n    memoryLimit: 64MiB\n'), 'emu2.yaml');
  const r1 = await calibrate(topo, 'pr', 'pull', { cacheFile, measure });
  t.is(r1.peerBytesPerSec!.value, 3e11);
  t.is(r1.peerBytesPerSec!.source, 'measured');
  const r2 = await calibrate(topo, 'pr', 'pull', { cacheFile, measure });
  t.is(gpuCalls, 1);
  t.is(r2.peerBytesPerSec!.source, 'cache');
  t.is(r2.peerBytesPerSec!.value, 3e11);
  t.is(modelParamsFor(topo, r2, buildGraph(generateEdges('rmat:8'))).peerBytesPerSec, 3e11);
  const one = parseTopology(topoYaml(''), 'emu.yaml');
  t.is(modelParamsFor(one, r2, buildGraph(generateEdges('rmat:8'))).peerBytesPerSec, undefined, 'one GPU: no peer link');
});

test('calibration cache: measures once, then reads the cache; topology values override; refresh re-measures', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-cal-'));
  const cacheFile = path.join(dir, 'sub', 'calibration.json');
  const calls: string[] = [];
  const measure: MeasureFn = async (el, program, mode) => {
    calls.push(`${el.kind}:${program}:${mode}`);
    return el.kind === 'cpu' ? { rate: 5e6, on: 'fake' } : { rate: 4e8, c: 2e9, linkBytesPerSec: 2.4e10, on: 'fake-gpu' };
  };
  const topo = parseTopology(topoYaml(''), 'emu.yaml');
  const r1 = await calibrate(topo, 'pagerank', 'pull', { cacheFile, measure });
  t.deepEqual(calls, ['gpu:pr:pull', 'cpu:pr:pull']);
  t.is(r1.rCpu.value, 5e6);
  t.is(r1.rCpu.source, 'measured');
  t.is(r1.rGpu!.value, 4e8);
  t.is(r1.c!.value, 2e9);
  t.is(r1.linkBytesPerSec!.value, 2.4e10);
  const onDisk = await readCache(cacheFile);
  t.is(onDisk.entries[cpuCacheKey(topo, 'pr', 'pull')]!.rCpu, 5e6);
  t.is(onDisk.entries[cacheKey(topo, 'pr', 'pull')]!.rCpu, undefined, 'CPU values under the sockets key');
  // Another topology with the same sockets (here: a GPU memory limit) shares the CPU values.
  const capped = parseTopology(topoYaml('').replace('memoryLimit: 64MiB', 'memoryLimit: 32MiB'), 'emu.yaml');
  t.not(cacheKey(capped, 'pr', 'pull'), cacheKey(topo, 'pr', 'pull'));
  t.is(cpuCacheKey(capped, 'pr', 'pull'), cpuCacheKey(topo, 'pr', 'pull'));
  const shared = await calibrate(capped, 'pr', 'pull', { cacheFile, measure });
  t.deepEqual(calls, ['gpu:pr:pull', 'cpu:pr:pull', 'gpu:pr:pull'], 'only its GPU measured');
  t.is(shared.rCpu.source, 'cache');
  calls.length = 2;

  const r2 = await calibrate(topo, 'pr', 'pull', { cacheFile, measure });
  t.is(calls.length, 2, 'no new measurement');
  t.is(r2.rCpu.source, 'cache');
  t.is(r2.rGpu!.source, 'cache');
  t.is(r2.rGpu!.value, 4e8);
  // Another mode is another key.
  await calibrate(topo, 'pr', 'push', { cacheFile, measure });
  t.is(calls.length, 4);
  // Topology values win over the cache.
  const over = parseTopology(topoYaml('model:\n  rCpu: 7\n  rGpu: 9\n  c: 11\n'), 'emu.yaml');
  t.is(cacheKey(over, 'pr', 'pull'), cacheKey(topo, 'pr', 'pull'), 'same elements, same key');
  const r3 = await calibrate(over, 'pr', 'pull', { cacheFile, measure });
  t.deepEqual([r3.rCpu.value, r3.rGpu!.value, r3.c!.value], [7, 9, 11]);
  t.deepEqual([r3.rCpu.source, r3.rGpu!.source, r3.c!.source], ['topology', 'topology', 'topology']);
  t.is(calls.length, 4);
  // refresh ignores the cache.
  await calibrate(topo, 'pr', 'pull', { cacheFile, measure, refresh: true });
  t.is(calls.length, 6);
  // Another topology shape is another key.
  t.not(cacheKey(parseTopology(topoYaml('').replace('threads: 2', 'threads: 1'), 'emu.yaml'), 'pr', 'pull'), cacheKey(topo, 'pr', 'pull'));
});

test('calibration cache: entries another build measured (another ENGINE_COSTS stamp, or none) are measured again and replaced', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-cal-'));
  const cacheFile = path.join(dir, 'calibration.json');
  const topo = parseTopology(topoYaml(''), 'emu.yaml');
  const old = { rCpu: 1, rGpu: 2, c: 3, gpuPageBytesPerSec: 4, measuredAt: '2026-01-01T00:00:00.000Z' };
  writeFileSync(cacheFile, JSON.stringify({ version: 3, entries: { [cacheKey(topo, 'pr', 'pull')]: { ...old, engine: 'an older build' }, [cpuCacheKey(topo, 'pr', 'pull')]: old } }));
  const calls: string[] = [];
  const measure: MeasureFn = async (el) => (calls.push(el.kind), el.kind === 'cpu' ? { rate: 5e6, on: 'fake' } : { rate: 4e8, c: 2e9, on: 'fake-gpu' });
  const r = await calibrate(topo, 'pr', 'pull', { cacheFile, measure });
  t.deepEqual(calls, ['gpu', 'cpu']);
  t.deepEqual([r.rCpu.value, r.rGpu!.value, r.c!.value], [5e6, 4e8, 2e9]);
  const entries = (await readCache(cacheFile)).entries;
  t.is(entries[cacheKey(topo, 'pr', 'pull')]!.engine, ENGINE_COSTS);
  t.is(entries[cacheKey(topo, 'pr', 'pull')]!.gpuPageBytesPerSec, undefined, "nothing of the other build's entry is kept");
  // This build's entries are read back.
  t.is((await calibrate(topo, 'pr', 'pull', { cacheFile, measure })).rGpu!.source, 'cache');
  t.is(calls.length, 2);
});

test('calibration follows the graph size: a rate measured on a graph over 4x smaller is measured again near the graph size', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-cal-'));
  const cacheFile = path.join(dir, 'calibration.json');
  const asked: Array<[string, number | undefined]> = [];
  const measure: MeasureFn = async (el, _program, _mode, need) => {
    asked.push([el.kind, need?.minVertices]);
    // The fake calibration graph is 2^17 vertices unless a larger one is asked for.
    const vertices = Math.max(2 ** 17, need?.minVertices ?? 0);
    return el.kind === 'cpu' ? { rate: vertices === 2 ** 17 ? 5e6 : 3e6, on: 'fake', vertices } : { rate: 4e8, on: 'fake-gpu', vertices };
  };
  const topo = parseTopology(topoYaml('interconnect:\n  bandwidth: 12GB/s\n'), 'emu.yaml');
  const small = await calibrate(topo, 'bfs', 'push', { cacheFile, measure, graphVertices: 1e5 });
  t.deepEqual(asked, [['gpu', 1e5], ['cpu', 1e5]]);
  t.is(small.rCpu.value, 5e6);
  // Up to 4x the calibration graph the cached rates hold.
  await calibrate(topo, 'bfs', 'push', { cacheFile, measure, graphVertices: 2 ** 19 });
  t.is(asked.length, 2);
  // A graph 8x larger: both measured again at its size; the cache records the new size.
  const big = await calibrate(topo, 'bfs', 'push', { cacheFile, measure, graphVertices: 2 ** 20 });
  t.deepEqual(asked.slice(2), [['gpu', 2 ** 20], ['cpu', 2 ** 20]]);
  t.is(big.rCpu.value, 3e6);
  t.is(big.rCpu.source, 'measured');
  const entries = (await readCache(cacheFile)).entries;
  t.deepEqual([entries[cpuCacheKey(topo, 'bfs', 'push')]!.rCpuVertices, entries[cacheKey(topo, 'bfs', 'push')]!.gpuVertices], [2 ** 20, 2 ** 20]);
  // Now smaller graphs read the cache again.
  t.is((await calibrate(topo, 'bfs', 'push', { cacheFile, measure, graphVertices: 1000 })).rCpu.source, 'cache');
  t.is(asked.length, 4);
  // Entries written before the size was recorded: the size comes from their "rmat:14 + rmat:21" note.
  t.false(calibratedTooSmall(2 ** 21, 2 ** 23));
  t.true(calibratedTooSmall(2 ** 21, 2 ** 24));
  t.false(calibratedTooSmall(2 ** 24, 2 ** 30), 'no calibration graph above 2^24 vertices: the largest is kept');
});

test('the link: measured on a real GPU (interconnect.bandwidth is the fallback), declared for an emulated one; measureLink copies both ways', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-cal-'));
  const cacheFile = path.join(dir, 'calibration.json');
  let link: { c: number; linkBytesPerSec: number } | undefined = { c: 4e9, linkBytesPerSec: 4.8e10 };
  const asked: string[] = [];
  const measure: MeasureFn = async (el) => (asked.push(el.kind), el.kind === 'cpu' ? { rate: 1e6 } : { rate: 1e9, ...link });
  const real = parseTopology('name: real\nsockets:\n  - threads: 1\ngpus:\n  - device: 0\ninterconnect:\n  bandwidth: 55GB/s\n', 'real.yaml');
  const r = await calibrate(real, 'pr', 'pull', { cacheFile, measure });
  t.deepEqual([r.c!.source, r.c!.value, r.linkBytesPerSec!.source, r.linkBytesPerSec!.value], ['measured', 4e9, 'measured', 4.8e10]);
  // A failed link measurement falls back to the declared bandwidth.
  link = undefined;
  const r2 = await calibrate(real, 'bfs', 'pull', { cacheFile, measure });
  t.deepEqual([r2.c!.source, r2.linkBytesPerSec!.source, r2.linkBytesPerSec!.value], ['interconnect', 'topology', 55e9]);
  // model.c overrides, and then the GPU rate alone is measured only when missing.
  const given = parseTopology('name: real\nsockets:\n  - threads: 1\ngpus:\n  - device: 0\nmodel:\n  rGpu: 1e9\n  c: 7e8\n', 'real.yaml');
  asked.length = 0;
  const r3 = await calibrate(given, 'wcc', 'pull', { cacheFile, measure });
  t.deepEqual(asked, ['cpu']);
  t.is(r3.c!.source, 'topology');
  // An emulated GPU with a declared bandwidth is not measured for its link.
  asked.length = 0;
  const emu = parseTopology(topoYaml('model:\n  rGpu: 1e9\ninterconnect:\n  bandwidth: 12GB/s\n'), 'emu.yaml');
  t.is((await calibrate(emu, 'wcc', 'pull', { cacheFile, measure })).c!.source, 'interconnect');
  t.deepEqual(asked, ['cpu']);
  if (nativeAvailable().ok) {
    const l = await measureLink({ device: 0, emulated: true, streams: 1, memoryLimit: 64 * 2 ** 20 });
    t.true(l.toDevice > 0 && l.toHost > 0, JSON.stringify(l));
  }
});

test('calibration never invents a GPU rate: clear error without one; c from interconnect.bandwidth is labelled', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-cal-'));
  const cacheFile = path.join(dir, 'calibration.json');
  const cpuOnly: MeasureFn = async (el) => (el.kind === 'cpu' ? { rate: 1e6 } : undefined);
  const err = await t.throwsAsync(calibrate(parseTopology(topoYaml(''), 'emu.yaml'), 'bfs', 'pull', { cacheFile, measure: cpuOnly }));
  t.true(isTesseraError(err));
  t.regex(err!.message, /^emu\.yaml: topology 'emu' has 1 GPU\(s\) but no GPU rate is known for bfs \(pull\).*Fix: add model: \{ rGpu/);
  const noLink = await t.throwsAsync(calibrate(parseTopology(topoYaml('model:\n  rGpu: 1e9\n'), 'emu.yaml'), 'bfs', 'pull', { cacheFile, measure: cpuOnly }));
  t.regex(noLink!.message, /no host-device link rate.*interconnect/);
  const r = await calibrate(parseTopology(topoYaml('model:\n  rGpu: 1e9\ninterconnect:\n  bandwidth: 12GB/s\n'), 'emu.yaml'), 'bfs', 'pull', { cacheFile, measure: cpuOnly });
  t.is(r.c!.value, 12e9 / 12);
  t.is(r.c!.source, 'interconnect');
  t.regex(r.c!.note, /given, not measured/);
  t.is(r.linkBytesPerSec!.value, 12e9);
});

test('CPU calibration runs the engine and gives a positive per-thread rate', async (t) => {
  const g = buildGraph(generateEdges('rmat:9:ef=8:seed=2'));
  const topo: Topology = { name: '1S', source: 'test', sockets: [{ id: 0, threads: 1 }], gpus: [], interconnect: {}, model: {} };
  const rate = await measureCpuOn(g, topo, programProfile('pr'), 'pull', 1);
  t.true(rate > 1e3 && Number.isFinite(rate), `rate ${rate}`);
});

// ------------------------------------------------------------------------------------------------
// The sweep from the library and the CLI, on emulated topologies (1S, 1S1G, 2S2G: one code path)

test('modelSweep: 1S, 1S1G and 2S2G emulated topologies', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-cal-'));
  const cacheFile = path.join(dir, 'calibration.json');
  const g = buildGraph(generateEdges('rmat:10:ef=16:seed=5'), { pageEdges: 512 });
  const rates = 'model:\n  rCpu: 1e7\n  rGpu: 1e8\n  c: 1e8\n';
  const one = parseTopology(`sockets: [{ threads: 2 }]\nmodel:\n  rCpu: 1e7\n`, '1S.yaml');
  const s1 = await modelSweep(g, one, 'pr', { steps: 10, calibrate: { cacheFile } });
  t.is(s1.points.length, 1);
  t.is(s1.chosen!.prediction.speedup, 1);
  t.true(close(s1.chosen!.prediction.makespanS, (10 * g.numEdges) / 2e7));
  const oneOne = parseTopology(`sockets: [{ threads: 2 }]\ngpus: [{ device: 0, emulated: true }]\n${rates}`, '1S1G.yaml');
  const s2 = await modelSweep(g, oneOne, 'pr', { steps: 10, calibrate: { cacheFile } });
  t.is(s2.points.length, 33);
  t.true(s2.chosen!.prediction.speedup > 1);
  t.is(s2.params.elements[1]!.memoryBytes, 2 * 1024 ** 3, 'an emulated GPU has the controller default memory');
  const twoTwo = parseTopology(`sockets: [{ threads: 1 }, { threads: 1 }]\ngpus: [{ device: 0, emulated: true }, { device: 1, emulated: true }]\n${rates}`, '2S2G.yaml');
  const s3 = await modelSweep(g, twoTwo, 'bfs', { steps: 10, partition: 'low', calibrate: { cacheFile } });
  t.is(s3.mode, 'pull');
  t.is(s3.points.length, 11);
  t.true(s3.points.every((p) => p.strategy === 'low' && p.parts.length === 4));
  t.is(s3.chosen!.strategy, 'low');
  // Both GPUs get work at alpha 0.5, and each link carries messages.
  const half = s3.points.find((p) => p.alphaRequested === 0.5)!;
  t.true(half.parts[2]!.edges > 0 && half.parts[3]!.edges > 0);
  t.true(half.prediction.elements[2]!.linkMessages > 0 && half.prediction.elements[3]!.linkMessages > 0);
  // A fixed alpha is honoured.
  const fixed = await modelSweep(g, oneOne, 'pr', { steps: 4, partition: 'high', alpha: 0.3, calibrate: { cacheFile } });
  t.is(fixed.chosen!.alphaRequested, 0.3);
});

test('tessera model runs an alpha sweep on an emulated topology (CLI, JSON and table)', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-model-'));
  const topoFile = path.join(dir, '1S1G-emulated.yaml');
  writeFileSync(topoFile, 'name: 1S1G-emulated\nsockets:\n  - threads: 1\ngpus:\n  - device: 0\n    emulated: true\n    memoryLimit: 1MiB\nmodel:\n  rGpu: 2e8\n  c: 1e9\n');
  const run = promisify(execFile);
  const env = { ...process.env, TESSERA_CACHE_DIR: dir };
  const main = path.join(REPO_ROOT, 'dist/src/cli/main.js');
  const args = ['model', '--graph', 'rmat:12', '--algo', 'pr', '--topology', topoFile, '--alpha-steps', '4', '--page-edges', '4096'];
  const { stdout } = await run(process.execPath, [main, ...args, '--json'], { env });
  const j = JSON.parse(stdout) as { points: unknown[]; chosen: { strategy: string } | null; rates: { rCpu: { source: string }; rGpu: { source: string } } };
  t.is(j.points.length, 15);
  t.not(j.chosen, null);
  t.is(j.rates.rCpu.source, 'measured');
  t.is(j.rates.rGpu.source, 'topology');
  // The CPU rate went to the cache; the table marks the GPU numbers as assumptions.
  t.true(Object.keys(JSON.parse(readFileSync(path.join(dir, 'calibration.json'), 'utf8')).entries).length === 1);
  const table = (await run(process.execPath, [main, ...args], { env })).stdout;
  t.regex(table, /rCpu .* cached/);
  t.regex(table, /rGpu .* ASSUMED: topology .* model\.rGpu/);
  t.regex(table, /^0\.500 \|/m);
  t.regex(table, /chosen: (HIGH|LOW|RAND), alpha/);
  // A top-down BFS from a source is predicted level by level (rates given: nothing measured).
  writeFileSync(topoFile, 'name: 1S1G-emulated\nsockets:\n  - threads: 1\ngpus:\n  - device: 0\n    emulated: true\nmodel:\n  rGpu: 2e8\n  rCpu: 1e7\n  c: 1e9\n');
  const bfsArgs = ['model', '--graph', 'rmat:12', '--algo', 'bfs', '--mode', 'push', '--topology', topoFile, '--alpha-steps', '4', '--page-edges', '4096'];
  const levelled = JSON.parse((await run(process.execPath, [main, ...bfsArgs, '--source', '1', '--json'], { env })).stdout) as { levels: number | null; points: Array<{ prediction: { makespanS: number } }> };
  const flat = JSON.parse((await run(process.execPath, [main, ...bfsArgs, '--json'], { env })).stdout) as typeof levelled;
  t.true(levelled.levels !== null && levelled.levels >= 3, `levels ${levelled.levels}`);
  t.is(flat.levels, null);
  t.true(levelled.points.some((p, i) => p.prediction.makespanS !== flat.points[i]!.prediction.makespanS), 'the levels change the prediction');
  t.regex((await run(process.execPath, [main, ...bfsArgs, '--source', '1'], { env })).stdout, /top-down BFS from the source: \d+ levels/);
  // No link rate anywhere (the GPU rate is calibrated through the GPU actor, the link rate is
  // not): one line, exit 1.
  writeFileSync(topoFile, 'sockets:\n  - threads: 1\ngpus:\n  - device: 0\n    emulated: true\n');
  const e = await t.throwsAsync(run(process.execPath, [main, ...args], { env }));
  const err = e as unknown as { code: number; stderr: string };
  t.is(err.code, 1);
  t.regex(err.stderr, /^tessera: .*no host-device link rate is known.*model\.c/);
  t.is(err.stderr.trim().split('\n').length, 1);
});

test('fitPassTime: rate from the slope, overhead from the intercept; a non-positive slope keeps the large graph rate', (t) => {
  // 1e6 edges in 12 ms and 1e7 in 30 ms: slope 9e6 edges / 18 ms = 5e8 edges/s, intercept 12 - 2 = 10 ms.
  const f = fitPassTime({ edges: 1e6, seconds: 0.012 }, { edges: 1e7, seconds: 0.03 });
  t.true(close(f.rate, 5e8) && close(f.overheadS, 0.01));
  t.deepEqual(fitPassTime({ edges: 1e6, seconds: 0.05 }, { edges: 1e7, seconds: 0.04 }), { rate: 1e7 / 0.04, overheadS: 0 });
  // A negative intercept (superlinear small graph) is no overhead either.
  t.deepEqual(fitPassTime({ edges: 1e6, seconds: 0.001 }, { edges: 2e6, seconds: 0.01 }), { rate: 2e6 / 0.01, overheadS: 0 });
});

test('fitVertexTerm: per-edge time from the two graphs of equal vertices, then the per-vertex time and the intercept; negative terms give undefined', (t) => {
  // t = 10 ms + |E| x 1 ns + |V| x 4 ns.
  const at = (edges: number, vertices: number) => ({ edges, vertices, seconds: 0.01 + edges * 1e-9 + vertices * 4e-9 });
  const f = fitVertexTerm(at(1e6, 1.6e4), at(6.4e7, 4e6), at(1.6e7, 4e6))!;
  t.true(close(f.rate, 1e9, 1e-6) && close(f.vertexS, 4e-9, 1e-6) && close(f.overheadS, 0.01, 1e-6), JSON.stringify(f));
  // The sparse graph slower than the dense one (noise over the edge term): no fit.
  t.is(fitVertexTerm(at(1e6, 1.6e4), at(6.4e7, 4e6), { edges: 1.6e7, vertices: 4e6, seconds: 0.2 }), undefined);
  // Vertices that cost less than nothing: no fit.
  t.is(fitVertexTerm({ edges: 1e6, vertices: 1.6e4, seconds: 0.05 }, at(6.4e7, 4e6), at(1.6e7, 4e6)), undefined);
  // Graphs of different vertex counts cannot separate the terms.
  t.is(fitVertexTerm(at(1e6, 1.6e4), at(6.4e7, 4e6), at(1.6e7, 2e6)), undefined);
});

test('model cost per vertex by hand: it tells LOW from HIGH at the same alpha', (t) => {
  // 1e8 edges, 1e7 vertices; socket 1e8 edges/s + 1 ns per vertex, GPU 1e9 edges/s + 5 ns per vertex.
  const params: ModelParams = {
    elements: [
      { name: 'socket0', kind: 'cpu', rate: 1e8, threads: 1, vertexS: 1e-9 },
      { name: 'gpu0', kind: 'gpu', rate: 1e9, vertexS: 5e-9 },
    ],
    c: 1e15,
    messageBytes: 12,
  };
  // LOW, alpha 0.1: the CPU takes the tail (1e7 edges over 8e6 vertices): 0.1 + 0.008 s; the GPU
  // the hubs (9e7 edges, 2e6 vertices): 0.09 + 0.01 s.
  const low = predict(params, [{ edges: 1e7, vertices: 8e6 }, { edges: 9e7, vertices: 2e6 }], { messages: 0 });
  t.true(close(low.elements[0]!.computeS, 0.108) && close(low.elements[1]!.computeS, 0.1) && close(low.makespanS, 0.108));
  // HIGH, alpha 0.1: the CPU takes the hubs (1e5 vertices), the GPU the tail's 9.9e6 vertices.
  const high = predict(params, [{ edges: 1e7, vertices: 1e5 }, { edges: 9e7, vertices: 9.9e6 }], { messages: 0 });
  t.true(close(high.elements[0]!.computeS, 0.1001) && close(high.elements[1]!.computeS, 0.1395) && close(high.makespanS, 0.1395));
  // The CPU-only baseline pays every vertex: 1 s + 0.01 s; GPU alone 0.1 + 0.05 s.
  t.true(close(low.cpuOnlyS, 1.01) && close(high.cpuOnlyS, 1.01));
  t.true(close(predict(params, [{ edges: 0, vertices: 0 }, { edges: 1e8, vertices: 1e7 }], { messages: 0 }).makespanS, 0.15));
  // Without vertex costs both splits are the same prediction (TOTEM's edges-only model).
  const plain: ModelParams = { ...params, elements: params.elements.map(({ vertexS: _, ...e }) => e) };
  t.true(close(predict(plain, [{ edges: 1e7, vertices: 8e6 }, { edges: 9e7, vertices: 2e6 }], { messages: 0 }).makespanS, predict(plain, [{ edges: 1e7, vertices: 1e5 }, { edges: 9e7, vertices: 9.9e6 }], { messages: 0 }).makespanS));
});

test('calibration keeps the cost per vertex: cached, read back, a socket charged it over its threads', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-calv-'));
  const cacheFile = path.join(dir, 'calibration.json');
  let calls = 0;
  const measure: MeasureFn = async (el) => (calls++, el.kind === 'cpu' ? { rate: 5e6, vertexS: 8e-9, on: 'fake' } : { rate: 4e8, vertexS: 3e-9, c: 2e9, on: 'fake-gpu' });
  const topo = parseTopology(topoYaml(''), 'emu.yaml');
  const r1 = await calibrate(topo, 'cdlp', 'pull', { cacheFile, measure });
  const r2 = await calibrate(topo, 'cdlp', 'pull', { cacheFile, measure });
  t.is(calls, 2, 'the second call reads the cache');
  for (const r of [r1, r2]) t.deepEqual([r.cpuVertexS, r.gpuVertexS], [8e-9, 3e-9]);
  const g = buildGraph(generateEdges('rmat:8'));
  const p = modelParamsFor(topo, r2, g);
  const threads = topo.sockets[0]!.threads;
  t.true(close(p.elements[0]!.vertexS!, 8e-9 / threads));
  t.is(p.elements[1]!.vertexS, 3e-9);
});

test('model overhead per pass: added to an element that has edges, and to the CPU-only baseline', (t) => {
  // One socket 1e8 edges/s with 10 ms overhead, one GPU 1e9 edges/s with 50 ms overhead, 1e8 edges, 2 passes.
  const params = { elements: [{ name: 'socket0', kind: 'cpu' as const, rate: 1e8, overheadS: 0.01 }, { name: 'gpu0', kind: 'gpu' as const, rate: 1e9, overheadS: 0.05 }], c: 1e12, messageBytes: 12, passes: 2 };
  const p = predict(params, [{ edges: 5e7 }, { edges: 5e7 }], { messages: 0 });
  // CPU 0.5 s + 0.01, GPU 0.05 s + 0.05: the CPU bounds each pass; baseline 2 x (1 s + 0.01).
  t.true(close(p.computeS, 0.51) && close(p.makespanS, 1.02) && close(p.cpuOnlyS, 2.02));
  t.is(p.bottleneck, 'socket0');
  // All on the GPU: 2 x (0.1 + 0.05); the idle socket pays nothing.
  const g = predict(params, [{ edges: 0 }, { edges: 1e8 }], { messages: 0 });
  t.true(close(g.makespanS, 0.3) && close(g.speedup, 2.02 / 0.3));
});

test('one-time costs by hand: setup for every run, the CPU start by its share, a GPU start and its page copy unless resident', (t) => {
  // Socket 1e8 edges/s, GPU 1e9; 1e8 edges, 2 passes; setup 0.2 s, CPU start 0.3 s (whole graph),
  // GPU start 0.05 s, resident pages 1e9 bytes copied at 1e10 B/s (0.1 s) once.
  const params = {
    elements: [{ name: 'socket0', kind: 'cpu' as const, rate: 1e8 }, { name: 'gpu0', kind: 'gpu' as const, rate: 1e9 }],
    c: 1e12,
    messageBytes: 12,
    passes: 2,
    setupS: 0.2,
    cpuStartS: 0.3,
    gpuStartS: 0.05,
    pageLoadBytesPerSec: 1e10,
  };
  // alpha 0.5: CPU 0.5 s a pass, its start 0.15 s; the GPU's 0.05 + 0.1 s: start max 0.15.
  const half = predict(params, [{ edges: 5e7 }, { edges: 5e7, residentBytes: 1e9 }], { messages: 0 });
  t.true(close(half.loadS, 0.15) && close(half.setupS, 0.2) && close(half.makespanS, 0.2 + 0.15 + 2 * 0.5));
  // CPU alone: setup + its whole start + 2 x 1 s.
  t.true(close(half.cpuOnlyS, 0.2 + 0.3 + 2));
  // GPU alone: setup + 0.05 + 0.1 + 2 x 0.1; with the pages resident from an earlier run, no copy.
  const gpu = predict(params, [{ edges: 0 }, { edges: 1e8, residentBytes: 1e9 }], { messages: 0 });
  t.true(close(gpu.makespanS, 0.2 + 0.15 + 0.2));
  const warm = predict({ ...params, pagesResident: true }, [{ edges: 0 }, { edges: 1e8, residentBytes: 1e9 }], { messages: 0 });
  t.true(close(warm.makespanS, 0.2 + 0.05 + 0.2));
});

test('splitRunTime: the first superstep beyond the median of its kind is the start; time outside supersteps the setup', (t) => {
  const step = (kernel: string, ms: number) => ({ step: 0, kernel, mode: 'pull' as const, frontier: 0, active: 0, edges: 0, ms, planMs: 0, foldMs: 0, listMs: 0, actors: [] });
  const report = { steps: [step('pr', 60), step('pr', 6), step('pr', 7), step('pr', 5)], totalMs: 100 } as unknown as Parameters<typeof splitRunTime>[0];
  const r = splitRunTime(report);
  // median of 5, 6, 7 = 6: start 54 ms; steps 78 ms - 54; outside 100 - 78.
  t.true(close(r.startS, 0.054) && close(r.stepsS, 0.024) && close(r.setupS, 0.022));
  // A traversal's mixed supersteps: no start split off.
  const bfs = splitRunTime({ steps: [step('bfs', 10), step('bfs-pull', 30)], totalMs: 50 } as unknown as Parameters<typeof splitRunTime>[0]);
  t.true(close(bfs.startS, 0) && close(bfs.stepsS, 0.04) && close(bfs.setupS, 0.01));
});

test('modelParamsFor: sockets by threads x rate, GPU memory and state', (t) => {
  const g = buildGraph(generateEdges('rmat:8'));
  const topo = parseTopology('sockets: [{ threads: 3 }, { threads: 1 }]\ngpus: [{ device: 2, memoryLimit: 1GiB }]\n', 'x.yaml');
  const p = modelParamsFor(topo, { program: 'sssp', mode: 'push', rCpu: { value: 10, source: 'topology', note: '' }, rGpu: { value: 100, source: 'topology', note: '' }, c: { value: 5, source: 'topology', note: '' }, linkBytesPerSec: { value: 60, source: 'derived', note: '' }, cacheFile: '', cacheKey: '' }, g);
  t.deepEqual(p.elements.map((e) => [e.name, e.rate, e.memoryBytes]), [['socket0', 30, undefined], ['socket1', 10, undefined], ['gpu2', 100, 1024 ** 3]]);
  t.is(p.gpuStateBytes, g.numVertices * 10);
  t.is(p.passes, 1);
  t.is(p.c, 5);
});

test('modelSummary puts the prediction beside a real CPU run (1S)', async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'tessera-cal-'));
  const g = buildGraph(generateEdges('rmat:9:ef=8:seed=4'));
  const topo = parseTopology('name: one\nsockets: [{ threads: 1 }]\nmodel:\n  rCpu: 1e7\n', 'one.yaml');
  const sw = await modelSweep(g, topo, 'pr', { passes: 3, calibrate: { cacheFile: path.join(dir, 'c.json') } });
  const r = await runAlgo(g, 'pr', { topology: topo, iterations: 3 });
  const s = modelSummary(sw.chosen!, sw.rates, r.report);
  t.true(close(s.predictedMs, (3 * g.numEdges) / 1e7 * 1000));
  t.is(s.alpha, 1);
  t.is(s.rates.sources, 'rCpu topology');
  t.is(s.measuredMs, r.report.totalMs);
  t.is(s.actors[0]!.actor, 'socket0');
  t.is(s.actors[0]!.measuredEdges, r.report.edgesProcessed);
  t.is(s.measuredBeta, 0, 'one socket: nothing crosses memories');
  t.is(measuredBeta(r.report), 0);
  t.true(Number.isFinite(s.error!));
});

test('tooCloseToFit: a calibration graph whose pass costs less than twice the small one is grown', (t) => {
  // 16 threads: rmat:14 in 9 ms a pass, rmat:17 in 11 ms (fixed costs) -> too close; rmat:21 in 40 ms -> fits.
  t.true(tooCloseToFit({ seconds: 0.009 }, { seconds: 0.011 }));
  t.false(tooCloseToFit({ seconds: 0.009 }, { seconds: 0.04 }));
  t.false(tooCloseToFit({ seconds: 0.01 }, { seconds: 0.02 }));
});

test('calibration units: programs that walk every edge per iteration are timed per pass, traversals per run', (t) => {
  t.is(programProfile('pr').unit, 'pass');
  t.is(programProfile('cdlp').unit, 'pass');
  t.is(programProfile('bfs').unit, 'run');
  t.is(programProfile('sssp').unit, 'run');
  t.is(programProfile('wcc').unit, 'run');
});

test('bestPoint: the fastest feasible point; at alpha 0 or 1 (nothing split) a tie within rounding names HIGH', (t) => {
  const pt = (strategy: Strategy, alpha: number, ms: number, feasible = true): SweepPoint =>
    ({ strategy, alphaRequested: alpha, feasible, streamedPages: 0, prediction: { alpha, makespanS: ms / 1000 } }) as unknown as SweepPoint;
  t.like(bestPoint([pt('high', 0.2, 120), pt('low', 0.1, 100), pt('rand', 0.1, 90, false)]), { strategy: 'low', alphaRequested: 0.1 });
  t.like(bestPoint([pt('rand', 0, 100 - 1e-9), pt('low', 0, 100), pt('high', 0, 100), pt('high', 0.1, 130)]), { strategy: 'high', alphaRequested: 0 });
  // A real difference at alpha 0 is kept, and a split point is never renamed.
  t.like(bestPoint([pt('rand', 0, 90), pt('high', 0, 100)]), { strategy: 'rand' });
  t.like(bestPoint([pt('rand', 0.1, 100 - 1e-9), pt('high', 0.1, 100)]), { strategy: 'rand' });
});

test('the boundary counts made on worker threads in chunks equal the single pass (both orientations, the id and a RAND order)', async (t) => {
  const { twoSideCounts, warmTwoSideCounts } = await import('../src/model/two-side.js');
  // Small pages: many units, split pages for the hubs (a chunk must not cut a vertex's pages).
  const make = (): Graph => buildGraph({ ...generateEdges('rmat:13:ef=12:seed=3'), directed: true }, { pageEdges: 700 });
  const [a, b] = [make(), make()];
  t.true(a.in.pages.some((p) => p.split) && a.out.pages.some((p) => p.split), 'split pages in both orientations');
  for (const orientation of ['in', 'out'] as const) {
    // A chunk per page (where a vertex's list starts): every boundary a chunk may have.
    await warmTwoSideCounts(a, orientation, 7, 2, { minEdges: 0, chunks: a[orientation].pages.length });
    for (const seed of [undefined, 7]) t.deepEqual(twoSideCounts(a, orientation, seed), twoSideCounts(b, orientation, seed), `${orientation} seed ${seed}`);
  }
});
