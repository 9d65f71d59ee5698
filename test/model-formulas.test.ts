/**
 * The performance model's formulas, checked against numbers worked out by hand: TOTEM's Eq. 1-4
 * for two elements, level-synchronous BFS (pushLevels and the per-level makespan), n sockets + m
 * GPUs with per-link communication, streaming and loading, the alpha grid and Garaph's join rule,
 * and the costs per vertex, per pass and once per run. Partitions and the choice among them are in
 * model.test.ts; calibration, the sweep and the `tessera model` command in model-calibration.test.ts.
 */
import test from 'ava';
import { buildGraph } from '../src/graph/build.js';
import {
  alphaGrid,
  gpuJoins,
  predict,
  predictAlpha,
  pushLevels,
  levelEdgesOf,
  pullToGpuFromPrediction,
  speedupEq4,
  splitShares,
  type ModelElement,
  type ModelParams,
} from '../src/model/index.js';
import { rawFrom } from './helpers/raw.js';
import { close } from './helpers/tolerance.js';

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
  // A GPU owning 5 ranges pays rangeS for each of the 4 beyond its first at every level (edges
  // there or not): level 1 0.3 (the CPU), level 2 0.2 + 0.04, level 3 0.175 + 0.04.
  const ranged = predict({ ...params, rangeS: 0.01 }, [loads[0]!, { ...loads[1]!, ranges: 5 }], { messages: 0 });
  t.true(close(ranged.computeS, 0.3 + 0.24 + 0.215 + 0.02), `${ranged.computeS}`);
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
// Costs per vertex, per pass and once per run, by hand

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
