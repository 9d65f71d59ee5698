/**
 * The program-definition API: defineProgram's checks, parameter resolution, kernels loaded by
 * URL in the workers (a data: module here, so nothing of the package names it), and sessions.
 */
import test from 'ava';
import { defineProgram, generate, openSession, run, TesseraError, type Topology } from '../src/index.js';
import { resolveParams } from '../src/engine/define.js';
import { referenceBfs, referencePageRank } from './helpers/references.js';
import { bfs, sssp } from '../src/programs/index.js';
import { Engine } from '../src/engine/coordinator.js';
import { buildGraph } from '../src/graph/build.js';
import { internalId } from '../src/engine/output.js';
import { rawFrom } from './helpers/raw.js';

const topo = (threads: number[]): Topology => ({ name: `${threads.length}S`, source: 'test', sockets: threads.map((t, id) => ({ id, threads: t })), gpus: [], interconnect: {}, model: {} });
const profile = { mode: 'pull', stateBytesPerVertex: 8, passes: 1, unit: 'pass', vertexTerm: true } as const;

/** Out-degree times a factor, as a vertex map: its kernels module is a data: URL of plain JavaScript. */
const KERNELS = `data:text/javascript,${encodeURIComponent(`
export const scaled = {
  vertex(ctx, lo, hi, out) {
    const deg = ctx.graph.outDegree;
    const x = ctx.state.x;
    for (let v = lo; v < hi; v++) { x[v] = deg[v] * ctx.args.factor; out.sum += x[v]; }
  },
};
export const notAKernel = 42;
`)}`;

const degrees = defineProgram({
  name: 'scaled-degree',
  summary: 'out-degree x factor',
  params: { factor: { type: 'number', default: 1, min: 0, description: 'multiplier' } },
  state: { x: { type: 'f64', reduce: 'owner' } },
  output: 'float',
  kernels: KERNELS,
  profile,
  async run(ctx, { factor }) {
    const { sum } = await ctx.vertexMap('scaled', { x: ctx.state.x }, { factor });
    ctx.note('sum', sum);
    return ctx.state.x;
  },
});

test('a program whose kernels live in a module of its own runs on 1 and 2 sockets', async (t) => {
  const g = generate('rmat:9:ef=4');
  for (const threads of [[2], [1, 1]]) {
    const r = await run(g, degrees, { factor: 2.5, topology: topo(threads) });
    let want = 0;
    for (let v = 0; v < g.numVertices; v++) {
      t.is(r.values[v], g.outDegree[v]! * 2.5);
      want += g.outDegree[v]! * 2.5;
    }
    t.is(r.report.notes.sum, want);
    t.is(r.report.program, 'scaled-degree');
  }
});

test('a kernel name the module does not export is a clear error', async (t) => {
  const bad = defineProgram({
    ...degrees,
    name: 'missing-kernel',
    async run(ctx) {
      await ctx.vertexMap('nope', {});
      return ctx.state.x;
    },
  });
  const err = await t.throwsAsync(run(generate('rmat:4'), bad, { topology: topo([1]) }), { instanceOf: TesseraError });
  t.regex(err!.message, /names kernel 'nope', which its kernels module does not export/);
  t.regex(err!.message, /it exports scaled\)/);
});

test('edgeMap gpuOnly where no single GPU owns every vertex is a clear error; soleGpu is false there', async (t) => {
  let sole: boolean | undefined;
  let gpus: boolean | undefined;
  const gpuOnly = defineProgram({
    ...degrees,
    name: 'gpu-only',
    async run(ctx) {
      sole = ctx.soleGpu;
      gpus = ctx.gpusOwnAll;
      await ctx.edgeMap('scaled', ctx.all(), {}, {}, { gpuOnly: true });
      return ctx.state.x;
    },
  });
  const err = await t.throwsAsync(run(generate('rmat:4'), gpuOnly, { topology: topo([1]) }), { instanceOf: TesseraError });
  t.false(sole);
  t.false(gpus);
  t.regex(err!.message, /runs kernel 'scaled' with gpuOnly, which needs the GPUs to own every vertex/);
  t.regex(err!.message, /Fix: check ctx\.gpusOwnAll \(or ctx\.soleGpu\)/);
});

