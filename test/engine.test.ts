import test from 'ava';
import { buildGraph } from '../src/graph/build.js';
import { Engine } from '../src/engine/coordinator.js';
import { intersectRanges, mergeRanges } from '../src/engine/partition.js';
import { applyVotes, foldClaimFlags, foldMinFlags, type Vote } from '../src/engine/fold.js';
import { IdList } from '../src/engine/ids.js';
import { nativeAvailable } from '../actors/gpu/native.js';
import { nativeCopyArray, nativeCountEqual, nativeFillArray, nativeFillIndex, nativeFoldFlags, nativeListFlags, nativePopulate } from '../actors/gpu/native-host.js';
import { copyArray, fillArray, fillIndex, populate } from '../src/engine/fill.js';
import type { StateArray } from '../src/engine/kernel.js';
import { bfs, pr as pagerank } from '../src/programs/index.js';
import { defineProgram } from '../src/engine/define.js';
import { summarize } from '../src/engine/report.js';
import type { Topology } from '../src/topology/schema.js';
import type { Graph } from '../src/graph/types.js';
import { forEachEdge } from '../src/graph/pages.js';
import { loadGraph } from '../src/graph/load.js';
import { checkedBfs, listMatchesBitmap } from './helpers/checked-bfs.js';
import { rawFrom } from './helpers/raw.js';

function topo(threads: number[]): Topology {
  return { name: `${threads.length}S`, source: 'test', sockets: threads.map((t, id) => ({ id, threads: t })), gpus: [], interconnect: {}, model: {} };
}

