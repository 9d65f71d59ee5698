/**
 * The native GPU controller's page cache and its other calls on an emulated device: a memoryLimit
 * that streams and evicts pages, compact, copyState, takeState, preload, pinHost, pinAside, out of memory,
 * bad device indexes, argument errors and device info (the kernels are in test/native.test.ts).
 * These tests skip only when the addon could not be built because cmake or a C++ compiler is
 * missing (build/native-status.json says so); a missing or broken addon otherwise fails them.
 */
import test from 'ava';
import { GpuController, nativeAvailable } from '../actors/gpu/native.js';
import { all, close, emu, G1, onCuda, paginate, register, rng } from './helpers/native-pages.js';

const avail = nativeAvailable();
const skipAll = !avail.ok && avail.toolchainMissing;
const t_ = skipAll ? test.skip : test;

// ---- page cache -------------------------------------------------------------------------------

/** The slot, state and scratch sizes of pr_pull over `pages` (G1's in-lists), learnt with room to spare. */
async function probeSizes(pages: ReturnType<typeof paginate>): Promise<Awaited<ReturnType<GpuController['info']>>> {
  const probe = await emu();
  try {
    await register(probe, 0, pages);
    await probe.allocState('contrib', 'f64', G1.n);
    await probe.allocState('next', 'f64', G1.n);
    await probe.run('pr_pull', { setId: 0, pages: all(pages) });
    return await probe.info();
  } finally {
    await probe.close();
  }
}

t_('a memoryLimit that holds only 3 pages streams and evicts, results unchanged; resident pages go first', async (t) => {
  const g = G1;
  const pages = paginate(g.in, 600, undefined);
  t.true(pages.length > 10);
  const r = rng(99);
  const contrib = Float64Array.from({ length: g.n }, () => r());
  const want = new Float64Array(g.n);
  for (let v = 0; v < g.n; v++) for (const [u] of g.in[v]!) want[v]! += contrib[u]!;
  const info = await probeSizes(pages);
  t.is(info.cacheSlots, pages.length);
  const limit = info.stateBytes + info.scratchBytes + 3 * info.slotBytes + 100;
  const c = await emu(limit, 2);
  try {
    await register(c, 0, pages);
    await c.allocState('contrib', 'f64', g.n);
    await c.allocState('next', 'f64', g.n);
    await c.writeState('contrib', contrib);
    const st = await c.run('pr_pull', { setId: 0, pages: all(pages) });
    t.is(st.cacheSlots, 3);
    t.is(st.misses, pages.length);
    t.is(st.evictions, pages.length - 3);
    t.true(st.bytesCopied > 0);
    close(t, await c.readState('next', new Float64Array(g.n)), want, 'streamed pr_pull');
    // Pages the cache evicted stream: their host bytes are page-locked (direct DMA from their next
    // load on; on a real device tiny pages sharing an OS page with a locked one stay on the staging path).
    const i1 = await c.info();
    if (!onCuda) t.is(i1.pinnedPages, pages.length - 3);
    else t.true(i1.pinnedPages > 0 && i1.pinnedPages <= pages.length - 3, `${i1.pinnedPages} pinned`);
    const st2 = await c.run('pr_pull', { setId: 0, pages: all(pages) });
    t.is(st2.hits, 3, 'the 3 resident pages are reused first');
    t.is(st2.misses, pages.length - 3);
    close(t, await c.readState('next', new Float64Array(g.n)), want, 'streamed pr_pull again');
    const i2 = await c.info();
    t.true(i2.used <= limit);
    t.is(i2.totals.calls, 2);
    t.is(i2.totals.hits, 3);
    // The three resident pages were evicted in turn.
    if (!onCuda) t.is(i2.pinnedPages, pages.length);
    const st3 = await c.run('pr_pull', { setId: 0, pages: all(pages) });
    t.is(st3.misses, pages.length - 3);
    close(t, await c.readState('next', new Float64Array(g.n)), want, 'streamed pr_pull from page-locked pages');
  } finally {
    await c.close();
  }
});

