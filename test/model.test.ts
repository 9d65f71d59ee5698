/**
 * The performance model's partitions and the choice among them: HIGH, LOW and RAND page
 * partitions (coverage, degree order, split pages kept together), the boundary traffic beta
 * (counted by hand, against a direct count, per cut and on worker threads; GPU-GPU messages over
 * the peer link), GPU memory (streamed pages, the smallest resident alpha), the automatic choice of
 * strategy and alpha (choosePartition, bestPoint), and the run-time side: GPU ranges, the default
 * GPU share and the page stealing policy. The model's formulas are in model-formulas.test.ts;
 * calibration, the sweep and the `tessera model` command in model-calibration.test.ts.
 */
import { busiestQueue, planSteal, releaseFromTail, shouldSteal } from '../src/engine/steal.js';
import test from 'ava';
import os from 'node:os';
import path from 'node:path';
import { buildGraph } from '../src/graph/build.js';
import { generateEdges } from '../src/graph/generate/index.js';
import type { Graph, Orientation, Page } from '../src/graph/types.js';
import { parseTopology } from '../src/topology/parse.js';
import { gpuRanges, gpuShareFor } from '../src/engine/partition.js';
import {
  bestPoint,
  boundaryTraffic,
  boundaryTrafficExact,
  choosePartition,
  minResidentAlpha,
  partitionGraph,
  predict,
  type ModelElement,
  type ModelParams,
  type Partition,
  type Strategy,
  type SweepPoint,
} from '../src/model/index.js';
import { tinyGraph } from './helpers/tiny-graph.js';
import { rawFrom } from './helpers/raw.js';
import { close } from './helpers/tolerance.js';
import { pageView } from '../src/graph/pages.js';

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

test('the boundary counts made on worker threads in chunks equal the single pass (both orientations, the id and a RAND order)', async (t) => {
  const { twoSideCounts, warmTwoSideCounts } = await import('../src/model/two-side.js');
  // Small pages: many units, split pages for the hubs (a chunk must not cut a vertex's pages).
  const make = (): Graph => buildGraph({ ...generateEdges('rmat:13:ef=12:seed=3'), directed: true }, { pageEdges: 700 });
  // The workers' graph read back from a .tsr: with the addon its pages share a buffer per read
  // batch, each from its own base, which the workers' pages must start from.
  const { mkdtemp, rm } = await import('node:fs/promises');
  const { readTsr, writeTsr } = await import('../src/graph/tsr.js');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tessera-two-side-'));
  await writeTsr(make(), path.join(dir, 'a.tsr'));
  const [a, b] = [await readTsr(path.join(dir, 'a.tsr')), make()];
  await rm(dir, { recursive: true, force: true });
  t.true(a.in.pages.some((p) => p.split) && a.out.pages.some((p) => p.split), 'split pages in both orientations');
  for (const orientation of ['in', 'out'] as const) {
    // A chunk per page (where a vertex's list starts): every boundary a chunk may have.
    await warmTwoSideCounts(a, orientation, 7, 2, { minEdges: 0, chunks: a[orientation].pages.length });
    for (const seed of [undefined, 7]) t.deepEqual(twoSideCounts(a, orientation, seed), twoSideCounts(b, orientation, seed), `${orientation} seed ${seed}`);
  }
});

// ------------------------------------------------------------------------------------------------
// GPU memory

test('RAND charges a GPU its byte per vertex of ownership: a memory that holds the HIGH state and a slot may not hold the RAND one', (t) => {
  const g = skewedGraph(64);
  const state = 6 * g.numVertices;
  let slot = 0;
  for (const p of [...g.in.pages, ...g.out.pages]) slot = Math.max(slot, pageView(p).byteLength); // a GPU registers both orientations' pages
  const mem = state + slot + Math.floor(g.numVertices / 2);
  const high = partitionGraph(g, { elements: cpuGpu(mem), gpuStateBytes: state }, { strategy: 'high', alpha: 0.5 });
  const rand = partitionGraph(g, { elements: cpuGpu(mem), gpuStateBytes: state }, { strategy: 'rand', alpha: 0.5 });
  t.true(high.feasible);
  t.false(rand.feasible);
  t.regex(rand.problem!, /cannot hold its vertex state/);
});