function skewed(n: number, m: number, seed: number): Array<[number, number]> {
  let x = seed;
  const rnd = (): number => ((x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x80000000);
  const e: Array<[number, number]> = [];
  for (let i = 0; i < m; i++) e.push([Math.floor(rnd() ** 3 * n) * 3 + 1, Math.floor(rnd() * n) * 3 + 1]);
  return e;
}

/** Inline serial BFS / PR over the built graph (independent of the engine). */
function serialBfs(g: Graph, s: number): Int32Array {
  const adj: number[][] = Array.from({ length: g.numVertices }, () => []);
  forEachEdge(g.out, (v, u) => adj[v]!.push(u));
  const d = new Int32Array(g.numVertices).fill(-1);
  d[s] = 0;
  let q = [s];
  while (q.length) {
    const nq: number[] = [];
    for (const v of q) for (const u of adj[v]!) if (d[u] === -1) ((d[u] = d[v]! + 1), nq.push(u));
    q = nq;
  }
  return d;
}
function serialPr(g: Graph, it: number, damp: number): Float64Array {
  const n = g.numVertices;
  let r = new Float64Array(n).fill(1 / n);
  for (let k = 0; k < it; k++) {
    let dang = 0;
    for (let v = 0; v < n; v++) if (g.outDegree[v] === 0) dang += r[v]!;
    const nr = new Float64Array(n).fill((1 - damp) / n + (damp * dang) / n);
    forEachEdge(g.out, (v, u) => (nr[u]! += (damp * r[v]!) / g.outDegree[v]!));
    r = nr;
  }
  return r;
}

for (const [label, threads] of [['1 thread', [1]], ['2 threads', [2]], ['4 threads', [4]], ['2 sockets', [1, 1]]] as const) {
  for (const directed of [true, false]) {
    test(`BFS and PR match the serial versions: ${label}, ${directed ? 'directed' : 'undirected'}`, async (t) => {
      const g = buildGraph(rawFrom(skewed(3000, 30000, 11), { directed }), { pageEdges: 2048 });
      // Supersteps (bfs's team on one socket is test/team.test.ts's).
      const e = await Engine.create(g, topo([...threads]), { teams: false });
      try {
        for (const mode of [undefined, 'push', 'pull'] as const) {
          const eng = mode ? await Engine.create(g, topo([...threads]), { forceMode: mode }) : e;
          const { values, report } = await eng.run(bfs, { source: 0 });
          t.deepEqual([...values], [...serialBfs(g, 0)], `bfs mode=${mode ?? 'auto'}`);
          if (mode === undefined) t.true(new Set(report.steps.map((s) => s.mode)).size === 2, 'auto mode used both push and pull');
          if (mode) await eng.close();
        }
        const { values: pr, report: prReport } = await e.run(pagerank, { iterations: 10, damping: 0.85 });
        t.is(prReport.supersteps, 10, 'the vertex map that starts PageRank is not a superstep');
        // Timeline: each actor's vote comes after its own busy time (same process: frames take ~0).
        t.true(prReport.steps.every((s) => s.foldMs >= 0 && s.actors.every((a) => a.voteMs >= a.computeMs - 1 && a.voteMs <= s.ms + 1)), 'voteMs brackets computeMs');
        const want = serialPr(g, 10, 0.85);
        for (let v = 0; v < g.numVertices; v++) t.true(Math.abs(pr[v]! - want[v]!) <= 1e-12 * Math.max(1, want[v]!), `pr ${v}`);
        t.true(Math.abs([...pr].reduce((a, b) => a + b, 0) - 1) < 1e-9, 'ranks sum to 1');
      } finally {
        await e.close();
      }
    });
  }
}

test('page stealing between two sockets: counted in the report, results unchanged (on, off, always)', async (t) => {
  const g = buildGraph(rawFrom(skewed(20000, 200000, 5), { directed: true }), { pageEdges: 4096 });
  const want = serialBfs(g, 0);
  const wantPr = serialPr(g, 10, 0.85);
  const stolen: Record<string, number> = {};
  for (const steal of ['off', 'auto', 'always'] as const) {
    const e = await Engine.create(g, topo([1, 1]), { steal });
    try {
      for (const mode of ['push', 'pull'] as const) {
        const eng = await Engine.create(g, topo([1, 1]), { steal, forceMode: mode });
        try {
          t.deepEqual([...(await eng.run(bfs, { source: 0 })).values], [...want], `bfs ${mode} steal ${steal}`);
        } finally {
          await eng.close();
        }
      }
      const { values: pr, report } = await e.run(pagerank, { iterations: 10, damping: 0.85 });
      for (let v = 0; v < g.numVertices; v++) if (!(Math.abs(pr[v]! - wantPr[v]!) <= 1e-12 * Math.max(1, wantPr[v]!))) t.fail(`pr ${v} steal ${steal}`);
      t.is(report.steal?.policy, steal);
      const perActor = report.steps.reduce((a, s) => a + s.actors.reduce((b, x) => b + x.stolen, 0), 0);
      t.is(report.steal?.tasks, perActor);
      // The steal timeline: every moved task is in an answered ask of its superstep.
      for (const s of report.steps) {
        const moved = (s.steals ?? []).reduce((a, x) => a + x.tasks, 0);
        t.is(moved, s.actors.reduce((a, x) => a + x.stolen, 0), `step ${s.step}`);
        for (const x of s.steals ?? []) t.true(x.atMs >= 0 && x.thief !== x.victim && x.edges <= x.victimLeft);
      }
      if (steal === 'off') t.true(report.steps.every((s) => s.steals === undefined));
      // Every task ran exactly once: the actors' edges add up to the superstep's.
      for (const s of report.steps) t.is(s.actors.reduce((a, x) => a + x.edges, 0), s.edges);
      t.is(report.steps.reduce((a, s) => a + s.edges, 0), 10 * g.numEdges);
      stolen[steal] = report.steal!.tasks;
    } finally {
      await e.close();
    }
  }
  t.is(stolen.off, 0);
  t.log(`stolen tasks over 10 PageRank supersteps: auto ${stolen.auto}, always ${stolen.always}`);
  // One socket alone never steals (nothing to steal from).
  const one = await Engine.create(g, topo([2]), { steal: 'always' });
  try {
    t.is((await one.run(pagerank, { iterations: 2, damping: 0.85 })).report.steal?.policy, 'off');
  } finally {
    await one.close();
  }
});

test('progress events: run-start, one superstep event per report step, run-end with the report', async (t) => {
  const { EventEmitter } = await import('eventemitter3');
  const { run } = await import('../src/api.js');
  const { generateEdges } = await import('../src/graph/generate/index.js');
  const g = buildGraph(generateEdges('rmat:10'), { pageEdges: 512 });
  const events = new EventEmitter<import('../src/engine/coordinator.js').EngineEvents>();
  const seen: string[] = [];
  const steps: number[] = [];
  let ended: unknown;
  events.on('run-start', (i) => seen.push(`start ${i.program} ${i.vertices}`));
  events.on('superstep', (s, program) => {
    seen.push(`step ${program}`);
    steps.push(s.step);
  });
  events.on('run-end', (r) => (ended = r));
  const r = await run(g, 'pr', { iterations: 5, topology: topo([2]), events });
  t.is(seen[0], `start pr ${g.numVertices}`);
  t.deepEqual(steps, r.report.steps.map((s) => s.step));
  t.is(steps.length, r.report.supersteps);
  t.true(steps.length >= 5);
  t.is(ended, r.report);
});

test('dense tasks tile every vertex of every page once, each ending at its edge or vertex budget or its page end', async (t) => {
  const g = buildGraph(rawFrom(skewed(3000, 60000, 7), { directed: true }), { pageEdges: 8192 });
  const e = await Engine.create(g, topo([2, 1]));
  // The budget per task: ~8 tasks per thread, within [1024, pageEdges].
  const target = Math.max(1024, Math.min(8192, Math.ceil(g.numEdges / (3 * 8))));
  try {
    for (const orientation of ['in', 'out'] as const) {
      const pages = g[orientation].pages;
      const seen = new Uint8Array(g.numVertices);
      let edges = 0;
      for (const task of e.denseShares(orientation).flat()) {
        const p = pages[task.page]!;
        edges += task.edges;
        if (task.count > 1 || p.split) {
          seen[p.vBegin]!++;
          continue;
        }
        for (let v = p.vBegin + task.lo; v < p.vBegin + task.hi; v++) seen[v]!++;
        t.is(task.edges, p.offsets[task.hi]! - p.offsets[task.lo]!);
        // Without its last vertex a task is under both budgets, unless it ends its page.
        const without = p.offsets[task.hi - 1]! - p.offsets[task.lo]!;
        t.true(task.hi === p.vEnd - p.vBegin || (without < target && task.hi - 1 - task.lo < target), `task ${JSON.stringify(task)} ends at its budget`);
      }
      t.true(seen.every((k) => k === 1), `${orientation}: every vertex in exactly one task`);
      t.is(edges, g.numEdges);
    }
  } finally {
    await e.close();
  }
});

test('skipEmpty dense shares: the same tasks less those without edges, cached', async (t) => {
  // 5000 vertices without edges beside the edges' (RMAT's tail of isolated ids).
  const g = buildGraph(rawFrom(skewed(3000, 60000, 7), { directed: true, vertices: Array.from({ length: 5000 }, (_, i) => 100000 + i) }), { pageEdges: 8192 });
  const e = await Engine.create(g, topo([2, 1]));
  try {
    const all = e.denseShares('in');
    const some = e.denseShares('in', false, true);
    t.is(e.denseShares('in', false, true), some, 'cached');
    t.true(all.flat().some((x) => x.edges === 0), 'the tail makes tasks without edges');
    t.deepEqual(some.flat(), all.flat().filter((x) => x.edges > 0));
    t.is(some.flat().reduce((a, x) => a + x.edges, 0), g.numEdges);
  } finally {
    await e.close();
  }
});

test('foldClaimFlags: claims only unvisited entries, activates each vertex once, at any alignment', (t) => {
  for (const begin of [0, 1, 3, 8, 13]) {
    for (const len of [0, 1, 5, 8, 9, 40]) {
      const n = begin + len + 3;
      const buf = new SharedArrayBuffer(n + 8);
      const flags = new Uint8Array(buf, begin, len);
      const depth = new Int32Array(n).fill(-1);
      const next = new Uint8Array(n);
      for (let i = 0; i < len; i++) flags[i] = i % 3 === 0 || i % 7 === 1 ? 1 : 0;
      // Already visited (an earlier level), and already claimed this level by another actor.
      if (len > 3) depth[begin + 3] = 0;
      if (len > 6) ((depth[begin + 6] = 2), (next[begin + 6] = 1));
      const found = new IdList();
      const active = foldClaimFlags(depth, 2, begin, flags, next, found);
      const want: number[] = [];
      for (let i = 0; i < len; i++) if (flags[i] === 1 && i !== 3 && i !== 6) want.push(begin + i);
      t.deepEqual([...found.view()], want, `begin ${begin} len ${len}`);
      t.is(active, want.length);
      for (const v of want) t.true(depth[v] === 2 && next[v] === 1);
      if (len > 3) t.is(depth[begin + 3], 0);
    }
  }
});

test('foldMinFlags: lowers only flagged entries whose value is smaller, activating each once', (t) => {
  const label = new Uint32Array([5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5]);
  const next = new Uint8Array(11);
  next[4] = 1; // already active this superstep
  const flags = new Uint8Array(new SharedArrayBuffer(16), 1, 9); // vertices 2..10, unaligned view
  const values = new Uint32Array([1, 9, 2, 3, 0, 0, 4, 7, 1]);
  for (const i of [0, 1, 2, 3, 6, 8]) flags[i] = 1;
  const found = new IdList();
  const active = foldMinFlags(label, values, 2, flags, next, found);
  // Vertex 2 (1 < 5), 3 (9: no), 4 (2: lowered, already active), 5 (3), 8 (4), 10 (1); 6, 7, 9 not flagged.
  t.deepEqual([...label], [5, 5, 1, 5, 2, 3, 5, 5, 4, 5, 1]);
  t.deepEqual([...found.view()], [2, 5, 8, 10]);
  t.is(active, 4);
});

test('applyVotes folds syncs, flags, merges and outboxes; with owners it records where it wrote each array', (t) => {
  const n = 12;
  const depth = new Int32Array(n).fill(-1);
  const label = new Float64Array(n).fill(9);
  const next = new Uint8Array(n);
  const flags = new Uint8Array(new SharedArrayBuffer(n));
  flags[6] = flags[7] = 1;
  const votes = [
    { type: 'vote', actor: 'gpu0', step: 4, active: 0, sum: 0, edges: 0, tasks: 1, stolen: 0, computeMs: 0, merges: [{ state: 'depth', op: 'claim', activate: true, ids: Uint32Array.from([1, 2]), values: Float64Array.from([3, 3]) }], outbox: { state: 'label', op: 'min', activate: true, ids: Uint32Array.from([8]), values: Float64Array.from([2]) }, sync: [] },
    { type: 'vote', actor: 'gpu1', step: 4, active: 0, sum: 0, edges: 0, tasks: 1, stolen: 0, computeMs: 0, merges: [], sync: [{ state: 'label', begin: 10, values: Float64Array.from([1, 1]) }], flagged: [{ state: 'depth', op: 'claim', begin: 4, end: 12, value: 3, flagsBuffer: 0 }], shared: [flags.buffer as SharedArrayBuffer] },
  ] as unknown as Vote[];
  const owned = new Map<string, Array<[number, number]>>([['gpu0', [[0, 4]]], ['gpu1', [[4, 6], [7, 12]]]]);
  const { active, changes } = applyVotes(votes, { depth, label }, next, undefined, (a) => owned.get(a)!);
  t.deepEqual([...depth], [-1, 3, 3, -1, -1, -1, 3, 3, -1, -1, -1, -1]);
  t.deepEqual([...label], [9, 9, 9, 9, 9, 9, 9, 9, 2, 9, 1, 1]);
  t.is(active, 5, 'two merged claims, two flagged claims, the outbox min (syncs activate nothing)');
  const by = new Map(changes!.map((c) => [c.name, c]));
  t.deepEqual([...by.get('depth')!.ids!], [1, 2], 'the merged ids');
  // The flagged span [4, 12) clipped to gpu1's ranges.
  t.deepEqual(by.get('depth')!.spans, [{ actor: 'gpu1', begin: 4, end: 6 }, { actor: 'gpu1', begin: 7, end: 12 }]);
  t.deepEqual([...by.get('label')!.ids!], [8], "gpu0's outbox");
  t.deepEqual(by.get('label')!.spans, [{ actor: 'gpu1', begin: 10, end: 12 }], "gpu1's sync");
  t.is(by.get('depth')!.array, depth);
  // Without owners nothing is recorded.
  t.is(applyVotes([], { depth }, next, undefined).changes, undefined);
});

test('mergeRanges sorts and joins overlapping or touching ranges; intersectRanges clips sorted ranges', (t) => {
  t.deepEqual(mergeRanges([[9, 12], [0, 2], [2, 4], [10, 11], [6, 7]]), [[0, 4], [6, 7], [9, 12]]);
  t.deepEqual(mergeRanges([]), []);
  t.deepEqual(intersectRanges([[0, 4], [6, 7], [9, 12]], 3, 10), [[3, 4], [6, 7], [9, 10]]);
  t.deepEqual(intersectRanges([[0, 4]], 4, 8), []);
});

// Skipped (visibly) only where the native build found no toolchain; elsewhere a missing addon fails.
const nat = nativeAvailable();
const addonTest = !nat.ok && nat.toolchainMissing ? test.skip : test;

addonTest('the addon lists set flags in ascending order with their degree sum, at any density and thread split', (t) => {
  const list = nativeListFlags();
  if (list === undefined) return t.fail(`the native addon does not load: ${nat.ok ? 'listFlags missing' : nat.reason}`);
  let seed = 7;
  const rnd = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000);
  for (const [n, density] of [[(1 << 22) + 5, 0.35], [(1 << 21) + 3, 0.001], [1 << 16, 1], [70_001, 0]] as const) {
    const flags = new Uint8Array(new SharedArrayBuffer(n)).map(() => (rnd() < density ? 1 : 0));
    const deg = new Uint32Array(n).map(() => Math.floor(rnd() * 50));
    const want: number[] = [];
    let edges = 0;
    for (let v = 0; v < n; v++) if (flags[v] === 1) (want.push(v), (edges += deg[v]!));
    const out = new Uint32Array(want.length);
    const r = list(flags, out, deg);
    t.is(r.count, want.length, `n ${n} density ${density}`);
    t.is(r.edges, edges);
    t.deepEqual([...out], want);
    // A short output buffer takes the first ids only; no degrees: edges 0.
    const short = new Uint32Array(Math.floor(want.length / 2));
    t.is(list(flags, short).count, short.length);
    t.deepEqual([...short], want.slice(0, short.length));
  }
  t.throws(() => list(new Uint8Array(10), new Uint32Array(10), new Uint32Array(3)), { code: 'TS_ARG' });
});