t_('an allocation past a full cache frees its last slots only: the other resident pages stay, and pages that lost their slot so are not page-locked', async (t) => {
  const g = G1;
  const pages = paginate(g.in, 600, undefined);
  const info = await probeSizes(pages);
  // Six slots in three allocations of two (TESSERA_ARENA_CHUNK is read when a controller is made).
  const limit = info.stateBytes + info.scratchBytes + 6 * info.slotBytes + 100;
  process.env.TESSERA_ARENA_CHUNK = String(2 * info.slotBytes);
  const c = await emu(limit, 2).finally(() => delete process.env.TESSERA_ARENA_CHUNK);
  try {
    await register(c, 0, pages);
    await c.allocState('contrib', 'f64', g.n);
    await c.allocState('next', 'f64', g.n);
    await c.writeState('contrib', Float64Array.from({ length: g.n }, (_, i) => i % 7));
    const st = await c.run('pr_pull', { setId: 0, pages: all(pages) });
    t.is(st.cacheSlots, 6);
    t.is(st.evictions, pages.length - 6);
    // One slot's bytes more of state: the last allocation (two slots) goes, four pages stay resident.
    await c.allocState('extra', 'u8', info.slotBytes);
    const i1 = await c.info();
    t.is(i1.cacheSlots, 4);
    t.is(i1.residentPages, 4);
    t.is(i1.totals.cacheResets, 1);
    t.true(i1.used <= limit);
    // Locked: the pages the first run evicted; not the two whose slots were freed.
    if (!onCuda) t.is(i1.pinnedPages, pages.length - 6);
    else t.true(i1.pinnedPages > 0 && i1.pinnedPages <= pages.length - 6, `${i1.pinnedPages} pinned`);
    const st2 = await c.run('pr_pull', { setId: 0, pages: all(pages) });
    t.is(st2.hits, 4, 'the pages in the slots kept are hits');
    t.is(st2.misses, pages.length - 4);
  } finally {
    await c.close();
  }
});

t_('compact lists the flagged vertices of a range with their values (any state type), none when nothing is flagged', async (t) => {
  const n = 100_000;
  const c = await emu();
  try {
    await c.allocState('f', 'u8', n);
    await c.allocState('d', 'i32', n);
    await c.allocState('x', 'f64', n);
    const flags = new Uint8Array(n);
    const d = new Int32Array(n);
    const x = new Float64Array(n);
    const r = rng(5);
    for (let v = 0; v < n; v++) {
      flags[v] = r() < 0.3 ? 1 : 0;
      d[v] = v % 7 === 0 ? -1 : v * 3;
      x[v] = r() - 0.5;
    }
    await c.writeState('f', flags);
    await c.writeState('d', d);
    await c.writeState('x', x);
    for (const [name, arr] of [['d', d], ['x', x]] as const) {
      for (const [b, e] of [[0, n], [1234, 56789], [500, 500]]) {
        const got = await c.compact('f', name, b, e);
        const want: number[] = [];
        for (let v = b; v < e; v++) if (flags[v]) want.push(v);
        const order = [...got.ids.keys()].sort((i, j) => got.ids[i]! - got.ids[j]!);
        t.deepEqual(order.map((i) => got.ids[i]), want, `${name} [${b}, ${e}) ids`);
        t.true(order.every((i) => got.values[i] === arr[got.ids[i]!]), `${name} [${b}, ${e}) values`);
      }
    }
    await c.fillState('f', 0);
    t.is((await c.compact('f', 'x', 0, n)).ids.length, 0);
    await t.throwsAsync(c.compact('x', 'd', 0, n), { code: 'TS_TYPE' });
    await t.throwsAsync(c.compact('f', 'd', 0, n + 1), { code: 'TS_RANGE' });
  } finally {
    await c.close();
  }
});

