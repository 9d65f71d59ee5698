/**
 * A socket's threads as a gang (actors/cpu/gang.ts): the same results as one pool.run per thread
 * (TESSERA_GANG=0), a gang that goes idle between runs and comes back, programs' kernels
 * preloaded at create, a kernel error as one line with the engine usable after, and an engine
 * left open does not keep the process alive.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { Engine } from '../src/engine/coordinator.js';
import { defineProgram } from '../src/engine/define.js';
import { loadGraph } from '../src/graph/load.js';
import { bfs, findProgram, pr, wcc } from '../src/programs/index.js';
import { prepareRun } from '../src/api.js';
import { REPO_ROOT } from './helpers/paths.js';
import { topo } from './helpers/topologies.js';
import { referenceBfs } from './helpers/references.js';

// The tests that set TESSERA_GANG around Engine.create run serially (AVA runs them before the
// others): an engine another test made meanwhile would read it too.
async function results(gang: boolean): Promise<Array<ArrayLike<number>>> {
  const prev = process.env.TESSERA_GANG;
  if (gang) delete process.env.TESSERA_GANG;
  else process.env.TESSERA_GANG = '0';
  const { graph: g } = await loadGraph('rmat:13:weighted');
  const e = await Engine.create(g, topo([4]));
  if (prev === undefined) delete process.env.TESSERA_GANG;
  else process.env.TESSERA_GANG = prev;
  try {
    const out: Array<ArrayLike<number>> = [];
    out.push((await e.run(bfs, { source: 0 })).values);
    out.push((await e.run(wcc, {})).values);
    // Longer than the gang's idle time: the threads leave, and the next superstep brings them back.
    await new Promise((r) => setTimeout(r, 200));
    out.push((await e.run(pr, { iterations: 5, damping: 0.85 })).values);
    out.push((await e.run(bfs, { source: 7 })).values);
    return out;
  } finally {
    await e.close();
  }
}

test.serial('the gang gives the results of one pool.run per thread, across idle periods', async (t) => {
  const a = await results(true);
  const b = await results(false);
  t.is(a.length, b.length);
  for (let i = 0; i < a.length; i++) t.deepEqual(Array.from(a[i]!), Array.from(b[i]!), `run ${i}`);
});

const bad = defineProgram({
  name: 'throws',
  summary: 'a vertex map that throws on one vertex',
  params: {},
  state: { x: { type: 'u32', init: 0, reduce: 'none' } },
  output: 'int',
  kernels: new URL('./fixtures/gang/kernels.js', import.meta.url),
  profile: { mode: 'pull', stateBytesPerVertex: 4, passes: 1, unit: 'run', vertexTerm: true },
  async run(ctx) {
    await ctx.vertexMap('boom', { x: ctx.state.x });
    return ctx.state.x;
  },
});

test.serial('a kernel that throws in the gang fails the run with one line naming the actor and its message', async (t) => {
  const { graph: g } = await loadGraph('rmat:17');
  for (const gang of [true, false]) {
    if (!gang) process.env.TESSERA_GANG = '0';
    const e = await Engine.create(g, topo([3]));
    delete process.env.TESSERA_GANG;
    try {
      const err = await t.throwsAsync(() => e.run(bad, {}), { message: /^actor socket0 failed in a vertex map .*vertex 77777 is bad/ });
      t.false(err?.message.includes('\n'), 'one line');
    } finally {
      await e.close();
    }
  }
});

test.serial("preload: the programs' kernels imported at create, the same results with the gang and without", async (t) => {
  const { graph: g } = await loadGraph('rmat:13:weighted');
  const plain = await Engine.create(g, topo([2]));
  const want = [(await plain.run(bfs, { source: 3 })).values, (await plain.run(wcc, {})).values];
  await plain.close();
  for (const gang of [true, false]) {
    if (!gang) process.env.TESSERA_GANG = '0';
    const e = await Engine.create(g, topo([2]), { preload: [bfs, wcc, bfs] });
    delete process.env.TESSERA_GANG;
    try {
      t.deepEqual(Array.from((await e.run(bfs, { source: 3 })).values), Array.from(want[0]!), `bfs, gang ${gang}`);
      t.deepEqual(Array.from((await e.run(wcc, {})).values), Array.from(want[1]!), `wcc, gang ${gang}`);
      // A program it was not told of loads on first use.
      t.is((await e.run(pr, { iterations: 2, damping: 0.85 })).report.supersteps, 2);
    } finally {
      await e.close();
    }
  }
});

test("preload fills the engine's pools: the first run's declared arrays and byte maps come from them, results unchanged", async (t) => {
  const { graph: g } = await loadGraph('rmat:13:weighted');
  const n = g.numVertices;
  const e = await Engine.create(g, topo([2]), { preload: [bfs, wcc, pr] });
  try {
    // Per kind and length, the most any one program declares: pr's three f64 arrays, one i32 (bfs's
    // depth, wcc's forest), one u32 (wcc's labels), bfs's hint bits; bfs's team scratch (one socket,
    // no GPU: its queues, bitmaps and the addon's team words); and two byte maps.
    const w = (n + 31) >>> 5;
    t.deepEqual([...e.arrayPool].map(([k, v]) => [k, v.length]).sort(), [[`f64:${n}`, 3], [`i32:${w}`, 1], [`i32:${n}`, 1], [`u32:${n}`, 1], [`u32:${2 * n}`, 1], [`u32:${3 * w}`, 1], ['f64:4129', 1]].sort());
    t.is(e.bitmapPool.length, 2);
    const pooled = new Set([...e.arrayPool.values()].flat().map((a) => a.buffer));
    const r = await e.run(bfs, { source: 3 });
    t.true(pooled.has(r.values.buffer), 'the result is a pooled array, faulted in at create');
    t.deepEqual(Array.from(r.values), Array.from(referenceBfs(g, 3)));
  } finally {
    await e.close();
  }
});

test("a program's team scratch is pooled ahead only where the engine may run a team, and its first team run takes it", async (t) => {
  const { graph: g } = await loadGraph('rmat:16');
  const n = g.numVertices;
  const queues = `u32:${2 * n}`;
  const off = await Engine.create(g, topo([2]), { preload: [bfs], teams: false });
  try {
    t.false(off.arrayPool.has(queues), 'teams off: no team scratch');
  } finally {
    await off.close();
  }
  const e = await Engine.create(g, topo([2]), { preload: [bfs] });
  try {
    const pooled = e.arrayPool.get(queues)![0]!;
    const r = await e.run(bfs, { source: 3 });
    t.is(r.report.steps[0]!.kernel, 'bfs_team');
    t.deepEqual(Array.from(r.values), Array.from(referenceBfs(g, 3)));
    // Taken by the run and given back: the same array, alone in its pool (a fresh one would be a second).
    t.deepEqual(e.arrayPool.get(queues), [pooled]);
  } finally {
    await e.close();
  }
});

test('iterative programs hand their unread next byte maps back: ten iterations take the two preloaded and at most one more', async (t) => {
  const { graph: g } = await loadGraph('rmat:12:weighted');
  for (const [name, params] of [['pr', { iterations: 10, damping: 0.85 }], ['cdlp', { iterations: 10 }], ['ppr', { iterations: 10, sources: [g.ids.toOriginal[1]!] }]] as const) {
    const program = findProgram(name);
    const e = await Engine.create(g, topo([2]), { preload: [program] });
    try {
      t.is(e.bitmapPool.length, 2);
      await e.run(program, prepareRun(g, program, params).params);
      // Every byte map a run took is back in the pool: one each superstep would leave 11 there.
      t.true(e.bitmapPool.length <= 3, `${name}: ${e.bitmapPool.length} byte maps`);
    } finally {
      await e.close();
    }
  }
});

test('an engine left open does not keep the process alive', async (t) => {
  const code = `
    const { loadGraph } = await import('./dist/src/graph/load.js');
    const { Engine } = await import('./dist/src/engine/coordinator.js');
    const { bfs } = await import('./dist/src/programs/index.js');
    const { graph } = await loadGraph('rmat:14');
    const e = await Engine.create(graph, { name: '1S', source: 'test', sockets: [{ id: 0, threads: 2 }], gpus: [], interconnect: {}, model: {} });
    await e.run(bfs, { source: 0 });
    console.log('ran');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  // Once it has run, the process must end within 10 s (however long a loaded machine took to get there).
  let timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    if (out.includes('ran')) {
      clearTimeout(timer);
      timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    }
  });
  const exited = await new Promise<boolean>((resolve) => child.on('exit', (code) => (clearTimeout(timer), resolve(code === 0))));
  t.true(out.includes('ran'), out);
  t.true(exited, 'the process exited by itself');
});