test("a hub's out-edges are cut across push tasks: the same depths, with stealing between sockets too", async (t) => {
  // Vertex 1 reaches 6000 leaves (which link on at random): the first push level is one vertex.
  const edges: Array<[number, number]> = [];
  for (let v = 2; v <= 6001; v++) edges.push([1, v]);
  let x = 9;
  for (let i = 0; i < 20000; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    edges.push([2 + (x % 6000), 2 + ((x >>> 8) % 6000)]);
  }
  edges.push([6001, 7000], [7000, 7001]);
  const g = buildGraph(rawFrom(edges), { pageEdges: 1024 });
  const source = [...g.ids.toOriginal].indexOf(1);
  const want = serialBfs(g, source);
  for (const [threads, steal] of [[[2], 'off'], [[1, 1], 'always']] as const) {
    const e = await Engine.create(g, topo([...threads]), { forceMode: 'push', steal });
    try {
      for (let r = 0; r < 2; r++) {
        const { values, report } = await e.run(bfs, { source });
        t.deepEqual([...values], [...want], `${threads.length} socket(s), steal ${steal}`);
        const first = report.steps[0]!;
        t.true(first.actors.reduce((a, x) => a + x.tasks, 0) > 1, 'the hub alone is several tasks');
        t.is(first.edges, 6000, 'each of its edges walked once');
      }
    } finally {
      await e.close();
    }
  }
});

