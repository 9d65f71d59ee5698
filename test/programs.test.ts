/**
 * The algorithm suite (sssp, wcc, cdlp, lcc, bc) against the serial references, on skewed
 * (RMAT-like) and uniform random graphs, directed and undirected, with isolated vertices,
 * non-contiguous ids and 64-edge pages (so hubs span split pages), on 1, 2, 4 threads and two
 * socket actors, in automatic, forced push and forced pull modes. Integers must match exactly,
 * floats within 1e-9 relative.
 */
import test from 'ava';
import { summarize } from '../src/engine/report.js';
import { buildGraph } from '../src/graph/build.js';
import { Engine, type EngineOptions } from '../src/engine/coordinator.js';
import type { AnyProgram } from '../src/engine/define.js';
import type { Graph } from '../src/graph/types.js';
import type { Topology } from '../src/topology/schema.js';
import { isTesseraError } from '../src/errors.js';
import { internalId } from '../src/engine/output.js';
import { run } from '../src/api.js';
import { algorithm, takes } from './helpers/programs.js';
import { sssp, wcc, cdlp, lcc, bc as betweenness } from '../src/programs/index.js';
import { sampleSources } from '../src/programs/bc/index.js';
import { weightMean } from '../src/programs/sssp/index.js';
import { nativeCpuKernels } from '../actors/gpu/native-host.js';
import { referenceBetweenness, referenceCdlp, referenceLcc, referenceSssp, referenceWcc } from './helpers/references.js';
import { rawFrom } from './helpers/raw.js';

function topo(threads: number[]): Topology {
  return { name: `${threads.length}S`, source: 'test', sockets: threads.map((t, id) => ({ id, threads: t })), gpus: [], interconnect: {}, model: {} };
}

function lcg(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
}

type Edge = [number, number, number];

/** Skewed (power-law-ish sources and targets) or uniform edges over ids 3i+1 (non-contiguous). */
function edges(kind: 'skewed' | 'uniform', n: number, m: number, seed: number): Edge[] {
  const rnd = lcg(seed);
  const pick = (): number => Math.floor((kind === 'skewed' ? rnd() ** 3 : rnd()) * n) * 3 + 1;
  const e: Edge[] = [];
  for (let i = 0; i < m; i++) {
    const r = rnd();
    // Weights: some zero, some integral (equal-length paths), most fractional.
    const w = r < 0.05 ? 0 : r < 0.3 ? Math.ceil(r * 10) : r * 4;
    e.push([pick(), pick(), w]);
  }
  return e;
}

interface Case {
  label: string;
  graph: Graph;
}

function makeCase(kind: 'skewed' | 'uniform', directed: boolean): Case {
  const n = 300;
  const list = edges(kind, n, kind === 'skewed' ? 2400 : 1200, directed ? 7 : 8);
  // A 12-edge chain hanging off the graph: long-diameter tails give small frontiers (push).
  const chain = (i: number): number => 3 * n + 20 + 2 * i;
  list.push([list[0]![0], chain(0), 1]);
  for (let i = 0; i < 12; i++) list.push([chain(i), chain(i + 1), 0.5 + (i % 3)]);
  // Isolated vertices (never in an edge): ids 3n+2, 3n+5, ... and 0.
  const vertices = [0, 3 * n + 2, 3 * n + 5, 3 * n + 11];
  const graph = buildGraph(rawFrom(list, { directed, vertices, weighted: true }), { pageEdges: 64 });
  return { label: `${kind} ${directed ? 'directed' : 'undirected'}`, graph };
}

const CASES = [makeCase('skewed', true), makeCase('skewed', false), makeCase('uniform', true), makeCase('uniform', false)];

test('the test graphs have split pages, isolated vertices and non-contiguous ids', (t) => {
  for (const c of CASES) {
    if (c.label.startsWith('skewed')) t.true(c.graph.out.pages.some((p) => p.split), `${c.label}: split out-pages`);
    t.true(c.graph.out.pages.length > 4, `${c.label}: several pages`);
    t.true([...c.graph.outDegree].some((d, v) => d === 0 && c.graph.inDegree[v] === 0), `${c.label}: isolated vertices`);
  }
});