t_('copyState copies a range between device arrays of one type; changes against the copy are then none', async (t) => {
  const n = 50_000;
  const c = await emu();
  try {
    await c.allocState('x', 'f64', n);
    await c.allocState('before:x', 'f64', n);
    await c.allocState('d', 'i32', n);
    const x = Float64Array.from({ length: n }, (_, v) => v * 0.25 - 7);
    await c.writeState('x', x);
    await c.fillState('before:x', 1);
    await c.copyState('before:x', 'x', 1000, 20_000);
    const back = await c.readState('before:x', new Float64Array(n));
    t.true(back.every((y, v) => y === (v >= 1000 && v < 20_000 ? x[v] : 1)), 'the range only');
    await c.copyState('before:x', 'x', 0, n);
    t.is((await c.changes('x', 'before:x', 0, n, false)).ids.length, 0);
    await c.copyState('x', 'x', 0, n); // onto itself: nothing to do
    await c.copyState('x', 'x', 5, 5);
    await t.throwsAsync(c.copyState('d', 'x', 0, n), { code: 'TS_TYPE' });
    await t.throwsAsync(c.copyState('before:x', 'x', 0, n + 1), { code: 'TS_RANGE' });
    await t.throwsAsync(c.copyState('nothere', 'x', 0, 1), { code: 'TS_NO_STATE' });
  } finally {
    await c.close();
  }
});

t_('takeState: the destination gets the source values, the source reads zero, and again the other way', async (t) => {
  const n = 40_001;
  const c = await emu();
  try {
    await c.allocState('fr', 'u8', n);
    await c.allocState('nx', 'u8', n);
    await c.allocState('short', 'u8', n - 1);
    await c.allocState('w', 'u32', n);
    const flags = Uint8Array.from({ length: n }, (_, v) => (v % 7 === 3 ? 1 : 0));
    await c.writeState('nx', flags);
    await c.fillState('fr', 5);
    await c.takeState('fr', 'nx');
    t.deepEqual(await c.readState('fr', new Uint8Array(n)), flags);
    t.true((await c.readState('nx', new Uint8Array(n))).every((x) => x === 0));
    await c.writeState('nx', Uint8Array.of(1, 1), 10);
    await c.takeState('fr', 'nx');
    const fr = await c.readState('fr', new Uint8Array(n));
    t.true(fr.every((x, v) => x === (v === 10 || v === 11 ? 1 : 0)), 'the second take: the flags written since');
    t.true((await c.readState('nx', new Uint8Array(n))).every((x) => x === 0));
    await t.throwsAsync(c.takeState('fr', 'short'), { code: 'TS_TYPE' });
    await t.throwsAsync(c.takeState('fr', 'w'), { code: 'TS_TYPE' });
    await t.throwsAsync(c.takeState('fr', 'fr'), { code: 'TS_ARG' });
    await t.throwsAsync(c.takeState('fr', 'nothere'), { code: 'TS_NO_STATE' });
  } finally {
    await c.close();
  }
});