test('the run summary adds up the coordinator phases of the step reports', async (t) => {
  const g = buildGraph(rawFrom(skewed(3000, 30000, 5)), { pageEdges: 4096 });
  const e = await Engine.create(g, topo([2]), { forceMode: 'push' });
  try {
    const { report } = await e.run(bfs, { source: 0 });
    t.true(report.steps.every((s) => s.planMs >= 0 && s.listMs >= 0 && s.planMs + s.foldMs + s.listMs <= s.ms + 1e-6), 'phases within the step');
    const f = (k: 'planMs' | 'foldMs' | 'listMs'): string => report.steps.reduce((a, s) => a + s[k], 0).toFixed(1);
    t.true(summarize(report).includes(`coordinator: ${f('planMs')} ms planning (switch, lists, tasks), ${f('foldMs')} ms folding, ${f('listMs')} ms listing next frontiers`));
  } finally {
    await e.close();
  }
});

test('fillArray sets every entry as TypedArray.fill does, natively on threads or not, every state type', (t) => {
  // Odd lengths and offsets: the threads' chunk edges and a view that does not start the buffer.
  type Ctor = { new (b: ArrayBufferLike, offset?: number, length?: number): StateArray; new (n: number): StateArray; BYTES_PER_ELEMENT: number; name: string };
  const kinds: Array<[Ctor, number]> = [[Int32Array, -1], [Uint32Array, -1], [Float64Array, 0.25], [Float32Array, -3.5], [Uint8Array, 257], [Uint8Array, -1]];
  for (const [Ctor, value] of kinds) {
    for (const n of [(3 << 20) + 7, 1001]) {
      const buf = new SharedArrayBuffer((n + 3) * Ctor.BYTES_PER_ELEMENT);
      const a = new Ctor(buf, Ctor.BYTES_PER_ELEMENT, n);
      const whole = new Ctor(buf);
      whole.fill(9);
      fillArray(a, value);
      const want = new Ctor(n).fill(value);
      t.deepEqual(a, want, `${Ctor.name} ${n} ${value}`);
      t.is(whole[0], 9, 'the entry before the view is untouched');
      t.is(whole[n + 1], 9, 'the entries after the view are untouched');
    }
  }
  const native = nativeFillArray();
  if (native !== undefined) t.throws(() => native(new BigInt64Array(4) as unknown as Int32Array, 1), { code: 'TS_ARG' });
});

