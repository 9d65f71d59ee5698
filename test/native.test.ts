/**
 * The native GPU controller's kernels on an emulated device (host kernels built from the same
 * sources as the CUDA ones): addon availability, then pr_pull, pr_push, bfs, sssp, wcc, cdlp and bc
 * against plain JS loops on small hand-built graphs (test/helpers/native-pages.ts), split pages
 * and outboxes included. The page cache and the controller's other calls and errors are in
 * test/native-controller.test.ts. These tests skip only when the addon could not be built because
 * cmake or a C++ compiler is missing (build/native-status.json says so); a missing or broken addon
 * otherwise fails them.
 */
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { REPO_ROOT } from './helpers/paths.js';
import { bitmapWords, GpuController, nativeAvailable, type RunStats } from '../actors/gpu/native.js';
import { all, bfsRef, close, emu, finish, G1, paginate, randomGraph, register, rng, ssspRef, wccRef, type G, type HPage, type Lists } from './helpers/native-pages.js';

const avail = nativeAvailable();
const skipAll = !avail.ok && avail.toolchainMissing;
const t_ = skipAll ? test.skip : test;

// Where the build found no toolchain the native tests are skipped, visibly (TESSERA_REQUIRE_NATIVE=1,
// set by .ci/run, makes a missing toolchain a failure instead: nativeAvailable).
t_('native addon availability: it loads, with a flavor and a CUDA device count', (t) => {
  if (!avail.ok) return t.fail(`native addon unavailable: ${avail.reason}`);
  t.log(`loaded ${avail.flavor} addon ${avail.file}; CUDA devices: ${avail.cudaDevices}${avail.cudaReason ? ` (${avail.cudaReason})` : ''}`);
  t.true(avail.flavor === 'host' || avail.flavor === 'cuda');
  t.true(avail.file.endsWith(`tessera_native_${avail.flavor}.node`));
  t.true(Number.isInteger(avail.cudaDevices) && avail.cudaDevices >= 0);
});

// ---- tests ------------------------------------------------------------------------------------

for (const pageEdges of [1 << 15, 1000, 97]) {
  t_(`pr_pull = base + d * sum of in-neighbour contrib (pageEdges ${pageEdges})`, async (t) => {
    const g = G1;
    const pages = paginate(g.in, pageEdges, undefined);
    if (pageEdges < 5000) t.true(pages.some((p) => p.split), 'hub 5 spans split pages');
    const c = await emu();
    try {
      await register(c, 1, pages, pageEdges === 97);
      await c.allocState('contrib', 'f64', g.n);
      await c.allocState('rank', 'f64', g.n);
      const r = rng(3);
      const contrib = Float64Array.from({ length: g.n }, () => r());
      await c.writeState('contrib', contrib);
      await c.fillState('rank', 123); // must be overwritten
      const st = await c.run('pr_pull', { setId: 1, pages: all(pages), params: { base: 0.15 / g.n, d: 0.85 }, state: { next: 'rank' } });
      t.is(st.pages, pages.length);
      t.is(st.misses, pages.length);
      const want = new Float64Array(g.n);
      for (let v = 0; v < g.n; v++) {
        let s = 0;
        for (const [u] of g.in[v]!) s += contrib[u]!;
        want[v] = 0.15 / g.n + 0.85 * s;
      }
      close(t, await c.readState('rank', new Float64Array(g.n)), want, 'pr_pull');
      // the same call again: every page is resident now
      const st2 = await c.run('pr_pull', { setId: 1, pages: all(pages), params: { base: 0.15 / g.n, d: 0.85 }, state: { next: 'rank' } });
      t.is(st2.hits, pages.length);
      t.is(st2.misses, 0);
      t.is(st2.bytesCopied, 0);
      close(t, await c.readState('rank', new Float64Array(g.n)), want, 'pr_pull again');
      // The vertex apply over [ab, ae): next contribution rank / outDeg, dangling ranks summed.
      const deg = Uint32Array.from({ length: g.n }, (_, v) => g.out[v]!.length);
      await c.allocState('deg', 'u32', g.n);
      await c.allocState('nc', 'f64', g.n);
      await c.writeState('deg', deg);
      const [ab, ae] = [Math.floor(g.n / 3), g.n - 5];
      const st3 = await c.run('pr_pull', { setId: 1, pages: all(pages), params: { base: 0.15 / g.n, d: 0.85, applyBegin: ab, applyEnd: ae }, state: { next: 'rank', outDeg: 'deg', nextContrib: 'nc' } });
      const wantNc = new Float64Array(g.n);
      let dangling = 0;
      for (let v = ab; v < ae; v++) if (deg[v] === 0) dangling += want[v]!;
      else wantNc[v] = want[v]! / deg[v]!;
      t.true(dangling > 0, 'the range holds dangling vertices');
      close(t, await c.readState('nc', new Float64Array(g.n)), wantNc, 'next contribution');
      t.true(Math.abs(st3.sum! - dangling) <= 1e-9 * dangling, `dangling ${st3.sum} want ${dangling}`);
      await t.throwsAsync(c.run('pr_pull', { setId: 1, pages: all(pages), state: { next: 'rank', outDeg: 'deg' } }), { message: /name both outDeg and nextContrib/ });
      // The first iteration (param r0): contributions r0 / outDeg from the degrees, contrib unread
      // (its device array, holding other values, is ignored): the sums of stored r0 / outDeg, bitwise.
      const r0 = 1 / g.n;
      await c.writeState('contrib', Float64Array.from(deg, (k) => (k === 0 ? 0 : r0 / k)));
      await c.run('pr_pull', { setId: 1, pages: all(pages), params: { base: 0.15 / g.n, d: 0.85 }, state: { contrib: 'contrib', next: 'rank', outDeg: 'deg', nextContrib: 'nc' } });
      const stored = await c.readState('rank', new Float64Array(g.n));
      await c.writeState('contrib', contrib);
      await c.run('pr_pull', { setId: 1, pages: all(pages), params: { base: 0.15 / g.n, d: 0.85, r0 }, state: { next: 'rank', outDeg: 'deg', nextContrib: 'nc' } });
      t.deepEqual(await c.readState('rank', new Float64Array(g.n)), stored, 'r0 / outDeg where read = stored contributions');
      await t.throwsAsync(c.run('pr_pull', { setId: 1, pages: all(pages), params: { r0 }, state: { next: 'rank' } }), { message: /outDeg/ });
    } finally {
      await c.close();
    }
  });
}