t_('preload copies pages into the cache before any run (the run then hits every one, same values); none where the cache cannot hold every page beside the reserve', async (t) => {
  const g = G1;
  const pages = paginate(g.in, 1000, undefined);
  const run = (c: GpuController) => c.run('pr_pull', { setId: 1, pages: all(pages), params: { base: 0, d: 1 }, state: { next: 'rank' } });
  const fresh = async (c: GpuController) => {
    await register(c, 1, pages);
    await c.allocState('contrib', 'f64', g.n);
    await c.allocState('rank', 'f64', g.n);
    await c.writeState('contrib', Float64Array.from({ length: g.n }, (_, v) => v % 13));
  };
  const c = await emu();
  try {
    await fresh(c);
    t.is(await c.preload(1, Uint32Array.from(all(pages)), 1 << 20), pages.length);
    t.is(await c.preload(1, Uint32Array.from(all(pages)), 1 << 20), 0, 'already resident');
    const st = await run(c);
    t.is(st.hits, pages.length);
    t.is(st.misses, 0);
    const got = await c.readState('rank', new Float64Array(g.n));
    const d = await emu();
    try {
      await fresh(d);
      t.is((await run(d)).misses, pages.length);
      t.deepEqual(await d.readState('rank', new Float64Array(g.n)), got, 'the same values as a run that copied its pages');
    } finally {
      await d.close();
    }
    await t.throwsAsync(c.preload(1, Uint32Array.of(100000), 0), { code: 'TS_BAD_PAGE' });
  } finally {
    await c.close();
  }
  // A cache smaller than the pages (or no room beside the reserve): nothing copied, no error.
  const small = await emu(64 << 10);
  try {
    await register(small, 1, pages);
    t.is(await small.preload(1, Uint32Array.from(all(pages)), 0), 0);
  } finally {
    await small.close();
  }
  const roomy = await emu(64 << 20);
  try {
    await register(roomy, 1, pages);
    t.is(await roomy.preload(1, Uint32Array.from(all(pages)), 64 << 20), 0, 'the reserve does not fit beside the pages');
  } finally {
    await roomy.close();
  }
});

t_('pinHost page-locks a host view: copies to and from it are unchanged; unpinHost releases it', async (t) => {
  const n = 1 << 18;
  const c = await emu();
  try {
    await c.allocState('x', 'f64', n);
    const host = new Float64Array(new SharedArrayBuffer(8 * n));
    for (let i = 0; i < n; i++) host[i] = i * 0.5;
    t.true(await c.pinHost(host));
    t.true(await c.pinHost(host), 'pinning the same view again only counts it');
    t.is((await c.info()).pinnedHostBytes, 8 * n);
    await c.writeState('x', host.subarray(1000, 5000), 1000);
    await c.writeState('x', host);
    const back = new Float64Array(new SharedArrayBuffer(8 * n));
    t.true(await c.pinHost(back));
    await c.readState('x', back.subarray(7, n), 7);
    t.is(back[7], 3.5);
    t.is(back[n - 1], (n - 1) * 0.5);
    await c.unpinHost(host);
    t.is((await c.info()).pinnedHostBytes, 16 * n, 'still counted once');
    await c.unpinHost(host);
    await c.unpinHost(back);
    t.is((await c.info()).pinnedHostBytes, 0);
    await c.unpinHost(back); // unknown now: nothing happens
    t.throws(() => c.pinHost(42 as never), { code: 'TS_ARG' }, "argument errors throw at the call, like the other methods");
  } finally {
    await c.close();
  }
});

t_("pinAside locks a view on the controller's side thread while its calls go on; unpinAside and close release it", async (t) => {
  const n = 1 << 18;
  const c = await emu();
  try {
    await c.allocState('x', 'f64', n);
    const host = new Float64Array(new SharedArrayBuffer(8 * n));
    for (let i = 0; i < n; i++) host[i] = i * 0.25;
    // The lock and a copy asked together: the copy does not wait for the side thread, nor breaks it.
    const [ok] = await Promise.all([c.pinAside(host), c.writeState('x', host)]);
    t.true(ok);
    t.true(await c.pinAside(host), 'locked already: true, counted once');
    t.is((await c.info()).pinnedHostBytes, 8 * n);
    const back = new Float64Array(new SharedArrayBuffer(8 * n));
    t.true(await c.pinAside(back));
    await c.readState('x', back);
    t.is(back[n - 1], (n - 1) * 0.25);
    t.is((await c.info()).pinnedHostBytes, 16 * n);
    await c.unpinAside(host);
    t.is((await c.info()).pinnedHostBytes, 8 * n);
    await c.unpinAside(host); // unknown now: nothing happens
    t.throws(() => c.pinAside(42 as never), { code: 'TS_ARG' });
  } finally {
    // `back` still locked: close releases it (and ends the side thread) without a hang or a crash.
    await c.close();
  }
  await t.throwsAsync(c.pinAside(new Float64Array(8)), { code: 'TS_CLOSED' });
});