test('populate faults a fresh array in on other threads and changes nothing anyone wrote, before or meanwhile', async (t) => {
  const n = (16 << 20) + 5;
  const a = new Float64Array(new SharedArrayBuffer(8 * n));
  a[0] = 1.5;
  a[n - 1] = 2.5;
  const p = nativePopulate()?.(a);
  // Writes while the threads run (the driver or the workers of a run's first superstep).
  for (let i = 1; i < n - 1; i += 4099) a[i] = i;
  await p;
  let bad = -1;
  for (let i = 0; i < n && bad < 0; i++) if (a[i] !== (i === 0 ? 1.5 : i === n - 1 ? 2.5 : (i - 1) % 4099 === 0 ? i : 0)) bad = i;
  t.is(bad, -1, 'first entry changed');
  // The engine's wrapper takes every state type, and arrays too small for the threads.
  for (const b of [new Uint8Array(new SharedArrayBuffer(3 << 20)), new Int32Array(100)]) {
    populate(b);
    t.true(b.every((x) => x === 0));
  }
  if (nativePopulate() !== undefined) t.throws(() => nativePopulate()!({} as never), { code: 'TS_ARG' });
});

test('fillIndex sets every entry to its index, natively on threads or not (i32, u32, f64), inside its view only', (t) => {
  type Ctor = { new (b: ArrayBufferLike, offset?: number, length?: number): Int32Array | Uint32Array | Float64Array; BYTES_PER_ELEMENT: number; name: string };
  for (const Ctor of [Int32Array, Uint32Array, Float64Array] as Ctor[]) {
    for (const n of [(3 << 20) + 7, 1001]) {
      const buf = new SharedArrayBuffer((n + 2) * Ctor.BYTES_PER_ELEMENT);
      const whole = new Ctor(buf).fill(9);
      const a = new Ctor(buf, Ctor.BYTES_PER_ELEMENT, n);
      fillIndex(a);
      let bad = -1;
      for (let i = 0; i < n && bad < 0; i++) if (a[i] !== i) bad = i;
      t.is(bad, -1, `${Ctor.name} ${n}: first entry not its index`);
      t.true(whole[0] === 9 && whole[n + 1] === 9, 'the entries around the view are untouched');
    }
  }
  const native = nativeFillIndex();
  if (native !== undefined) t.throws(() => native(new Uint8Array(4) as unknown as Int32Array), { code: 'TS_ARG' });
});