test("a GPU's cache slots are sized by the largest page it registers, of either orientation (it holds both)", (t) => {
  const g = skewedGraph(256);
  const largest = (ps: readonly Page[]): number => Math.max(...ps.map((p) => pageView(p).byteLength));
  const [small, big] = largest(g.in.pages) < largest(g.out.pages) ? (['in', 'out'] as const) : (['out', 'in'] as const);
  t.true(largest(g[small].pages) < largest(g[big].pages), 'the orientations differ in their largest page');
  const state = g.numVertices * 16;
  const memory = state + 6 * largest(g[big].pages); // six slots of the larger orientation's page
  const part = partitionGraph(g, { elements: cpuGpu(memory), gpuStateBytes: state }, { strategy: 'high', alpha: 0, orientation: small });
  t.is(part.elements[1]!.residentPages, 6);
});

test('alpha respects GPU memory: streamed pages are charged, or alpha is pushed up until they fit', (t) => {
  const g = skewedGraph(256);
  const state = g.numVertices * 16;
  let slot = 0;
  for (const p of [...g.in.pages, ...g.out.pages]) slot = Math.max(slot, pageView(p).byteLength); // a GPU registers both orientations' pages
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

test('bestPoint: the fastest feasible point; at alpha 0 or 1 (nothing split) a tie within rounding names HIGH', (t) => {
  const pt = (strategy: Strategy, alpha: number, ms: number, feasible = true): SweepPoint =>
    ({ strategy, alphaRequested: alpha, feasible, streamedPages: 0, prediction: { alpha, makespanS: ms / 1000 } }) as unknown as SweepPoint;
  t.like(bestPoint([pt('high', 0.2, 120), pt('low', 0.1, 100), pt('rand', 0.1, 90, false)]), { strategy: 'low', alphaRequested: 0.1 });
  t.like(bestPoint([pt('rand', 0, 100 - 1e-9), pt('low', 0, 100), pt('high', 0, 100), pt('high', 0.1, 130)]), { strategy: 'high', alphaRequested: 0 });
  // A real difference at alpha 0 is kept, and a split point is never renamed.
  t.like(bestPoint([pt('rand', 0, 90), pt('high', 0, 100)]), { strategy: 'rand' });
  t.like(bestPoint([pt('rand', 0.1, 100 - 1e-9), pt('high', 0.1, 100)]), { strategy: 'rand' });
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

test('gpuWorkByVertices (bfs): the GPUs\' edges shared by their vertices, the sockets\' untouched; P\'s hub range then predicts slower than dealt pages', async (t) => {
  const { loadsOf, sweepPoint } = await import('../src/model/partition.js');
  const g = buildGraph({ ...generateEdges('rmat:13:ef=12:seed=3'), directed: true }, { pageEdges: 256 });
  const els: ModelElement[] = [
    { name: 'socket0', kind: 'cpu', rate: 1e8, threads: 2 },
    { name: 'gpu0', kind: 'gpu', rate: 1e9 },
    { name: 'gpu1', kind: 'gpu', rate: 1e9 },
  ];
  // No per-range charge: dealt pages make many ranges on a graph this small (RANGE_S would decide).
  const params: ModelParams = { elements: els, c: 1e9, messageBytes: 12, rangeS: 0 };
  const part = (multiGpu: 'p' | 's', alpha: number) => partitionGraph(g, params, { strategy: 'high', multiGpu, alpha, orientation: 'in' });
  const p = part('p', 0.2);
  const plain = loadsOf(p);
  const byV = loadsOf(p, undefined, true);
  t.is(byV[0]!.edges, plain[0]!.edges);
  const gpuEdges = plain[1]!.edges + plain[2]!.edges;
  t.true(close(byV[1]!.edges + byV[2]!.edges, gpuEdges));
  t.true(close(byV[1]!.edges / byV[2]!.edges, plain[1]!.vertices! / plain[2]!.vertices!));
  // HIGH-P gives the first GPU the hubs: few vertices, so the second holds most of the work.
  t.true(plain[1]!.vertices! * 4 < plain[2]!.vertices!, `${plain[1]!.vertices} vs ${plain[2]!.vertices}`);
  const ms = (multiGpu: 'p' | 's', flag: boolean) => sweepPoint(g, { ...params, gpuWorkByVertices: flag }, part(multiGpu, 0)).prediction.makespanS;
  t.true(ms('s', true) < ms('p', true), `by vertices: S ${ms('s', true)} against P ${ms('p', true)}`);
  t.true(ms('p', true) > ms('p', false) * 1.2, 'P slower by vertices than by edges');
});