t_('out of memory: a clear error, never a crash', async (t) => {
  const g = G1;
  const pages = paginate(g.in, 1 << 15, undefined);
  const c = await emu(200 * 1024);
  try {
    await register(c, 0, pages);
    await t.throwsAsync(c.allocState('big', 'f64', 1 << 20), { code: 'TS_OOM', message: /GPU out of memory: .*Fix: lower pageEdges \/ raise memoryLimit/ });
    await c.allocState('contrib', 'f64', g.n);
    await c.allocState('next', 'f64', g.n);
    await t.throwsAsync(c.run('pr_pull', { setId: 0, pages: all(pages) }), { code: 'TS_OOM', message: /GPU out of memory: one page does not fit.*Fix: lower pageEdges \/ raise memoryLimit/ });
    // the controller still works after the error
    await c.freeState('contrib');
    t.is((await c.info()).stateBytes, 48128);
  } finally {
    await c.close();
  }
});

t_('bad device index and missing CUDA device are clear errors', async (t) => {
  await t.throwsAsync(GpuController.create({ device: 99, emulated: true }), { code: 'TS_BAD_DEVICE', message: /GPU device 99 does not exist/ });
  await t.throwsAsync(GpuController.create({ device: -1, emulated: true }), { code: 'TS_BAD_DEVICE' });
  await t.throwsAsync(GpuController.create({ device: 1.5, emulated: true }), { code: 'TS_BAD_DEVICE' });
  if (!avail.ok) return;
  if (avail.cudaDevices === 0) {
    await t.throwsAsync(GpuController.create({ device: 0, emulated: false }), { message: /no CUDA device/ });
  } else {
    await t.throwsAsync(GpuController.create({ device: avail.cudaDevices, emulated: false }), { code: 'TS_BAD_DEVICE', message: /does not exist/ });
  }
});

t_('argument errors: unknown kernel, unregistered page, wrong state type, short buffer, closed controller', async (t) => {
  const g = G1;
  const pages = paginate(g.in, 1 << 15, undefined);
  const c = await emu();
  await register(c, 0, pages);
  await c.allocState('contrib', 'f32', g.n);
  await c.allocState('next', 'f64', g.n);
  await t.throwsAsync(c.run('nope' as never, { setId: 0, pages: [0] }), { code: 'TS_KERNEL' });
  await t.throwsAsync(c.run('pr_pull', { setId: 0, pages: [99] }), { code: 'TS_BAD_PAGE', message: /page 99 of set 0 is not registered/ });
  await t.throwsAsync(c.run('pr_pull', { setId: 0, pages: [0] }), { code: 'TS_TYPE', message: /contrib.*must be f64/ });
  await t.throwsAsync(c.writeState('next', new Float32Array(4)), { code: 'TS_TYPE' });
  await t.throwsAsync(c.readState('next', new Float64Array(10), g.n - 5), { code: 'TS_RANGE' });
  await t.throwsAsync(c.registerPage(0, 5, new SharedArrayBuffer(8), 0, 10, 10, 0), { code: 'TS_PAGE' });
  await c.allocState('small', 'f64', 10);
  await t.throwsAsync(c.run('pr_pull', { setId: 0, pages: [0], state: { contrib: 'small', next: 'small' } }), { code: 'TS_RANGE' });
  await c.close();
  await t.throwsAsync(c.info(), { code: 'TS_CLOSED' });
});

