/**
 * bfs's levels on GPUs owning every vertex (native controller_levels.cpp) walk exactly the pages
 * that hold work: a push level the out-pages holding a vertex of its frontier (marked by the
 * previous level's count, level 0 the source's page), a pull level the in-pages holding a vertex
 * still unvisited. Pages of a vertex longer than a page count one by one. bc's forward levels run
 * through the same loop on one GPU owning every vertex (bc/gpu.ts bcSource), and sssp's buckets
 * run in a loop of their own there (sssp/gpu.ts sssp_steps).
 */
import test from 'ava';
import { nativeAvailable } from '../actors/gpu/native.js';
import { generate, run } from '../src/index.js';
import { emulatedGpus } from './helpers/gpu-compare.js';
import type { Graph } from '../src/graph/types.js';
import { buildGraph } from '../src/graph/build.js';
import { internalId } from '../src/engine/output.js';
import { referenceBetweenness } from '../src/programs/bc/reference.js';
import { referenceSssp } from '../src/programs/sssp/reference.js';
import { referenceBfs } from '../src/programs/bfs/reference.js';
import { rawFrom } from './helpers/raw.js';
import { EventEmitter } from 'eventemitter3';
import path from 'node:path';
import type { EngineEvents } from '../src/engine/coordinator.js';
import { removeTempDirs, tempDir } from './helpers/cli.js';

test.after.always(removeTempDirs);

const avail = nativeAvailable();
const gpuTest = !avail.ok && avail.toolchainMissing ? test.skip : test.serial;

/** Pages of `pages` holding a vertex v with want(depth[v]). */
function holding(pages: Graph['out']['pages'], depth: ArrayLike<number>, want: (d: number) => boolean): number {
  let k = 0;
  for (const p of pages) {
    for (let v = p.vBegin; v < p.vEnd; v++)
      if (want(depth[v]!)) {
        k++;
        break;
      }
  }
  return k;
}

for (const spec of ['rmat:13', 'rmat:14:weighted']) {
  gpuTest(`bfs's levels walk exactly the pages holding a frontier vertex (push) or an unvisited one (pull): ${spec}, pages of 500 edges`, async (t) => {
    const g = generate(spec, { pageEdges: 500 });
    t.true(g.out.pages.some((p, i) => i > 0 && g.out.pages[i - 1]!.vBegin === p.vBegin), 'a vertex longer than a page');
    const source = g.ids.toOriginal[0]!;
    const r = await run(g, 'bfs', { source, topology: emulatedGpus(1), gpuShare: 1 });
    const row = r.report.steps[0]!.actors.find((a) => a.kind === 'gpu')!.gpu!;
    const dirs = row.directions!;
    t.true(dirs.includes('T') && dirs.includes('B'), dirs);
    const depth = r.values as ArrayLike<number>; // by dense id, as the pages
    let want = 0;
    for (let level = 0; level < dirs.length; level++) {
      want +=
        dirs[level] === 'T'
          ? holding(g.out.pages, depth, (d) => d === level)
          : holding(g.in.pages, depth, (d) => d === -1 || d > level);
    }
    t.is(row.pages, want);
    // Two GPUs dealing the pages (S), each marking its own push pages: the same depths.
    const two = await run(g, 'bfs', { source, topology: emulatedGpus(2), gpuShare: 1, multiGpu: 's' });
    t.deepEqual([...two.values], [...r.values]);
  });
}

/** Whether got equals want (exactly, or within 1e-9 relative: bc's sums in another order); the first vertex that does not, else -1. */
function mismatch(got: ArrayLike<number>, want: ArrayLike<number>): number {
  for (let v = 0; v < want.length; v++) if (got[v] !== want[v] && !(Math.abs(got[v]! - want[v]!) <= 1e-9 * Math.max(1, Math.abs(want[v]!)))) return v;
  return got.length === want.length ? -1 : want.length;
}