// Page stealing registers the victim's pages mid-run: the cache grows for them and keeps the
// pages it already holds (an H100 run re-copied all 211 pages of RMAT 24 after every steal).
t_("loading the addon asks CUDA for eager module loading, unless the user's environment says otherwise", (t) => {
  const code = `const { nativeAvailable } = await import('./dist/actors/gpu/native.js'); nativeAvailable(); console.log(process.env.CUDA_MODULE_LOADING ?? 'unset');`;
  const run = (env: Record<string, string | undefined>): string => execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: REPO_ROOT, env: { ...process.env, ...env }, encoding: 'utf8' }).trim();
  const { CUDA_MODULE_LOADING: _drop, ...rest } = process.env;
  t.is(execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: REPO_ROOT, env: rest, encoding: 'utf8' }).trim(), 'EAGER');
  t.is(run({ CUDA_MODULE_LOADING: 'LAZY' }), 'LAZY');
});

t_('pages registered later grow the page cache without dropping the resident ones', async (t) => {
  const g = G1;
  const pages = paginate(g.in, 97, undefined);
  const c = await emu();
  try {
    await register(c, 1, pages);
    await c.allocState('contrib', 'f64', g.n);
    await c.allocState('rank', 'f64', g.n);
    await c.fillState('contrib', 1);
    const call = (setId: number) => c.run('pr_pull', { setId, pages: all(pages), params: { base: 0, d: 1 }, state: { next: 'rank' } });
    t.is((await call(1)).misses, pages.length);
    const before = (await c.info()).cacheSlots;
    await register(c, 2, pages); // same images under another set: the slots stay big enough
    const again = await call(1);
    t.is(again.hits, pages.length, 'set 1 is still resident');
    t.is(again.misses, 0);
    t.is((await call(2)).misses, pages.length);
    const info = await c.info();
    t.true(info.cacheSlots >= before + pages.length, `${info.cacheSlots} slots after growing from ${before}`);
    t.is(info.residentPages, 2 * pages.length);
    t.is(info.totals.cacheResets, 0);
    const want = Float64Array.from(g.in, (l) => l.length);
    close(t, await c.readState('rank', new Float64Array(g.n)), want, 'in-degree sums');
  } finally {
    await c.close();
  }
});