test('countEqual counts the entries of a view equal to a value (u32, i32 with -1), on the threads', (t) => {
  const count = nativeCountEqual();
  if (count === undefined) return t.pass('no addon: pr counts its sinks in a vertex map');
  for (const n of [(3 << 20) + 7, 1001, 0]) {
    const buf = new SharedArrayBuffer((n + 2) * 4);
    new Uint32Array(buf).fill(0);
    const a = new Uint32Array(buf, 4, n);
    for (let i = 0; i < n; i++) a[i] = (i * 2654435761) % 7;
    let want = 0;
    for (let i = 0; i < n; i++) want += a[i] === 0 ? 1 : 0;
    t.is(count(a, 0), want, `u32 ${n}: the zeros inside the view only`);
    const b = new Int32Array(buf, 4, n).map((x) => (x === 3 ? -1 : x));
    t.is(count(b, -1), Array.from(b).filter((x) => x === -1).length, `i32 ${n}`);
  }
  t.throws(() => count(new Float64Array(4) as unknown as Uint32Array, 0), { code: 'TS_ARG' });
});

test('copyArray copies as TypedArray.set does, natively on threads or not, between views of the same size', (t) => {
  for (const n of [(3 << 20) + 7, 1001]) {
    const src = Uint32Array.from({ length: n }, (_, i) => (i * 2654435761) >>> 0);
    const buf = new SharedArrayBuffer((n + 2) * 4);
    const whole = new Uint32Array(buf).fill(9);
    const dst = new Uint32Array(buf, 4, n);
    copyArray(dst, src);
    t.deepEqual(dst, src, `${n}`);
    t.true(whole[0] === 9 && whole[n + 1] === 9, 'the entries around the view are untouched');
    const f = new Float64Array(n);
    copyArray(f, Float64Array.from(src));
    t.is(f[n - 1], src[n - 1]);
  }
  const native = nativeCopyArray();
  if (native !== undefined) {
    t.throws(() => native(new Uint32Array(4), new Uint32Array(5)), { code: 'TS_ARG' });
    t.throws(() => native(new Uint32Array(4), new Float64Array(4)), { code: 'TS_ARG' });
  }
});