gpuTest("bc on one GPU owning every vertex: a source is one superstep, its forward levels pushed and pulled through the levels loop; equal to the reference, also where a source's deepest vertices had dependencies in the source before", async (t) => {
  const g = generate('rmat:13', { pageEdges: 500 });
  const sourceList = [0, 1, 7, 300].map((v) => g.ids.toOriginal[v]!);
  const r = await run(g, 'bc', { sourceList, topology: emulatedGpus(1), gpuShare: 1 });
  t.deepEqual(r.report.steps.map((s) => s.kernel), ['bcSource', 'bcSource', 'bcSource', 'bcSource']);
  const dirs = r.report.steps.map((s) => s.actors.find((a) => a.kind === 'gpu')!.gpu!.directions).join('');
  t.true(dirs.includes('T') && dirs.includes('B'), dirs);
  const bad = mismatch(r.values, referenceBetweenness(g, [0, 1, 7, 300]));
  t.is(bad, -1, `vertex ${bad}`);
  // From 10: 10 -> 11 -> 12 -> 13 gives 12 a dependency of 1 and 11 one of 2. From 16: 11 and 13
  // at depth 2 (16 -> 12 -> 13, 16 -> 17 -> 11), the deepest: 17's dependency reads 11's, which
  // must start from 0 again.
  const h = buildGraph(rawFrom([[10, 11], [11, 12], [12, 13], [16, 12], [16, 17], [17, 11]], { directed: true }));
  const list = [10, 16];
  const hr = await run(h, 'bc', { sourceList: list, topology: emulatedGpus(1), gpuShare: 1 });
  t.is(hr.report.steps[0]!.kernel, 'bcSource');
  const want = referenceBetweenness(h, list.map((o) => internalId(h, o)));
  t.is(mismatch(hr.values, want), -1, `${[...hr.values]} against ${[...want]}`);
  t.true([...want].some((x) => x > 0));
});

gpuTest("bc on one GPU owning every vertex: a source's forward levels walk the pages bfs's would, each backward level only the out-pages holding one of its vertices", async (t) => {
  const g = generate('rmat:13', { pageEdges: 500 });
  for (const v of [0, 5]) {
    const r = await run(g, 'bc', { sourceList: [g.ids.toOriginal[v]!], topology: emulatedGpus(1), gpuShare: 1 });
    const row = r.report.steps[0]!.actors.find((a) => a.kind === 'gpu')!.gpu!;
    const dirs = row.directions!;
    const depth = referenceBfs(g, v);
    let want = 0;
    for (let level = 0; level < dirs.length; level++)
      want += dirs[level] === 'T' ? holding(g.out.pages, depth, (d) => d === level) : holding(g.in.pages, depth, (d) => d === -1 || d > level);
    for (let level = dirs.length - 2; level >= 1; level--) want += holding(g.out.pages, depth, (d) => d === level);
    t.is(row.pages, want, `source ${v}: ${dirs}`);
    t.true(dirs.length >= 4, `source ${v} reaches ${dirs.length - 1} levels deep`);
  }
});

gpuTest("bc on one GPU owning every vertex: bc goes up with the first source and stays on the device to the run's end; a run stopped after a checkpoint and resumed from it equals the whole run", async (t) => {
  const g = generate('rmat:12', { pageEdges: 500 });
  const bcBytes = 8 * g.numVertices;
  const internal = [0, 1, 7, 300];
  const sourceList = internal.map((v) => g.ids.toOriginal[v]!);
  const topology = emulatedGpus(1);
  const whole = await run(g, 'bc', { sourceList, topology, gpuShare: 1 });
  t.is(mismatch(whole.values, referenceBetweenness(g, internal)), -1);
  const rows = whole.report.steps.map((s) => s.actors.find((a) => a.kind === 'gpu')!.gpu!);
  t.is(rows.length, 4);
  t.true(rows[0]!.stateBytesIn >= bcBytes, `the first source took bc up (${rows[0]!.stateBytesIn} bytes)`);
  rows.forEach((r, i) => {
    t.true(r.stateBytesOut < bcBytes, `source ${i} read back ${r.stateBytesOut} bytes (bc is ${bcBytes})`);
    if (i > 0) t.true(r.stateBytesIn < bcBytes, `source ${i} took ${r.stateBytesIn} bytes up`);
  });
  // A checkpoint after a source must record the sums held on the device.
  const ck = path.join(await tempDir('tessera-gpu-ckpt-'), 'ck');
  const stop = new EventEmitter<EngineEvents>();
  stop.on('superstep', (s) => {
    if (s.step === 1) throw new Error('stopped after superstep 1');
  });
  await t.throwsAsync(run(g, 'bc', { sourceList, topology, gpuShare: 1, events: stop, checkpoint: { dir: ck, every: 1 } }), { message: /stopped after superstep 1/ });
  const resumed = await run(g, 'bc', { sourceList, topology, gpuShare: 1, resume: ck });
  t.true(Number(resumed.report.notes.resumedAt) >= 1, `resumed at ${resumed.report.notes.resumedAt}`);
  t.deepEqual([...resumed.values], [...whole.values]);
});