t_('pr_pull on a subset of pages writes only their vertices', async (t) => {
  const g = G1;
  const pages = paginate(g.in, 2000, undefined);
  const c = await emu();
  try {
    await register(c, 0, pages);
    await c.allocState('contrib', 'f64', g.n);
    await c.allocState('next', 'f64', g.n);
    await c.fillState('contrib', 1);
    await c.fillState('next', -1);
    const some = pages.filter((p) => p.index % 2 === 0);
    await c.run('pr_pull', { setId: 0, pages: all(some), params: {} });
    const got = await c.readState('next', new Float64Array(g.n));
    // a split vertex with only some of its pages in the call gets the partial sum of those pages
    const want = new Float64Array(g.n).fill(-1);
    for (const p of some) for (let v = p.vBegin; v < p.vEnd; v++) want[v] = (want[v] === -1 ? 0 : want[v]!) + p.offsets[v - p.vBegin + 1]! - p.offsets[v - p.vBegin]!;
    t.true(some.some((p) => p.split) && pages.some((p) => p.split && p.index % 2 === 1), 'the subset holds part of a split vertex');
    close(t, got, want, 'subset');
  } finally {
    await c.close();
  }
});

t_('pr_push accumulates out-edges; an owned range sends the rest to a deduplicated outbox (sum)', async (t) => {
  const g = G1;
  const pages = paginate(g.out, 1500, undefined);
  const c = await emu();
  try {
    await register(c, 2, pages);
    await c.allocState('contrib', 'f64', g.n);
    await c.allocState('next', 'f64', g.n);
    const r = rng(11);
    const contrib = Float64Array.from({ length: g.n }, () => r());
    await c.writeState('contrib', contrib);
    const want = new Float64Array(g.n);
    for (let u = 0; u < g.n; u++) for (const [v] of g.out[u]!) want[v]! += contrib[u]!;
    await c.run('pr_push', { setId: 2, pages: all(pages) });
    close(t, await c.readState('next', new Float64Array(g.n)), want, 'pr_push all owned');

    await c.fillState('next', 0);
    const [ob, oe] = [1000, 4000];
    const st = await c.run('pr_push', { setId: 2, pages: all(pages), params: { ownedBegin: ob, ownedEnd: oe } });
    const got = await c.readState('next', new Float64Array(g.n));
    const wantOwned = want.map((x, v) => (v >= ob && v < oe ? x : 0));
    close(t, got, wantOwned, 'owned part');
    t.truthy(st.outbox);
    const { ids, values } = st.outbox!;
    t.is(new Set(ids).size, ids.length, 'one entry per destination');
    let remoteEdges = 0;
    for (let u = 0; u < g.n; u++) for (const [v] of g.out[u]!) if (v < ob || v >= oe) remoteEdges++;
    t.is(st.outbox!.sent, remoteEdges, 'messages before aggregation: one per remote edge');
    t.true(ids.length < remoteEdges, 'aggregation merged messages');
    const remote = [...want.keys()].filter((v) => (v < ob || v >= oe) && g.in[v]!.length > 0);
    t.is(ids.length, remote.length);
    const m = new Map<number, number>();
    ids.forEach((v, i) => m.set(v, values[i]!));
    close(t, remote.map((v) => m.get(v) ?? NaN), remote.map((v) => want[v]!), 'outbox sums');
    // the outbox is clean for the next call
    const st2 = await c.run('pr_push', { setId: 2, pages: all(pages), params: { ownedBegin: ob, ownedEnd: oe } });
    const m2 = new Map<number, number>();
    st2.outbox!.ids.forEach((v, i) => m2.set(v, st2.outbox!.values[i]!));
    close(t, remote.map((v) => m2.get(v) ?? NaN), remote.map((v) => want[v]!), 'outbox sums, second call');
  } finally {
    await c.close();
  }
});

/** Level-synchronous BFS on the controller; returns depths and per-level stats. */
async function gpuBfs(c: GpuController, g: G, setOut: number, outPages: HPage[], setIn: number, inPages: HPage[], src: number, mode: 'push' | 'pull' | 'mixed', frontierType: 'u32' | 'u8'): Promise<{ depth: Int32Array; stats: RunStats[] }> {
  const n = g.n;
  const len = frontierType === 'u32' ? bitmapWords(n) : n;
  await c.allocState('depth', 'i32', n);
  await c.allocState('fa', frontierType, len);
  await c.allocState('fb', frontierType, len);
  await c.fillState('depth', -1);
  await c.fillState('fa', 0);
  await c.fillState('fb', 0);
  await c.writeState('depth', Int32Array.of(0), src);
  if (frontierType === 'u32') await c.writeState('fa', Uint32Array.of(1 << (src & 31)), src >> 5);
  else await c.writeState('fa', Uint8Array.of(1), src);
  let [cur, nxt] = ['fa', 'fb'];
  const stats: RunStats[] = [];
  for (let level = 0; level < n; level++) {
    const pull = mode === 'pull' || (mode === 'mixed' && level % 2 === 1);
    const st = pull
      ? await c.run('bfs_pull', { setId: setIn, pages: all(inPages), params: { level }, state: { frontier: cur, next: nxt } })
      : await c.run('bfs_push', { setId: setOut, pages: all(outPages), params: { level }, state: { frontier: cur, next: nxt } });
    stats.push(st);
    if (st.activated === 0) break;
    await c.fillState(cur, 0);
    [cur, nxt] = [nxt, cur];
  }
  return { depth: await c.readState('depth', new Int32Array(n)), stats };
}