addonTest('the addon folds flagged changes as the TypeScript folds do (claim and min, every state type, found in order)', (t) => {
  const fold = nativeFoldFlags();
  if (fold === undefined) return t.fail('the native addon does not load');
  let seed = 3;
  const rnd = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000);
  const n = (1 << 21) + 13;
  for (const [op, Ctor] of [['claim', Int32Array], ['claim', Float64Array], ['min', Uint32Array], ['min', Float64Array], ['min', Float32Array], ['min', Int32Array]] as const) {
    const begin = 5;
    const len = n - begin - 3;
    const state0 = new Ctor(n).map(() => (rnd() < 0.5 ? -1 : Math.floor(rnd() * 100)));
    const next0 = new Uint8Array(n).map(() => (rnd() < 0.1 ? 1 : 0));
    const flags = new Uint8Array(new SharedArrayBuffer(len + 8), 3, len).map(() => (rnd() < 0.3 ? 1 : 0));
    const values = new Ctor(len).map(() => Math.floor(rnd() * 100));
    const [sa, sb] = [state0.slice(), state0.slice()];
    const [na, nb] = [next0.slice(), next0.slice()];
    const fa = new IdList();
    const active = op === 'claim' ? foldClaimFlags(sa, 7, begin, flags, na, fa) : foldMinFlags(sa, values, begin, flags, na, fa);
    const r = fold(op, sb, nb, flags, begin, op === 'claim' ? 7 : values, true);
    t.is(r.active, active, `${op} ${Ctor.name}`);
    t.true(active > 1000);
    t.deepEqual(r.found, fa.view().slice(), `${op} ${Ctor.name}: found, ascending`);
    t.true(sa.every((x, i) => x === sb[i]) && na.every((x, i) => x === nb[i]), `${op} ${Ctor.name}: state and next`);
  }
  t.throws(() => fold('claim', new Uint32Array(4), new Uint8Array(4), new Uint8Array(2), 0, 1, false), { message: /signed state/ });
  t.throws(() => fold('min', new Float64Array(4), new Uint8Array(4), new Uint8Array(4), 1, new Float64Array(4), false), { message: /outside/ });
});