function close(t: { true(c: boolean, m?: string): void }, got: ArrayLike<number>, want: ArrayLike<number>, what: string): void {
  t.true(got.length === want.length, `${what}: length`);
  let bad = -1;
  for (let v = 0; v < want.length; v++) {
    const a = got[v]!;
    const b = want[v]!;
    if (!(a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b)))) {
      bad = v;
      break;
    }
  }
  t.true(bad === -1, bad === -1 ? what : `${what}: vertex ${bad} got ${got[bad]} want ${want[bad]}`);
}

const CONFIGS: Array<[string, number[]]> = [
  ['1 thread', [1]],
  ['2 threads', [2]],
  ['4 threads', [4]],
  ['2 sockets', [1, 1]],
];
const MODES: Array<EngineOptions['forceMode']> = [undefined, 'push', 'pull'];

// Reference results, computed once per graph.
const REF = CASES.map((c) => {
  const g = c.graph;
  const source = internalId(g, g.ids.toOriginal[g.ids.byOriginal[1]!]!);
  const bcSources = sampleSources(g, 6, 5);
  return {
    source,
    bcSources,
    sssp: referenceSssp(g, source),
    wcc: referenceWcc(g),
    cdlp: referenceCdlp(g, 6),
    lcc: referenceLcc(g),
    bc: referenceBetweenness(g, bcSources),
  };
});

for (const [label, threads] of CONFIGS) {
  test(`sssp, wcc, cdlp, lcc, bc match the references: ${label}`, async (t) => {
    const autoModes = new Set<string>();
    for (let ci = 0; ci < CASES.length; ci++) {
      const { graph: g, label: gl } = CASES[ci]!;
      const ref = REF[ci]!;
      for (const mode of MODES) {
        const e = await Engine.create(g, topo(threads), { forceMode: mode });
        try {
          const what = `${gl}, mode=${mode ?? 'auto'}`;
          const r1 = await e.run(sssp, { source: ref.source });
          close(t, r1.values, ref.sssp, `sssp ${what}`);
          if (mode !== undefined) t.true(r1.report.steps.every((s) => s.mode === mode), `sssp forced ${mode}`);
          const r2 = await e.run(wcc, {});
          t.deepEqual([...r2.values], [...ref.wcc], `wcc ${what}`);
          if (mode !== undefined) t.true(r2.report.steps.every((s) => s.mode === mode), `wcc forced ${mode}`);
          const r3 = await e.run(cdlp, { iterations: 6 });
          t.deepEqual([...r3.values], [...ref.cdlp], `cdlp ${what}`);
          if (mode !== 'push') {
            const r4 = await e.run(lcc, {});
            close(t, r4.values, ref.lcc, `lcc ${what}`);
          }
          const r5 = await e.run(betweenness, { sources: ref.bcSources });
          close(t, r5.values, ref.bc, `bc ${what}`);
          if (mode !== undefined) t.true(r5.report.steps.every((s) => s.mode === mode), `bc forced ${mode}`);
          if (mode === undefined) for (const r of [r1, r2, r5]) for (const s of r.report.steps) autoModes.add(`${r.report.program}:${s.mode}`);
        } finally {
          await e.close();
        }
      }
    }
    // The automatic switch used both modes (wcc's pull sweeps see their own updates, so it
    // usually converges in dense steps: its push kernel is covered by forceMode 'push').
    for (const m of ['bc:pull', 'bc:push', 'sssp:pull', 'sssp:push', 'wcc:pull']) t.true(autoModes.has(m), `auto mode used ${m}`);
  });
}

test('exact betweenness over every source (directed and undirected)', async (t) => {
  for (const directed of [true, false]) {
    const g = buildGraph(rawFrom(edges('skewed', 40, 160, 3), { directed, vertices: [2, 500] }), { pageEdges: 16 });
    const e = await Engine.create(g, topo([2]));
    try {
      const { values, report } = await e.run(betweenness, {});
      close(t, values, referenceBetweenness(g), `exact bc ${directed ? 'directed' : 'undirected'}`);
      t.is(report.notes.sources, g.numVertices);
    } finally {
      await e.close();
    }
  }
});