gpuTest('sssp on one GPU owning every vertex: the buckets in one superstep (sssp_steps), equal to the reference for any window, one too small to tell buckets apart too; zero weights, unreachable vertices', async (t) => {
  // Weights in [0, 4), some zero; vertices 9 and 5000 isolated (unreachable), as are those without in-edges.
  const edges: Array<[number, number, number]> = [];
  let x = 7;
  const rnd = () => (x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
  for (let i = 0; i < 6000; i++) {
    const r = rnd();
    edges.push([Math.floor(rnd() ** 2 * 900) + 10, Math.floor(rnd() * 900) + 10, r < 0.05 ? 0 : r * 4]);
  }
  edges.push([0, 10, 1.5], [10, 0, 0.25]);
  const g = buildGraph(rawFrom(edges, { directed: true, vertices: [9, 5000], weighted: true }), { pageEdges: 300 });
  const source = 0;
  const want = referenceSssp(g, internalId(g, source));
  // 1e-300: the buckets' ends k w and (k + 1) w are one number beside these distances (both loops
  // once went round for ever there); the sockets' dense buckets too.
  const cpu = await run(g, 'sssp', { source, window: 1e-300, topology: { name: '1S', source: 'test', sockets: [{ id: 0, threads: 2 }], gpus: [], interconnect: {}, model: {} } });
  t.deepEqual([...cpu.values], [...want], 'sockets, window 1e-300');
  for (const window of [undefined, 0.05, 1, Infinity, 1e-300]) {
    const r = await run(g, 'sssp', { source, ...(window !== undefined ? { window } : {}), topology: emulatedGpus(1), gpuShare: 1 });
    t.deepEqual(r.report.steps.map((s) => s.kernel), ['sssp_steps'], `window ${window}`);
    t.deepEqual([...r.values], [...want], `window ${window}`);
    t.true((r.report.notes.windowSteps as number) > (window === Infinity ? 1 : 10), `window ${window}: ${r.report.notes.windowSteps} steps`);
    // Every reached vertex was in some step's frontier: its out-edges were walked at least once.
    let reached = 0;
    for (let v = 0; v < want.length; v++) if (want[v]! < Infinity) reached += g.outDegree[v]!;
    t.true(r.report.edgesProcessed >= reached && reached > 0, `window ${window}: ${r.report.edgesProcessed} edges, ${reached} out of reached vertices`);
  }
  t.is(want[internalId(g, 9)], Infinity);
  t.is(want[internalId(g, 5000)], Infinity);
});

gpuTest("sssp and bc on a topology of two GPUs run on its first alone (their device loops are single-GPU), with a warning naming it; with multiGpu given, on both; bfs on both either way; the reference's values every time", async (t) => {
  const g = generate('rmat:11:weighted', { pageEdges: 500 });
  const source = g.ids.toOriginal[0]!;
  const sourceList = [0, 1, 7].map((v) => g.ids.toOriginal[v]!);
  const want: Record<string, ArrayLike<number>> = {
    sssp: referenceSssp(g, 0),
    bc: referenceBetweenness(g, [0, 1, 7]),
    bfs: referenceBfs(g, 0),
  };
  const params: Record<string, object> = { sssp: { source }, bc: { sourceList }, bfs: { source } };
  const warnings: string[] = [];
  const heard = (w: Error) => void warnings.push(w.message);
  process.on('warning', heard);
  try {
    for (const algo of ['sssp', 'bc', 'bfs'] as const) {
      for (const multiGpu of [undefined, 'p'] as const) {
        warnings.length = 0;
        const r = await run(g, algo, { ...params[algo], topology: emulatedGpus(2), gpuShare: 1, ...(multiGpu !== undefined ? { multiGpu } : {}) } as never);
        await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
        const one = algo !== 'bfs' && multiGpu === undefined;
        t.is(r.report.topology.gpus.length, one ? 1 : 2, `${algo} multiGpu ${multiGpu}`);
        t.is(warnings.filter((m) => m.includes(`program '${algo}' runs on one GPU (device 0) of the topology's 2`)).length, one ? 1 : 0, `${algo} multiGpu ${multiGpu}: ${warnings.join(' | ')}`);
        if (one) t.deepEqual([...new Set(r.report.steps.map((s) => s.kernel))], [algo === 'sssp' ? 'sssp_steps' : 'bcSource'], `${algo}: its device loop`);
        t.is(mismatch(r.values, want[algo]!), -1, `${algo} multiGpu ${multiGpu}`);
      }
    }
  } finally {
    process.off('warning', heard);
  }
});