for (const [mode, ft, pe] of [
  ['push', 'u32', 4096],
  ['push', 'u8', 100],
  ['pull', 'u32', 3000],
  ['pull', 'u8', 90],
  ['mixed', 'u32', 700],
] as const) {
  t_(`bfs_${mode} with a ${ft === 'u32' ? 'bitmap' : 'byte'} frontier matches BFS (pageEdges ${pe})`, async (t) => {
    const g = G1;
    const outPages = paginate(g.out, pe, undefined);
    const inPages = paginate(g.in, pe, undefined);
    const c = await emu();
    try {
      await register(c, 0, outPages);
      await register(c, 1, inPages);
      for (const src of [9, 0, 4321]) {
        const { depth, stats } = await gpuBfs(c, g, 0, outPages, 1, inPages, src, mode, ft);
        const want = bfsRef(g.out, src);
        t.deepEqual(Array.from(depth), Array.from(want), `source ${src}`);
        const reached = want.filter((d) => d >= 0).length;
        t.is(stats.reduce((s, x) => s + x.activated, 0), reached - 1, 'activated counts each vertex once');
      }
    } finally {
      await c.close();
    }
  });
}

// Out-degrees past kTwcHuge (16384): those vertices' edges go over KTwcBlock's whole grid, beside
// big (block) and mid (warp) vertices of the same page.
const GH = randomGraph(60000, 120000, 11, [
  [3, 40000, 'out'],
  [7, 22000, 'out'],
  [21, 600, 'out'],
  [23, 90, 'out'],
]);

t_('push over huge out-degrees (the whole grid): bfs_push and sssp_push match their references', async (t) => {
  const g = GH;
  t.true(g.out[3]!.length >= 16384 && g.out[7]!.length >= 16384, 'two huge vertices');
  const outPages = paginate(g.out, 1 << 18, 'f64');
  const inPages = paginate(g.in, 1 << 18, undefined);
  const c = await emu();
  try {
    await register(c, 0, outPages);
    await register(c, 1, inPages);
    for (const src of [3, 7, 21]) {
      const { depth } = await gpuBfs(c, g, 0, outPages, 1, inPages, src, 'push', 'u8');
      t.deepEqual(Array.from(depth), Array.from(bfsRef(g.out, src)), `bfs from ${src}`);
    }
    const n = g.n;
    await c.allocState('dist', 'f64', n);
    await c.allocState('sa', 'u32', bitmapWords(n));
    await c.allocState('sb', 'u32', bitmapWords(n));
    await c.fillState('dist', Infinity);
    await c.fillState('sa', 0);
    await c.fillState('sb', 0);
    await c.writeState('dist', Float64Array.of(0), 3);
    await c.writeState('sa', Uint32Array.of(1 << 3), 0);
    let [cur, nxt] = ['sa', 'sb'];
    for (let it = 0; it < n; it++) {
      const st = await c.run('sssp_push', { setId: 0, pages: all(outPages), state: { frontier: cur, next: nxt } });
      if (st.activated === 0) break;
      await c.fillState(cur, 0);
      [cur, nxt] = [nxt, cur];
    }
    close(t, await c.readState('dist', new Float64Array(n)), ssspRef(g.out, 3, true), 'sssp from 3', 0);
  } finally {
    await c.close();
  }
});