test('sssp: windows, unweighted graphs, the window note, negative and NaN weights', async (t) => {
  const { graph: g } = CASES[0]!;
  const ref = REF[0]!;
  for (const window of [0.05, 1, 7.5, Infinity]) {
    // A fresh engine per run (api.run): see the report on worker context caching.
    const r = await run(g, 'sssp', { source: g.ids.toOriginal[ref.source]!, window, topology: topo([2]) });
    close(t, r.values, ref.sssp, `window ${window}`);
    t.is(r.report.notes.window, window);
  }
  // Unweighted: every edge weighs 1 (hop counts); the default window is then 1.
  const list = edges('skewed', 200, 1000, 4).map(([a, b]): [number, number] => [a, b]);
  const gu = buildGraph(rawFrom(list, { directed: true }), { pageEdges: 64 });
  const r = await run(gu, 'sssp', { source: list[0]![0], topology: topo([2]) });
  close(t, r.values, referenceSssp(gu, internalId(gu, list[0]![0])), 'unweighted sssp');
  t.is(r.report.notes.window, 1);
  t.true([...r.values].some((x) => x === Infinity), 'some vertices unreachable');
  // Negative / NaN weights: a TesseraError naming the edge, with a fix.
  for (const bad of [-1, NaN]) {
    // The builder rejects NaN itself; a graph from elsewhere (.tsr) may still carry one.
    const gb = buildGraph(rawFrom([[1, 2, 1], [2, 3, 5], [3, 4, 2]], { weighted: true }));
    for (const p of gb.out.pages) p.weights!.forEach((w, i, a) => (w === 5 ? (a[i] = bad) : 0));
    const err = await t.throwsAsync(run(gb, 'sssp', { source: 1, topology: topo([1]) }));
    t.true(isTesseraError(err), String(err));
    t.regex(err!.message, /2 -> 3/);
    t.truthy((err as { details?: { fix?: string } }).details?.fix);
    // The check is remembered per graph only when it passes: the same graph fails again.
    t.regex((await t.throwsAsync(run(gb, 'sssp', { source: 1, topology: topo([1]) })))!.message, /2 -> 3/);
    // Over pages of one edge (the addon scans them on its threads): the same edge named.
    const gp = buildGraph(rawFrom([[1, 2, 1], [2, 3, 5], [3, 4, 2]], { weighted: true }), { pageEdges: 1 });
    for (const p of gp.out.pages) p.weights!.forEach((w, i, a) => (w === 5 ? (a[i] = bad) : 0));
    t.true(gp.out.pages.length > 1);
    for (const cpu of [nativeCpuKernels(), undefined]) t.throws(() => weightMean(gp, cpu), { message: /2 -> 3/ });
  }
  // The addon's per-page sums equal the TypeScript's to the bit.
  if (process.env.TESSERA_REQUIRE_NATIVE === '1') t.truthy(nativeCpuKernels()?.weightScan);
  t.is(weightMean(g, nativeCpuKernels()), weightMean(g, undefined));
  t.true(g.out.pages.length > 1);
});

test('bc: explicit source lists (original ids), deterministic sampling, option errors', async (t) => {
  const { graph: g } = CASES[1]!;
  const o = g.ids.toOriginal;
  const list = [o[5]!, o[17]!, o[5]!, o[42]!];
  const r = await run(g, 'bc', { sourceList: list, topology: topo([2]) });
  const internal = [internalId(g, o[5]!), internalId(g, o[17]!), internalId(g, o[42]!)];
  close(t, r.values, referenceBetweenness(g, internal), 'bc source list');
  t.is(r.report.notes.sources, 3, 'duplicates dropped');
  const a = algorithm('bc').params(g, { sources: 10, seed: 3 }, {}) as { sources: Uint32Array };
  const b = algorithm('bc').params(g, { sources: 10, seed: 3 }, {}) as { sources: Uint32Array };
  const c = algorithm('bc').params(g, { sources: 10, seed: 4 }, {}) as { sources: Uint32Array };
  t.deepEqual([...a.sources], [...b.sources]);
  t.notDeepEqual([...a.sources], [...c.sources]);
  t.is(new Set(a.sources).size, 10);
  t.is((algorithm('bc').params(g, { sources: 1e6 }, {}) as { sources: Uint32Array }).sources.length, g.numVertices);
  t.is((algorithm('betweenness').params(g, {}, {}) as { sources?: Uint32Array }).sources, undefined);
  for (const bad of [{ sources: 0 }, { sources: 2.5 }, { sources: 3, sourceList: [o[0]!] }, { sourceList: [] }, { sourceList: [999999] }, { sources: 3, seed: -1 }]) {
    t.throws(() => algorithm('bc').params(g, bad, {}), { instanceOf: Error }, JSON.stringify(bad));
  }
  t.throws(() => algorithm('sssp').params(g, { source: o[0]!, window: 0 }, {}));
  t.throws(() => algorithm('sssp').params(g, {}, {}), { message: /source/ });
  t.throws(() => algorithm('cdlp').params(g, { iterations: -1 }, {}));
});

