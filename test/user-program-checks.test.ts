/**
 * A user program's mistakes, and the library's arguments, as one-line errors (call-checks.ts,
 * engine-option-checks.ts, run-tasks.ts kernelThrew): each of these once gave a wrong result, a
 * raw TypeError from a worker, an error calling itself an engine bug, or a stuck session.
 */
import test from 'ava';
import { defineProgram, generate, openSession, run, TesseraError, type Topology } from '../src/index.js';
import { RESERVED_PARAMS } from '../src/engine/define.js';
import { CONTROL_KEYS, SETUP_KEYS } from '../src/api.js';
import { nativeAvailable } from '../actors/gpu/native.js';

const ONE: Topology = { name: 'one', source: 'test', sockets: [{ id: 0, threads: 2 }], gpus: [], interconnect: {}, model: {} };
const EMU: Topology = { ...ONE, name: 'emu', gpus: [{ device: 0, emulated: true, streams: 2 }] };
const profile = { mode: 'pull', stateBytesPerVertex: 8, passes: 1, unit: 'pass', vertexTerm: true } as const;

const KERNELS = `data:text/javascript,${encodeURIComponent(`
export const ones = { pull(ctx, pages, lo, hi) { const x = ctx.state.x; for (let i = lo; i < hi; i++) x[pages[0].vBegin + i] = 1; } };
export const boom = { pull() { throw new Error('kaboom'); }, vertex() { throw new Error('kaboom'); } };
export const deg = { vertex(ctx, lo, hi) { const x = ctx.state.x; for (let v = lo; v < hi; v++) x[v] = ctx.graph.outDegree[v]; } };
`)}`;
const VERTEX_ONLY = `data:text/javascript,${encodeURIComponent(`
export const deg = { vertex(ctx, lo, hi) { const x = ctx.state.x; for (let v = lo; v < hi; v++) x[v] = ctx.graph.outDegree[v]; } };
`)}`;

type Driver = (ctx: { state: { x: Int32Array } } & Parameters<Parameters<typeof defineProgram>[0]['run']>[0], params: unknown) => Promise<unknown>;
const program = (name: string, body: Driver, kernels = KERNELS) =>
  defineProgram({ name, summary: name, params: {}, state: { x: { type: 'i32', reduce: 'owner' } }, output: 'int', kernels, profile, run: body as never });

// Small: supersteps run on this thread; large (> 2^16 edges): on the workers.
const small = generate('rmat:8');
const large = generate('rmat:13');

test('state that is not shared memory is refused before the step, on small and large graphs alike', async (t) => {
  const p = program('plain-state', async (ctx) => {
    const a = new Int32Array(ctx.graph.numVertices);
    await ctx.edgeMap('ones', ctx.all(), { x: a }, {}, { modes: ['pull'] });
    return a;
  });
  for (const g of [small, large]) {
    const e = await t.throwsAsync(run(g, p, { topology: ONE }), { instanceOf: TesseraError });
    t.regex(e!.message, /passes state 'x' to edgeMap with kernel 'ones' as an Int32Array over an ArrayBuffer.*Fix: declare 'x'/);
  }
  const undeclared = program('undeclared', async (ctx) => {
    await ctx.vertexMap('deg', { x: (ctx.state as Record<string, Int32Array>).y! });
    return ctx.state.x;
  });
  await t.throwsAsync(run(small, undeclared, { topology: ONE }), { message: /passes state 'x' to vertexMap with kernel 'deg' as undefined/ });
});

test("a driver's output is checked against its declared kind and the vertex count", async (t) => {
  const short = program('short', async () => new Int32Array(3));
  await t.throwsAsync(run(small, short, { topology: ONE }), { message: new RegExp(`returned 3 values, but its output 'int' is an Int32Array or Uint32Array of one value per vertex \\(${small.numVertices}\\)`) });
  const floats = program('floats', async (ctx) => new Float64Array(ctx.graph.numVertices));
  await t.throwsAsync(run(small, floats, { topology: ONE }), { message: /returned a Float64Array over an ArrayBuffer, but its output 'int'/ });
  const nothing = program('nothing', async () => undefined as unknown as Int32Array);
  await t.throwsAsync(run(small, nothing, { topology: ONE }), { message: /returned undefined/ });
});

test('a parameter named like a set-up option is refused at definition', (t) => {
  for (const name of ['partition', 'topology', 'checkpoint']) {
    t.throws(() => defineProgram({ name: 'clash', summary: 's', params: { [name]: { type: 'int', default: 1, min: 0, description: 'd' } }, state: {}, output: 'int', kernels: KERNELS, profile, run: async (ctx) => ctx.alloc('i32') as Int32Array }), {
      message: new RegExp(`parameter '${name}' has a name run\\(\\) takes for the run's set-up`),
    });
  }
  // The list define.ts keeps is run()'s own.
  t.deepEqual([...RESERVED_PARAMS].sort(), [...SETUP_KEYS, ...CONTROL_KEYS].sort());
});