t_('bfs_push from a frontier list, and an outbox (min) for vertices outside the owned range', async (t) => {
  const g = G1;
  const outPages = paginate(g.out, 800, undefined);
  const c = await emu();
  try {
    await register(c, 0, outPages);
    const n = g.n;
    await c.allocState('depth', 'u32', n);
    await c.allocState('list', 'u32', 16);
    await c.allocState('next', 'u32', bitmapWords(n));
    await c.fillState('depth', 0xffffffff);
    const src = [9, 11, 200];
    for (const s of src) await c.writeState('depth', Uint32Array.of(0), s);
    await c.writeState('list', Uint32Array.from(src));
    const [ob, oe] = [0, 3000];
    const st = await c.run('bfs_push', { setId: 0, pages: all(outPages), params: { level: 0, frontierSize: src.length, ownedBegin: ob, ownedEnd: oe }, state: { frontierList: 'list' } });
    const depth = await c.readState('depth', new Uint32Array(n));
    const reach = new Set<number>();
    for (const s of src) for (const [v] of g.out[s]!) if (!src.includes(v)) reach.add(v);
    const owned = [...reach].filter((v) => v >= ob && v < oe);
    const remote = [...reach].filter((v) => v < ob || v >= oe).sort((a, b) => a - b);
    for (let v = 0; v < n; v++) {
      const want = src.includes(v) ? 0 : owned.includes(v) ? 1 : 0xffffffff;
      if (depth[v] !== want) return t.fail(`depth[${v}] = ${depth[v]}, want ${want}`);
    }
    t.is(st.activated, owned.length);
    t.deepEqual(Array.from(st.outbox!.ids).sort((a, b) => a - b), remote);
    t.true(st.outbox!.values.every((x) => x === 1));
    const bits = await c.readState('next', new Uint32Array(bitmapWords(n)));
    const inNext = [...Array(n).keys()].filter((v) => (bits[v >> 5]! >>> (v & 31)) & 1);
    t.deepEqual(inNext, owned.sort((a, b) => a - b));
  } finally {
    await c.close();
  }
});

for (const wt of ['f64', 'f32', undefined] as const) {
  t_(`sssp_push matches shortest paths (${wt ?? 'unweighted'}, split pages)`, async (t) => {
    const g = G1;
    const pages = paginate(g.out, 250, wt);
    t.true(pages.some((p) => p.split));
    const c = await emu();
    try {
      await register(c, 4, pages);
      const n = g.n;
      await c.allocState('dist', 'f64', n);
      await c.allocState('fa', 'u32', bitmapWords(n));
      await c.allocState('fb', 'u32', bitmapWords(n));
      const src = 9;
      await c.fillState('dist', Infinity);
      await c.writeState('dist', Float64Array.of(0), src);
      await c.writeState('fa', Uint32Array.of(1 << (src & 31)), src >> 5);
      let [cur, nxt] = ['fa', 'fb'];
      for (let it = 0; it < n; it++) {
        const st = await c.run('sssp_push', { setId: 4, pages: all(pages), state: { frontier: cur, next: nxt } });
        if (st.activated === 0) break;
        await c.fillState(cur, 0);
        [cur, nxt] = [nxt, cur];
      }
      const want = ssspRef(g.out, src, wt !== undefined);
      close(t, await c.readState('dist', new Float64Array(n)), want, 'dist', 0);
    } finally {
      await c.close();
    }
  });
}