test('defaults: Graphalytics parameters apply when options are absent', (t) => {
  const { graph: g } = CASES[0]!;
  const o = g.ids.toOriginal;
  const p = algorithm('sssp').params(g, {}, { 'sssp.source-vertex': o[3]! }) as { source: number; window?: number };
  t.is(p.source, 3);
  t.is(p.window, undefined);
  t.deepEqual(algorithm('cdlp').params(g, {}, { 'cdlp.max-iterations': 7 }), { iterations: 7 });
  t.deepEqual(algorithm('cdlp').params(g, { iterations: 2 }, { 'cdlp.max-iterations': 7 }), { iterations: 2 });
});

test('every program runs on a graph without edges', async (t) => {
  const g = buildGraph(rawFrom([], { vertices: [4, 9, 10] }));
  const e = await Engine.create(g, topo([2]));
  try {
    const want: Array<[AnyProgram, unknown, number[]]> = [
      [sssp as AnyProgram, { source: internalId(g, 9) }, [Infinity, 0, Infinity]],
      [wcc as AnyProgram, {}, [4, 9, 10]],
      [cdlp as AnyProgram, { iterations: 3 }, [4, 9, 10]],
      [lcc as AnyProgram, {}, [0, 0, 0]],
      [betweenness as AnyProgram, {}, [0, 0, 0]],
    ];
    for (const [prog, params, values] of want) {
      const { values: got } = await e.run(prog, params as never);
      t.deepEqual([...g.ids.byOriginal].map((v) => got[v]!), values, prog.name);
    }
  } finally {
    await e.close();
  }
});

test('lcc is exact in any vertex order (renumber: none), directed and undirected', async (t) => {
  for (const directed of [true, false]) {
    const g = buildGraph(rawFrom(edges('skewed', 200, 1500, 9), { directed }), { pageEdges: 32, renumber: 'none' });
    const r = await run(g, 'lcc', { topology: topo([2]) });
    close(t, r.values, referenceLcc(g), `lcc ${directed ? 'directed' : 'undirected'}`);
    t.true([...r.values].some((x) => x > 0));
  }
});

test('cdlp: a huge iteration count on labels that swap back and forth ends, with the labels it would reach', async (t) => {
  // A 4-cycle and an edge: synchronous propagation alternates between two labellings forever.
  const g = buildGraph(rawFrom([[0, 1], [1, 2], [2, 3], [3, 0], [10, 11]], { directed: false }));
  for (const iterations of [1_000_000_000, 1_000_000_001]) {
    const r = await run(g, 'cdlp', { iterations, topology: topo([2]) });
    t.deepEqual([...r.values], [...referenceCdlp(g, iterations % 2 === 0 ? 4 : 5)], String(iterations));
    t.is(typeof r.report.notes.cycle, 'number', 'stopped at the cycle');
    t.is(r.report.notes.iterations, iterations);
    t.regex(String(r.report.notes.stopped), /labels alternate between two states/, 'says what it ran');
  }
  // A run that converges says where it stopped.
  const path = buildGraph(rawFrom([[0, 1], [1, 2], [2, 3]], { directed: true }));
  const r = await run(path, 'cdlp', { iterations: 50, topology: topo([2]) });
  t.deepEqual([...r.values], [...referenceCdlp(path, 50)]);
  const converged = buildGraph(rawFrom([[0, 1], [1, 2], [0, 2]], { directed: false }));
  const c = await run(converged, 'cdlp', { iterations: 50, topology: topo([2]) });
  t.deepEqual([...c.values], [...referenceCdlp(converged, 50)]);
  t.false('cycle' in c.report.notes);
  t.regex(String(c.report.notes.stopped), new RegExp(`no label changed in iteration ${c.report.notes.iterations} of 50`));
  t.regex(summarize(c.report), /notes: stopped: no label changed/, 'the terminal summary prints the notes');
});