test('defineProgram refuses broken definitions, naming the field', (t) => {
  const base = { name: 'ok', summary: 's', params: {}, state: {}, output: 'int', kernels: KERNELS, profile, run: async () => new Int32Array(0) } as const;
  const cases: Array<[Record<string, unknown>, RegExp]> = [
    [{ name: 'Bad Name' }, /lower-case/],
    [{ output: 'text' }, /output 'text'/],
    [{ kernels: './kernels.js' }, /not a module URL/],
    [{ state: { a: { type: 'f16', reduce: 'sum' } } }, /state 'a' has type 'f16'/],
    [{ state: { a: { type: 'f64', reduce: 'avg' } } }, /state 'a' has reduce 'avg'/],
    [{ scratch: { q: { type: 'u64' } } }, /scratch 'q' has type 'u64'/],
    [{ scratch: { q: { type: 'u32', length: 7 } } }, /scratch 'q' has a length that is not a function/],
    [{ params: { k: { type: 'int', default: 1.5, description: 'k' } } }, /k its default 1.5 is out of range|k 1.5 is out of range/],
    [{ params: { k: { type: 'string', description: 'k' } } }, /parameter 'k' has type 'string'/],
    [{ profile: { mode: 'sideways' } }, /profile needs/],
    [{ run: undefined }, /run \(the driver\) is missing/],
  ];
  for (const [patch, re] of cases) {
    const e = t.throws(() => defineProgram({ ...base, ...patch } as never), { instanceOf: TesseraError }, JSON.stringify(patch));
    t.regex(e!.message, re);
  }
});

test('parameters: unknown keys refused, required ones enforced, bounds and Graphalytics defaults', (t) => {
  const g = generate('rmat:6');
  const p = defineProgram({
    name: 'params',
    summary: 'parameters only',
    state: {},
    output: 'int',
    kernels: KERNELS,
    profile,
    run: async () => new Int32Array(0),
    graphalytics: 'xx',
    params: {
      src: { type: 'vertex', required: true, property: 'source-vertex', description: 'where it starts' },
      k: { type: 'int', default: 3, min: 1, max: 9, description: 'k' },
      w: { type: 'number', above: 0, max: Infinity, description: 'w' },
    },
  });
  const id = (v: unknown): number => v as number;
  t.deepEqual(resolveParams(p, g, { src: 5 }, id), { src: 5, k: 3, w: undefined });
  t.deepEqual(resolveParams(p, g, {}, id, { 'xx.source-vertex': 7, 'xx.k': 8 }), { src: 7, k: 3, w: undefined }, 'only declared properties');
  t.is(resolveParams(p, g, { src: 1, w: Infinity }, id).w, Infinity);
  const err = (input: Record<string, unknown>, re: RegExp, style?: 'cli'): void => {
    const e = t.throws(() => resolveParams(p, g, input, id, {}, style), { instanceOf: TesseraError }, JSON.stringify(input));
    t.regex(e!.message, re);
  };
  err({}, /params needs src/);
  err({}, /needs --src/, 'cli');
  err({ src: 1, damping: 0.5 }, /params has no parameter damping.*params takes src, k, w/);
  err({ src: 1, k: 0 }, /k 0 is out of range.*>= 1 and <= 9/);
  err({ src: 1, k: 2.5 }, /k 2.5 is out of range.*an integer/);
  err({ src: 1, w: 0 }, /w 0 is out of range.*> 0/);
  err({ src: 1, k: 'x' }, /k x is not a number/);
});