t_('an owned byte map (several ranges): bfs_push outbox, pr_pull apply and compact follow it', async (t) => {
  const g = G1;
  const n = g.n;
  const outPages = paginate(g.out, 800, undefined);
  const inPages = paginate(g.in, 800, undefined);
  // Three owned ranges with gaps (as a RAND owner has), and its byte map.
  const ranges: Array<[number, number]> = [[0, 700], [1500, 2600], [4000, 4800]];
  const map = new Uint8Array(n);
  for (const [b, e] of ranges) map.fill(1, b, e);
  const mine = (v: number): boolean => map[v] === 1;
  const c = await emu();
  try {
    await register(c, 0, outPages);
    await register(c, 1, inPages);
    await c.allocState('own', 'u8', n);
    await c.writeState('own', map);
    // bfs_push: owned destinations claimed in place, the rest to the outbox.
    await c.allocState('depth', 'u32', n);
    await c.allocState('list', 'u32', 16);
    await c.allocState('next', 'u8', n);
    await c.fillState('depth', 0xffffffff);
    const src = [9, 11, 200, 5000];
    for (const s of src) await c.writeState('depth', Uint32Array.of(0), s);
    await c.writeState('list', Uint32Array.from(src));
    const st = await c.run('bfs_push', { setId: 0, pages: all(outPages), params: { level: 0, frontierSize: src.length }, state: { frontierList: 'list', owned: 'own' } });
    const reach = new Set<number>();
    for (const s of src) for (const [v] of g.out[s]!) if (!src.includes(v)) reach.add(v);
    const owned = [...reach].filter(mine).sort((a, b) => a - b);
    const remote = [...reach].filter((v) => !mine(v)).sort((a, b) => a - b);
    t.true(owned.length > 0 && remote.length > 0 && remote.some((v) => v > 700 && v < 1500), 'both kinds, remote ones between owned ranges');
    const depth = await c.readState('depth', new Uint32Array(n));
    for (let v = 0; v < n; v++) {
      const want = src.includes(v) ? 0 : owned.includes(v) ? 1 : 0xffffffff;
      if (depth[v] !== want) return t.fail(`depth[${v}] = ${depth[v]}, want ${want}`);
    }
    t.deepEqual(Array.from(st.outbox!.ids).sort((a, b) => a - b), remote);
    await t.throwsAsync(c.run('bfs_push', { setId: 0, pages: all(outPages), params: { level: 0, frontierSize: 1, ownedBegin: 0, ownedEnd: 5 }, state: { frontierList: 'list', owned: 'own' } }), { message: /not both/ });
    // compact with the map as mask over the span of the ranges: owned flagged vertices only.
    const got = await c.compact('next', 'depth', 0, 4800, 'own');
    t.deepEqual(Array.from(got.ids).sort((a, b) => a - b), owned);
    t.true(got.values.every((x) => x === 1));
    t.deepEqual(Array.from((await c.compact('next', 'depth', 0, 4800)).ids).sort((a, b) => a - b), owned, 'push flags only owned vertices anyway');
    await c.fillState('next', 1);
    const every = await c.compact('next', 'depth', 0, n, 'own');
    t.is(every.ids.length, 2600 - 1500 + 700 + 800, 'a mask keeps the owned vertices of a fully flagged range');
    await t.throwsAsync(c.compact('next', 'depth', 0, n, 'depth'), { code: 'TS_TYPE' });
    // pr_pull over every in-page, the vertex apply only where the map is set.
    await c.allocState('contrib', 'f64', n);
    await c.allocState('rank', 'f64', n);
    await c.allocState('deg', 'u32', n);
    await c.allocState('nc', 'f64', n);
    const r = rng(11);
    const contrib = Float64Array.from({ length: n }, () => r());
    const deg = Uint32Array.from({ length: n }, (_, v) => g.out[v]!.length);
    await c.writeState('contrib', contrib);
    await c.writeState('deg', deg);
    await c.fillState('nc', -1);
    const prs = await c.run('pr_pull', { setId: 1, pages: all(inPages), params: { base: 0.15 / n, d: 0.85 }, state: { next: 'rank', outDeg: 'deg', nextContrib: 'nc', owned: 'own' } });
    const nc = await c.readState('nc', new Float64Array(n));
    let dangling = 0;
    const wantNc = new Float64Array(n).fill(-1);
    for (let v = 0; v < n; v++) {
      if (!mine(v)) continue;
      let sum = 0;
      for (const [u] of g.in[v]!) sum += contrib[u]!;
      const rank = 0.15 / n + 0.85 * sum;
      if (deg[v] === 0) (dangling += rank, (wantNc[v] = 0));
      else wantNc[v] = rank / deg[v]!;
    }
    close(t, nc, wantNc, 'next contribution of owned vertices only');
    t.true(dangling > 0 && Math.abs(prs.sum! - dangling) <= 1e-9 * dangling, `dangling ${prs.sum} want ${dangling}`);
  } finally {
    await c.close();
  }
});

t_('sssp_push outbox keeps the minimum per remote destination', async (t) => {
  // two sources reach the same remote vertices with different distances
  const out: Lists = Array.from({ length: 8 }, () => []);
  out[0] = [[5, 3], [6, 1], [7, 2]];
  out[1] = [[5, 1], [6, 4]];
  out[2] = [[3, 1]];
  const g = finish(8, out);
  const pages = paginate(g.out, 2, 'f64');
  const c = await emu();
  try {
    await register(c, 0, pages);
    await c.allocState('dist', 'f64', 8);
    await c.allocState('front', 'u8', 8);
    await c.writeState('dist', Float64Array.of(0, 0.5, 0, Infinity, Infinity, Infinity, Infinity, Infinity));
    await c.writeState('front', Uint8Array.of(1, 1, 1, 0, 0, 0, 0, 0));
    const st = await c.run('sssp_push', { setId: 0, pages: all(pages), params: { ownedBegin: 0, ownedEnd: 5 }, state: { frontier: 'front' } });
    const m = new Map<number, number>();
    st.outbox!.ids.forEach((v, i) => m.set(v, st.outbox!.values[i]!));
    t.deepEqual([...m.entries()].sort((a, b) => a[0] - b[0]), [
      [5, 1.5],
      [6, 1],
      [7, 2],
    ]);
    const d = await c.readState('dist', new Float64Array(8));
    t.is(d[3], 1);
    t.is(d[5], Infinity); // remote: not written locally
    t.is(st.activated, 1);
  } finally {
    await c.close();
  }
});