test('pr: past 100 iterations a repeating state ends the loop with the ranks the full count gives', async (t) => {
  const { generate } = await import('../src/index.js');
  const { referencePageRank } = await import('../src/programs/pr/reference.js');
  const g = generate('rmat:8');
  const full = await run(g, 'pr', { iterations: 150, topology: topo([2]) });
  // The serial reference runs all 150 (its sums in another order: equal to rounding).
  const want = referencePageRank(g, { iterations: 150, damping: 0.85 });
  t.true(full.values.every((x, i) => Math.abs(x - want[i]!) <= 1e-12 * Math.max(1, Math.abs(want[i]!))));
  t.regex(String(full.report.notes.stopped), /a fixed point after iteration \d+ of 150: \d+ iterations that repeat it were skipped/);
  t.true(full.report.supersteps < 150);
  // A count that would never end: the same bits as 150, on one and two sockets.
  for (const threads of [[2], [1, 1]]) {
    const huge = await run(g, 'pr', { iterations: 1_000_000_000, topology: topo(threads) });
    t.deepEqual([...huge.values], [...full.values], String(threads));
    t.regex(String(huge.report.notes.stopped), /of 1000000000/);
  }
  // Up to 100 iterations nothing is watched: no note.
  const short = await run(g, 'pr', { iterations: 100, topology: topo([2]) });
  t.false('stopped' in short.report.notes);
  t.is(short.report.supersteps, 100);
});

test('pr: the state watch finds fixed points and two-state cycles, nothing else', async (t) => {
  const { StateWatch } = await import('../src/programs/pr/fixed-point.js');
  const a = new Float64Array([1, 2, 3]);
  const b = new Float64Array([1, 2, 3.0000000000000004]);
  const c = new Float64Array([-0, 2, 3]);
  const w = new StateWatch();
  t.is(w.period(a, 0.5), 0);
  t.is(w.period(b, 0.5), 0);
  t.is(w.period(a, 0.5), 2, 'a, b, a: two states alternating');
  t.is(w.period(a, 0.5), 1, 'a, a: a fixed point');
  t.is(w.period(a, 0.25), 0, 'the dangling mass counts');
  const v = new StateWatch();
  t.is(v.period(new Float64Array([0, 2, 3]), 1), 0);
  t.is(v.period(c, 1), 0, '-0 is not 0 bitwise');
});

test('wcc: Afforest on CPU sockets equals the reference on random graphs (3-edge pages, hubs split, 1 and 2 sockets); label propagation where a mode is forced', async (t) => {
  const fc = (await import('fast-check')).default;
  const edges = fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 30 })), { minLength: 1, maxLength: 90 });
  await fc.assert(
    fc.asyncProperty(edges, fc.boolean(), fc.constantFrom([1], [1, 1]), async (es, undirected, threads) => {
      const g = buildGraph(rawFrom(es, undirected ? { directed: false } : {}), { pageEdges: 3 });
      const r = await run(g, 'wcc', { topology: topo([...threads]) });
      t.is(r.report.notes.algorithm, 'afforest');
      t.deepEqual([...r.values], [...referenceWcc(g)]);
    }),
    { numRuns: 25 },
  );
  const g = buildGraph(rawFrom([[0, 1], [2, 3], [3, 4], [7, 4]]));
  const e = await Engine.create(g, topo([2]), { forceMode: 'push' });
  try {
    const r = await e.run(wcc as AnyProgram, {});
    t.is(r.report.notes.algorithm, 'label propagation');
    t.deepEqual([...r.values], [...referenceWcc(g)]);
  } finally {
    await e.close();
  }
});