t_("a large page's largest neighbour id (found on the copy pool's threads) bounds the state it may read", async (t) => {
  // 2^20 + 100 edges from 4 vertices: maxOf splits the scan over the pool's threads (native/src/controller.cpp).
  const nv = 4;
  const edges = (1 << 20) + 100;
  const n = 1000;
  const nbrOff = Math.ceil((4 * (nv + 1)) / 8) * 8;
  const buf = new SharedArrayBuffer(nbrOff + Math.ceil((4 * edges) / 8) * 8);
  const off = new Uint32Array(buf, 0, nv + 1);
  for (let v = 0; v <= nv; v++) off[v] = Math.floor((edges * v) / nv);
  const nbr = new Uint32Array(buf, nbrOff, edges);
  for (let e = 0; e < edges; e++) nbr[e] = (e * 7) % n;
  const c = await emu();
  try {
    await c.allocState('contrib', 'f64', n);
    await c.allocState('next', 'f64', n);
    // In range: it runs. Then one id past the state, in each of the pool's parts in turn.
    await c.registerPage(0, 0, buf, 0, nv, edges, 0);
    await t.notThrowsAsync(c.run('pr_pull', { setId: 0, pages: [0] }));
    for (const at of [0, edges >> 1, edges - 1]) {
      const keep = nbr[at]!;
      nbr[at] = n + 7;
      await c.registerPage(0, 0, buf, 0, nv, edges, 0);
      await t.throwsAsync(c.run('pr_pull', { setId: 0, pages: [0] }), { code: 'TS_RANGE', message: new RegExp(`neighbour id ${n + 7} but state`) }, `edge ${at}`);
      nbr[at] = keep;
    }
  } finally {
    await c.close();
  }
});

t_('device info of an emulated device says so', async (t) => {
  const c = await emu(1 << 24);
  try {
    const i = await c.info();
    t.log(`${i.name}, compute capability ${i.computeCapability}, ${i.multiProcessors} SMs, ${(i.totalMemory / 2 ** 30).toFixed(1)} GiB`);
    t.is(i.emulated, !onCuda);
    if (!onCuda) t.regex(i.name, /emulated/);
    t.is(i.memoryLimit, 1 << 24);
    if (!onCuda) t.is(i.totalMemory, 1 << 24);
    t.is(i.streams, 3);
    t.is(c.flavor, avail.ok ? avail.flavor : c.flavor);
  } finally {
    await c.close();
  }
});

t_('registerPageSet registers a set in one call (checked and tiled on the copy threads): the same sums as page by page; a bad page among them refuses the call with its error and registers none of it', async (t) => {
  const g = G1;
  const pages = paginate(g.in, 600, undefined);
  const r = rng(7);
  const contrib = Float64Array.from({ length: g.n }, () => r());
  const want = new Float64Array(g.n);
  for (let v = 0; v < g.n; v++) for (const [u] of g.in[v]!) want[v]! += contrib[u]!;
  const c = await emu();
  try {
    await c.registerPageSet(0, pages as never);
    t.is((await c.info()).registeredPages, pages.length);
    await c.allocState('contrib', 'f64', g.n);
    await c.allocState('next', 'f64', g.n);
    await c.writeState('contrib', contrib);
    await c.run('pr_pull', { setId: 0, pages: all(pages) });
    close(t, await c.readState('next', new Float64Array(g.n)), want, 'pr_pull over the pages registered together');
    // Set 1: the same pages, one of them with decreasing offsets.
    const bad = pages.map((p) => ({ ...p, buffer: structuredClone(p.buffer) }));
    const victim = bad[Math.floor(bad.length / 2)]!;
    const off = new Uint32Array(victim.buffer, 0, victim.vEnd - victim.vBegin + 1);
    t.true(off.length > 2);
    off[1] = victim.edges + 1;
    await t.throwsAsync(c.registerPageSet(1, bad as never), { code: 'TS_PAGE', message: new RegExp(`set 1, page ${victim.index}\\): offsets decrease`) });
    t.is((await c.info()).registeredPages, pages.length, 'none of the refused set registered');
    await t.throwsAsync(c.run('pr_pull', { setId: 1, pages: [0] }), { code: 'TS_BAD_PAGE' });
    await t.throwsAsync(c.registerPageSet(1, [{ ...pages[0]!, vEnd: pages[0]!.vBegin }] as never), { code: 'TS_PAGE', message: /vEnd .* must be greater than vBegin/ });
  } finally {
    await c.close();
  }
});