for (const mode of ['pull', 'push'] as const) {
  t_(`wcc_${mode} min-label propagation matches union-find (in + out pages, split pages)`, async (t) => {
    // several components: a sparse graph plus the hub graph
    const g = randomGraph(3000, 1800, 21, [[40, 600, 'in'], [41, 300, 'out']]);
    const outPages = paginate(g.out, 150, undefined);
    const inPages = paginate(g.in, 150, undefined);
    const c = await emu();
    try {
      await register(c, 0, outPages);
      await register(c, 1, inPages);
      const n = g.n;
      await c.allocState('label', 'u32', n);
      await c.writeState('label', Uint32Array.from({ length: n }, (_, i) => i));
      await c.allocState('fa', 'u8', n);
      await c.allocState('fb', 'u8', n);
      await c.fillState('fa', 1);
      let [cur, nxt] = ['fa', 'fb'];
      let rounds = 0;
      for (;;) {
        rounds++;
        let act = 0;
        for (const [set, pages] of [[0, outPages], [1, inPages]] as const) {
          const st =
            mode === 'pull'
              ? await c.run('wcc_pull', { setId: set, pages: all(pages), state: { next: nxt } })
              : await c.run('wcc_push', { setId: set, pages: all(pages), state: { frontier: cur, next: nxt } });
          act += st.activated;
        }
        if (act === 0 || rounds > n) break;
        await c.fillState(cur, 0);
        [cur, nxt] = [nxt, cur];
      }
      t.deepEqual(Array.from(await c.readState('label', new Uint32Array(n))), Array.from(wccRef(g)));
    } finally {
      await c.close();
    }
  });
}

t_('wcc_push outbox (min) for labels bound to vertices outside the owned range', async (t) => {
  const out: Lists = Array.from({ length: 6 }, () => []);
  out[0] = [[4, 1], [5, 1]];
  out[1] = [[4, 1], [2, 1]];
  const g = finish(6, out);
  const pages = paginate(g.out, 100, undefined);
  const c = await emu();
  try {
    await register(c, 0, pages);
    await c.allocState('label', 'i32', 6);
    await c.writeState('label', Int32Array.of(3, 1, 7, 8, 9, 10));
    const st = await c.run('wcc_push', { setId: 0, pages: all(pages), params: { ownedBegin: 0, ownedEnd: 4 } });
    const m = new Map<number, number>();
    st.outbox!.ids.forEach((v, i) => m.set(v, st.outbox!.values[i]!));
    t.deepEqual([...m.entries()].sort((a, b) => a[0] - b[0]), [
      [4, 1],
      [5, 3],
    ]);
    t.deepEqual(Array.from(await c.readState('label', new Int32Array(6))), [3, 1, 1, 8, 9, 10]);
  } finally {
    await c.close();
  }
});

function cdlpRef(nb: Lists, label: Uint32Array): Uint32Array {
  const next = new Uint32Array(label.length);
  for (let v = 0; v < nb.length; v++) {
    if (nb[v]!.length === 0) {
      next[v] = label[v]!;
      continue;
    }
    const h = new Map<number, number>();
    for (const [u] of nb[v]!) h.set(label[u]!, (h.get(label[u]!) ?? 0) + 1);
    let best = Infinity;
    let cnt = 0;
    for (const [l, k] of h) if (k > cnt || (k === cnt && l < best)) (best = l), (cnt = k);
    next[v] = best;
  }
  return next;
}