test("a kernel that throws is named with its function and where it threw; the session says it stopped", async (t) => {
  const p = program('thrower', async (ctx) => {
    await ctx.edgeMap('boom', ctx.all(), { x: ctx.state.x }, {}, { modes: ['pull'] });
    return ctx.state.x;
  });
  const inline = await t.throwsAsync(run(small, p, { topology: ONE }), { instanceOf: TesseraError });
  t.regex(inline!.message, /kernel 'boom' threw in its pull function: kaboom \(thrown at data:text\/javascript.*Fix: correct the kernel/);
  const s = await openSession(large, { topology: ONE });
  try {
    const e = await t.throwsAsync(s.run(p), { instanceOf: TesseraError });
    t.regex(e!.message, /kernel 'boom' threw in its pull function: kaboom/);
    t.notRegex(e!.message, /this is a bug/);
    await t.throwsAsync(s.run('wcc'), { message: /this session's actors stopped when an earlier run failed \(.*kaboom.*Fix: close it and open a new one/ });
  } finally {
    await s.close();
  }
  const push = program('push-on-pull', async (ctx) => {
    await ctx.edgeMap('ones', ctx.all(), { x: ctx.state.x }, {}, { modes: ['push'] });
    return ctx.state.x;
  });
  await t.throwsAsync(run(small, push, { topology: ONE }), { instanceOf: TesseraError, message: /kernel 'ones' has no push function, and the program runs it as a push superstep/ });
});

test('frontiers: ids out of range and plain arrays are refused', async (t) => {
  const far = program('far', async (ctx) => {
    ctx.frontierOf([0, 1e7]);
    return ctx.state.x;
  });
  await t.throwsAsync(run(small, far, { topology: ONE }), { message: /frontierOf got 10000000 at index 1, which is not a vertex/ });
  const fraction = program('fraction', async (ctx) => {
    ctx.frontierOf([0.5]);
    return ctx.state.x;
  });
  await t.throwsAsync(run(small, fraction, { topology: ONE }), { message: /frontierOf got 0.5 at index 0/ });
  const plain = program('plain-frontier', async (ctx) => {
    await ctx.edgeMap('ones', [0, 1] as never, { x: ctx.state.x });
    return ctx.state.x;
  });
  await t.throwsAsync(run(small, plain, { topology: ONE }), { message: /calls edgeMap with kernel 'ones' on a plain Array as its frontier/ });
});

test('a program of vertex maps alone runs on a GPU topology; one with an edge kernel and no GPU side is refused naming it', async (t) => {
  if (!nativeAvailable().ok) return t.pass('no native addon here');
  const degOnly = program('deg-only', async (ctx) => {
    await ctx.vertexMap('deg', { x: ctx.state.x });
    return ctx.state.x;
  }, VERTEX_ONLY);
  const r = await run(large, degOnly, { topology: EMU, gpuShare: 0.5 });
  t.deepEqual([...r.values], [...large.outDegree.subarray(0, large.numVertices)]);
  const edges = program('edges-no-gpu', async (ctx) => ctx.state.x);
  await t.throwsAsync(run(small, edges, { topology: EMU }), { message: /its kernels 'boom', 'ones' have no GPU implementation/ });
});

test("run()'s and openSession's arguments and engine options of the wrong kind are one line", async (t) => {
  await t.throwsAsync(run(null as never, 'wcc'), { instanceOf: TesseraError, message: /run takes a graph, and got null/ });
  await t.throwsAsync(run({} as never, 'wcc'), { instanceOf: TesseraError, message: /an object that is not one/ });
  await t.throwsAsync(run(small, 'wcc', null as never), { instanceOf: TesseraError, message: /run's options are null/ });
  const bad: Array<[Record<string, unknown>, RegExp]> = [
    [{ forceMode: 'PULL' }, /forceMode "PULL" is not one of 'push', 'pull'/],
    [{ steal: 'maybe' }, /steal "maybe" is not one of/],
    [{ partition: 'x' }, /partition "x" is not one of 'high', 'low', 'rand'/],
    [{ pullDivisor: 'x' }, /pullDivisor "x" is not a positive number/],
    [{ gpuShare: '0.5' }, /gpuShare "0.5" is not a number/],
    [{ partitionPages: 'sideways' }, /partitionPages "sideways" is not one of 'in', 'out'/],
    [{ partitionSeed: -3 }, /partitionSeed -3 is not a whole number from 0/],
    [{ events: {} }, /events is not an emitter/],
    [{ prestart: {} }, /prestart is not a Prestart/],
    [{ preload: 'bfs' }, /preload "bfs" is not a list/],
    [{ checkpoint: 5 }, /checkpoint 5 names no folder/],
    [{ checkpoint: { every: 1 } }, /checkpoint \{"every":1\} names no folder/],
  ];
  for (const [opts, msg] of bad) await t.throwsAsync(run(small, 'wcc', { topology: ONE, ...opts }), { instanceOf: TesseraError, message: msg }, JSON.stringify(opts));
  await t.throwsAsync(openSession(small, { topology: ONE, iterations: 5 } as never), { instanceOf: TesseraError, message: /openSession takes the set-up .* and 'iterations' is not one.*session\.run/ });
  await t.throwsAsync(openSession(null as never), { instanceOf: TesseraError, message: /openSession takes a graph/ });
});

test('bc refuses a seed without a sample size (it would change nothing)', async (t) => {
  await t.throwsAsync(run(small, 'bc', { seed: 5, topology: ONE }), { instanceOf: TesseraError, message: /seed draws the sample of sources, and no sample size was given/ });
  t.is((await run(small, 'bc', { sources: 4, seed: 5, topology: ONE })).report.notes.sources, 4);
});

test('pr with no iteration gives PR_0, 1/n everywhere, also after other runs in a session', async (t) => {
  const g = generate('rmat:6');
  const want = new Array(g.numVertices).fill(1 / g.numVertices);
  t.deepEqual([...(await run(g, 'pr', { iterations: 0, topology: ONE })).values], want);
  const s = await openSession(g, { topology: ONE });
  try {
    await s.run('pr', { iterations: 5 });
    await s.run('ppr');
    t.deepEqual([...(await s.run('pr', { iterations: 0 })).values], want);
  } finally {
    await s.close();
  }
});