test('long push frontiers (listed on native threads from 64 k vertices) are ascending, exact and carry their out-edges', async (t) => {
  const { graph: g } = await loadGraph('rmat:18');
  const sizes: number[] = [];
  let withEdges = 0;
  const checked = checkedBfs((frontier, level) => {
    t.true(listMatchesBitmap(frontier, g.numVertices), `level ${level}: ascending and exactly the flags`);
    let edges = 0;
    for (const v of frontier.list!) edges += g.outDegree[v]!;
    if (frontier.edges !== undefined) (t.is(frontier.edges, edges, `level ${level}: out-edges`), withEdges++);
    sizes.push(frontier.size);
  });
  const e = await Engine.create(g, topo([2]), { forceMode: 'push' });
  try {
    const r = await e.run(checked, { source: 0 });
    t.deepEqual([...r.values], [...serialBfs(g, 0)]);
    t.true(sizes.some((s) => s >= 1 << 16), `levels ${sizes.join(',')}`);
    if (nativeListFlags() !== undefined) t.true(withEdges > 0, 'the long levels were listed natively, with their out-edges');
  } finally {
    await e.close();
  }
});

test('frontierOf: a long id list (duplicates, any order) becomes a byte map without a list; a push superstep from it equals one from the sorted list', async (t) => {
  const { graph: g } = await loadGraph('rmat:17');
  const n = g.numVertices;
  // 80 k ids, every third vertex twice, in a scrambled order; and their first 1000 (short: a sorted list).
  const ids: number[] = [];
  for (let i = 0; i < 80_000; i++) ids.push((i * 7919) % n);
  for (let i = 0; i < 80_000; i += 3) ids.push((i * 7919) % n);
  const distinct = new Set(ids);
  // A program of its own over the built-in BFS's kernels.
  const oneHop = (sources: number[]) => defineProgram({
    name: 'one-hop',
    summary: 'one push level from several sources',
    kernels: bfs.kernels,
    gpu: bfs.gpu,
    profile: bfs.profile,
    output: 'depth',
    params: {},
    state: {},
    async run(ctx): Promise<Int32Array> {
      const depth = ctx.alloc('i32', -1) as Int32Array;
      const seen = ctx.alloc('i32', 0, (n + 31) >>> 5) as Int32Array;
      for (const s of sources) (depth[s] = 0), (seen[s >>> 5]! |= 1 << (s & 31));
      const f = ctx.frontierOf(sources);
      t.is(f.size, new Set(sources).size);
      if (sources.length >= 1 << 16) t.is(f.list, undefined, 'long: the byte map only');
      else t.deepEqual([...f.list!], [...new Set(sources)].sort((a, b) => a - b));
      let set = 0;
      for (let v = 0; v < n; v++) set += f.bitmap[v]!;
      t.is(set, f.size);
      await ctx.edgeMap('bfs', f, { depth, seen }, { level: 0 }, { readsFrontier: true });
      return depth;
    },
  });
  const serial = (sources: number[]): Int32Array => {
    const d = new Int32Array(n).fill(-1);
    for (const s of sources) d[s] = 0;
    forEachEdge(g.out, (u, v) => {
      if (d[u] === 0 && d[v] === -1) d[v] = 1;
    });
    return d;
  };
  const e = await Engine.create(g, topo([2]), { forceMode: 'push' });
  try {
    for (const sources of [ids, ids.slice(0, 1000)]) {
      const r = await e.run(oneHop(sources) as never, {});
      t.deepEqual([...r.values], [...serial(sources)], `${sources.length} ids`);
    }
    t.true(distinct.size > 1 << 16);
  } finally {
    await e.close();
  }
});
