/**
 * The GPU side of louvain: louvainMove, one synchronous sub-round of level 0's local moving
 * (index.ts), for the owned vertices of the sub-round's frontier, with the native `louvain_move`
 * kernel (native/src/kernels_louvain.h: each vertex's neighbour communities sorted with their
 * positions, runs summed in list order, so every gain is the CPU kernel's to the last bit and the
 * labels are the same on any topology). The view (off, adj, wt) and k go up once per run (the
 * driver builds them before its first move and never changes them); comm, tot and size, which
 * every sub-round's moves change, go up whole each call. The handler applies what the device
 * returns to the shared arrays as the CPU kernel writes them: act and dirty of its own vertices
 * (cleared here, as the kernel's first lines do), next and kin per listed vertex, and mark for the
 * movers and their neighbours anywhere (every writer writes 1: OR-ed in from a compacted list, or
 * copied whole when the GPU owns every vertex). louvainFill and louvainIntra are
 * CPU-only passes (the view's merge, the final modularity).
 */
import type { GpuHandler } from '../../../actors/gpu/handler.js';
import type { GpuActor } from '../../../actors/gpu/gpu-actor.js';
import type { StateKind } from '../../wire/frames.js';
import type { StateArray } from '../../engine/kernel.js';
import { classOf } from './kernels.js';

/** Per-run scratch key (GpuActor.scratch): the view is on the device. */
const VIEW = 'louvain.view';
/** Vertices above this degree get a block of threads each (kernels_louvain.h), listed after the others. */
const HEAVY = 1024;

/** Per-run scratch key: the sub-round's list and flags (per actor: actors of one process interleave). */
const LIST = 'louvain.list';

/** data into the device array `name` of `length` entries (default: data's; kept across calls while it fits). */
async function put(a: GpuActor, name: string, kind: StateKind, data: StateArray, length = data.length): Promise<void> {
  await a.ensure(name, kind, Math.max(1, length));
  await a.pin(data);
  await a.controller.writeState(name, data);
  a.stats.stateBytesIn += data.byteLength;
}

export const louvainMove: GpuHandler = {
  modes: ['pull'],
  async run(a, s) {
    const st = s.state;
    const off = st.off as Float64Array;
    const wt = st.wt as Float64Array | undefined;
    const k = st.k as Float64Array;
    const comm = st.comm as Uint32Array;
    const [next, kin, act, dirty, mark] = [st.next as Uint32Array, st.kin as Float64Array, st.act as Uint8Array, st.dirty as Uint8Array, st.mark as Uint8Array];
    const { resolution, m2, classes, round, measure } = s.f.args as Record<string, number>;
    const frontier = s.frontier;
    if (frontier === undefined) throw new Error('louvainMove on a GPU needs the frontier bitmap (readsFrontier)');
    // The sub-round's work, as the CPU kernel's evaluate decides it (light vertices first).
    let owned = 0;
    for (const [b, e] of a.owned) owned += e - b;
    let bufs = a.scratch.get(LIST) as { list: Uint32Array; flags: Uint8Array } | undefined;
    if (bufs === undefined || bufs.list.length < owned) a.scratch.set(LIST, (bufs = { list: new Uint32Array(owned), flags: new Uint8Array(owned) }));
    const { list, flags } = bufs;
    let L = 0;
    let H = owned;
    for (const [b, e] of a.owned)
      for (let v = b; v < e; v++) {
        if (frontier[v] !== 1) continue;
        const mine = act[v] === 1 && classOf(v, classes!) === round;
        const stale = measure !== 0 && dirty[v] === 1;
        if (!mine && !stale) continue;
        if (mine) act[v] = 0;
        if (stale) dirty[v] = 0;
        const i = off[v + 1]! - off[v]! > HEAVY ? --H : L++;
        list[i] = v;
        flags[i] = (mine ? 1 : 0) | (stale ? 2 : 0);
      }
    // Heavy ones moved down next to the light (their order within does not matter).
    const heavy = owned - H;
    list.copyWithin(L, H, owned);
    flags.copyWithin(L, H, owned);
    const count = L + heavy;
    if (count === 0) return a.out({});
    if (a.scratch.get(VIEW) === undefined) {
      await put(a, 'lv.off', 'f64', off);
      await put(a, 'lv.adj', 'u32', st.adj as Uint32Array);
      if (wt !== undefined) await put(a, 'lv.wt', 'f64', wt);
      await put(a, 'lv.k', 'f64', k);
      a.scratch.set(VIEW, true);
    }
    for (const name of ['comm', 'tot', 'size']) await a.upload(name, s);
    // Arrays of the owned count, allocated once a run.
    await put(a, 'lv.list', 'u32', list.subarray(0, count), owned);
    await put(a, 'lv.flags', 'u8', flags.subarray(0, count), owned);
    await a.ensure('lv.next', 'u32', owned);
    await a.ensure('lv.kin', 'f64', owned);
    await a.ensure('lv.mark', 'u8');
    const r = await a.runPageless('louvain_move', {
      params: { count, heavyFrom: L, resolution: resolution!, m2: m2! },
      state: { off: 'lv.off', adj: 'lv.adj', ...(wt !== undefined ? { wt: 'lv.wt' } : {}), k: 'lv.k', comm: 'comm', tot: 'tot', size: 'size', list: 'lv.list', flags: 'lv.flags', outNext: 'lv.next', outKin: 'lv.kin', mark: 'lv.mark' },
    });
    const to = (await a.read('lv.next', 'u32', 0, count)) as Uint32Array;
    for (let i = 0; i < count; i++) if (to[i] !== comm[list[i]!]) next[list[i]!] = to[i]!;
    if (measure !== 0) {
      const within = (await a.read('lv.kin', 'f64', 0, count)) as Float64Array;
      for (let i = 0; i < count; i++) if ((flags[i]! & 2) !== 0) kin[list[i]!] = within[i]!;
    }
    const n = a.graph.numVertices;
    // Owning every vertex, this actor made every mark of the step, and the host's are clear (the
    // driver folds and clears them after each sub-round): the device's array is copied over them in
    // one DMA instead of listed and set one by one.
    if (a.ownsAll) return { ...a.out({ sync: [await a.syncRange('lv.mark', 'mark', s, 0, n)] }), edges: r.sum ?? 0 };
    const { ids } = await a.controller.compact('lv.mark', 'lv.mark', 0, n);
    a.stats.stateBytesOut += ids.byteLength * 3;
    for (let i = 0; i < ids.length; i++) mark[ids[i]!] = 1;
    // The edges examined: the listed vertices' view entries (the CPU kernel counts the same).
    return { ...a.out({}), edges: r.sum ?? 0 };
  },
};