for (const pe of [1 << 15, 300]) {
  t_(`cdlp_pull: most frequent neighbour label, ties to the smallest (pageEdges ${pe})`, async (t) => {
    const g = randomGraph(2500, 9000, 5, [[3, 1200, 'in'], [4, 400, 'out'], [6, 50, 'in']]);
    // neighbour multiset: in + out lists (a reciprocal neighbour counts twice)
    const both: Lists = g.out.map((l, v) => [...l, ...g.in[v]!].sort((a, b) => a[0] - b[0]));
    const pages = paginate(both, pe, undefined);
    if (pe < 1000) t.true(pages.some((p) => p.split));
    const c = await emu();
    try {
      await register(c, 0, pages);
      const n = g.n;
      // few distinct labels so that counts tie and repeat
      let label: Uint32Array = Uint32Array.from({ length: n }, (_, i) => (i * 2654435761) % 37 >>> 0);
      await c.allocState('la', 'u32', n);
      await c.allocState('lb', 'u32', n);
      await c.writeState('la', label);
      let [cur, nxt] = ['la', 'lb'];
      for (let it = 0; it < 3; it++) {
        await c.run('cdlp_pull', { setId: 0, pages: all(pages), state: { label: cur, next: nxt } });
        label = cdlpRef(both, label);
        t.deepEqual(Array.from(await c.readState(nxt, new Uint32Array(n))), Array.from(label), `iteration ${it}`);
        [cur, nxt] = [nxt, cur];
      }
      // a split vertex without all its pages in the call is refused
      const split = pages.filter((p) => p.split);
      if (split.length > 1) await t.throwsAsync(c.run('cdlp_pull', { setId: 0, pages: [split[0]!.index], state: { label: cur, next: nxt } }), { message: /needs all of a vertex's pages/ });
    } finally {
      await c.close();
    }
  });
}

function brandes(out: Lists, sources: number[]): Float64Array {
  const n = out.length;
  const bc = new Float64Array(n);
  for (const s of sources) {
    const sigma = new Float64Array(n);
    const dist = new Int32Array(n).fill(-1);
    const delta = new Float64Array(n);
    const order: number[] = [s];
    sigma[s] = 1;
    dist[s] = 0;
    for (let h = 0; h < order.length; h++) {
      const v = order[h]!;
      for (const [w] of out[v]!) {
        if (dist[w] === -1) (dist[w] = dist[v]! + 1), order.push(w);
        if (dist[w] === dist[v]! + 1) sigma[w]! += sigma[v]!;
      }
    }
    for (let i = order.length - 1; i >= 0; i--) {
      const v = order[i]!;
      for (const [w] of out[v]!) if (dist[w] === dist[v]! + 1) delta[v]! += (sigma[v]! / sigma[w]!) * (1 + delta[w]!);
      if (v !== s) bc[v]! += delta[v]!;
    }
  }
  return bc;
}

t_('bc_forward / bc_forward_pull / bc_backward (Brandes levels, forward pushed, pulled or both) match the reference', async (t) => {
  const g = randomGraph(1500, 6000, 13, [[2, 400, 'out'], [3, 300, 'in']]);
  const pages = paginate(g.out, 200, undefined);
  const inPages = paginate(g.in, 200, undefined);
  t.true(pages.some((p) => p.split) && inPages.some((p) => p.split), 'split out- and in-pages (hubs)');
  for (const mode of ['push', 'pull', 'mixed'] as const) await brandesOnController(t, g, pages, inPages, mode);
});

async function brandesOnController(t: ExecutionContext, g: G, pages: HPage[], inPages: HPage[], mode: 'push' | 'pull' | 'mixed'): Promise<void> {
  const c = await emu();
  try {
    await register(c, 0, pages);
    await register(c, 1, inPages);
    const n = g.n;
    for (const [name, type] of [['depth', 'u32'], ['sigma', 'f64'], ['delta', 'f64'], ['bc', 'f64'], ['fa', 'u32'], ['fb', 'u32']] as const)
      await c.allocState(name, type, name[0] === 'f' ? bitmapWords(n) : n);
    const sources = [2, 0, 77];
    for (const s of sources) {
      await c.fillState('depth', 0xffffffff);
      await c.fillState('sigma', 0);
      await c.fillState('delta', 0);
      await c.fillState('fa', 0);
      await c.fillState('fb', 0);
      await c.writeState('depth', Uint32Array.of(0), s);
      await c.writeState('sigma', Float64Array.of(1), s);
      await c.writeState('fa', Uint32Array.of(1 << (s & 31)), s >> 5);
      let [cur, nxt] = ['fa', 'fb'];
      let level = 0;
      for (; ; level++) {
        const pull = mode === 'pull' || (mode === 'mixed' && level % 2 === 1);
        const st = pull
          ? await c.run('bc_forward_pull', { setId: 1, pages: all(inPages), params: { level }, state: { frontier: cur, next: nxt } })
          : await c.run('bc_forward', { setId: 0, pages: all(pages), params: { level }, state: { frontier: cur, next: nxt } });
        if (st.activated === 0) break;
        await c.fillState(cur, 0);
        [cur, nxt] = [nxt, cur];
      }
      for (let l = level; l >= 0; l--) await c.run('bc_backward', { setId: 0, pages: all(pages), params: { level: l, source: s } });
    }
    close(t, await c.readState('bc', new Float64Array(n)), brandes(g.out, sources), `bc, forward ${mode}`, 1e-9);
  } finally {
    await c.close();
  }
}