test('a session runs many programs on warm actors, by original id, as run() does', async (t) => {
  const g = generate('rmat:10:ef=8');
  const source = g.ids.toOriginal[3]!;
  // Kernels preloaded by name or definition (pagerank's load on first use).
  const s = await openSession(g, { topology: topo([2]), preload: ['bfs', degrees] });
  try {
    const a = await s.run('bfs', { source });
    const b = await s.run('pagerank', { iterations: 7 });
    const c = await s.run('bfs', { source });
    const d = await s.run(degrees, { factor: 0.5 });
    t.deepEqual([...a.values], [...referenceBfs(g, 3)]);
    t.deepEqual([...c.values], [...a.values], 'a second run on the same actors');
    const want = referencePageRank(g, { iterations: 7, damping: 0.85 });
    for (let v = 0; v < g.numVertices; v++) t.true(Math.abs(b.values[v]! - want[v]!) <= 1e-9 * want[v]!);
    t.is(d.values[0], g.outDegree[0]! * 0.5);
    t.is(a.get(source), 0);
    await t.throwsAsync(s.run('bfs', { source, topology: topo([1]) } as never), { message: /set-up is fixed when it opens/ });
    await t.throwsAsync(s.run('bfs', { source: -5 }), { message: /source vertex -5 is not a vertex/ });
    // Runs asked for at once go one after another on the same actors.
    const [x, y] = await Promise.all([s.run('bfs', { source }), s.run('wcc')]);
    t.deepEqual([...x.values], [...a.values]);
    t.is(y.values.length, g.numVertices);
    // A result handed back (recycle) is written by a later run; the results stay right.
    s.recycle(x);
    const z = await s.run('bfs', { source: g.ids.toOriginal[5]! });
    t.is(z.values.buffer, x.values.buffer);
    t.deepEqual([...z.values], [...referenceBfs(g, 5)]);
    s.recycle(z);
    t.throws(() => s.recycle(z), { message: /recycle takes the result of one of this session's runs, once/ }, 'twice');
    t.throws(() => s.recycle({ values: new Int32Array(new SharedArrayBuffer(4 * g.numVertices)) } as never), { message: /recycle takes the result/ }, 'an array of its own');
  } finally {
    await s.close();
  }
  await t.throwsAsync(s.run('wcc'), { message: /session is closed/ });
  await s.close();
  await t.throwsAsync(openSession(g, { topology: topo([1]), preload: ['bfss'] }), { message: /unknown algorithm 'bfss'.*did you mean 'bfs'/ });
});

test('run refuses what is not a program, and names close to a built-in get a suggestion', async (t) => {
  const g = generate('rmat:4');
  // Untyped callers (JavaScript): what TypeScript would refuse at compile time.
  const untyped = run as unknown as (g: unknown, p: unknown, o: unknown) => Promise<unknown>;
  await t.throwsAsync(untyped(g, { name: 'x' }, { topology: topo([1]) }), { message: /run expects a program name or a definition from defineProgram/ });
  await t.throwsAsync(untyped(g, 'pagernak', { topology: topo([1]) }), { message: /did you mean 'pagerank'/ });
  await t.throwsAsync(run(g, 'bfs', { source: g.ids.toOriginal[0]!, damping: 0.5, topology: topo([1]) } as never), { message: /bfs has no parameter damping/ });
});

test('release gives a frontier edgeMap returned back: the next superstep reuses its memory', async (t) => {
  const g = generate('rmat:8');
  const probe = defineProgram({
    name: 'release-probe',
    summary: 'two one-level pushes',
    params: { source: { type: 'vertex', required: true, description: 'source' } },
    state: { depth: { type: 'i32', init: -1, reduce: 'claim' }, seen: { type: 'i32', reduce: 'none', length: (x) => (x.numVertices + 31) >>> 5 } },
    output: 'depth',
    kernels: bfs.kernels,
    profile: bfs.profile,
    async run(ctx, { source }) {
      const { depth, seen } = ctx.state;
      depth[source] = 0;
      const a = await ctx.edgeMap('bfs', ctx.frontierOf([source]), { depth, seen }, { level: 0 }, { modes: ['push'] });
      const held = a.next.bitmap;
      ctx.release(a.next);
      const f = ctx.frontierOf([source]);
      t.is(f.bitmap, held, 'the released bitmap serves the next frontier');
      t.is(f.bitmap.reduce((x, y) => x + y, 0), 1, 'cleared when released');
      const b = await ctx.edgeMap('bfs', f, { depth, seen }, { level: 0 }, { modes: ['push'] });
      ctx.release(b.next);
      ctx.release(b.next); // twice: ignored
      return depth;
    },
  });
  const r = await run(g, probe, { source: g.ids.toOriginal[0]!, topology: topo([2]) });
  t.is(r.values[0], 0);
});

test("progress events go to any emitter with emit/on (node:events here)", async (t) => {
  const { EventEmitter } = await import('node:events');
  const g = generate('rmat:8');
  const ee = new EventEmitter();
  const seen: string[] = [];
  ee.on('run-start', (i: { program: string }) => seen.push(`start ${i.program}`));
  ee.on('superstep', (s: { step: number }) => seen.push(`step ${s.step}`));
  ee.on('run-end', () => seen.push('end'));
  await run(g, 'bfs', { source: g.ids.toOriginal[0]!, topology: topo([1]), events: ee });
  t.is(seen[0], 'start bfs');
  t.is(seen[1], 'step 0');
  t.is(seen[seen.length - 1], 'end');
});

test('vertexFilter: the vertices a vertex kernel marks are a frontier edgeMap takes', async (t) => {
  const g = generate('rmat:9:ef=4');
  const KERNELS2 = `data:text/javascript,${encodeURIComponent(`
export const low = {
  vertex(ctx, lo, hi, out) {
    const deg = ctx.graph.outDegree;
    for (let v = lo; v < hi; v++) if (deg[v] <= ctx.args.k) { ctx.next[v] = 1; out.active++; out.sum += deg[v]; }
  },
};
export const mark = {
  vertex(ctx, lo, hi, out) {
    const fr = ctx.frontier, x = ctx.state.x;
    for (let v = lo; v < hi; v++) x[v] = 0;
  },
  push(ctx, lo, hi, out) {
    const x = ctx.state.x, list = ctx.frontierList;
    for (let i = lo; i < hi; i++) x[list[i]] = 1;
  },
  pull(ctx, pages, lo, hi, out) {
    const x = ctx.state.x, fr = ctx.frontier;
    const p = pages[0];
    for (let i = lo; i < hi; i++) if (fr[p.vBegin + i] === 1) x[p.vBegin + i] = 1;
  },
};
`)}`;
  const filt = defineProgram({
    name: 'low-degree',
    summary: 'marks vertices of out-degree at most k',
    params: { k: { type: 'int', default: 2, min: 0, description: 'degree bound' } },
    state: { x: { type: 'u8', reduce: 'owner' } },
    output: 'int',
    kernels: KERNELS2,
    profile,
    async run(ctx, { k }) {
      const f = await ctx.vertexFilter('low', {}, { k });
      ctx.note('size', f.size);
      ctx.note('sum', f.sum);
      await ctx.edgeMap('mark', f, { x: ctx.state.x }, {}, { readsFrontier: true });
      return Int32Array.from(ctx.state.x);
    },
  });
  for (const threads of [[2], [1, 1]]) {
    const r = await run(g, filt, { k: 3, topology: topo(threads) });
    let size = 0;
    let sum = 0;
    for (let v = 0; v < g.numVertices; v++) {
      const low = g.outDegree[v]! <= 3;
      t.is(r.values[v], low ? 1 : 0);
      if (low) (size++, (sum += g.outDegree[v]!));
    }
    t.is(r.report.notes.size, size);
    t.is(r.report.notes.sum, sum);
  }
});

test("warm: an engine told it will run a program does the program's per-graph work while it starts, once; sssp's weight check there leaves a bad weight to the run's error", async (t) => {
  const g = generate('rmat:8');
  const seen: unknown[] = [];
  const warmed = defineProgram({ ...degrees, name: 'warmed-degree', warm: (graph) => void seen.push(graph) });
  const e = await Engine.create(g, topo([1]), { preload: [warmed] });
  try {
    t.is(seen.length, 1);
    t.is(seen[0], g);
    await e.run(warmed, { factor: 1 } as never);
    t.is(seen.length, 1, 'not again in a run');
  } finally {
    await e.close();
  }
  const plain = await Engine.create(g, topo([1]), {});
  await plain.close();
  t.is(seen.length, 1, 'only where preloaded');
  const bad = buildGraph(rawFrom([[0, 1, 1], [1, 2, -1]], { directed: true, weighted: true }));
  const s = await Engine.create(bad, topo([1]), { preload: [sssp] });
  try {
    const err = await t.throwsAsync(s.run(sssp, { source: internalId(bad, 0) } as never));
    t.regex(err!.message, /non-negative edge weights.*1 -> 2 weighs -1/);
  } finally {
    await s.close();
  }
});
