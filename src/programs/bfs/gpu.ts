/** bfs on GPUs: handlers over the precompiled native kernels (native/src), imported by URL. */
import { SET_OUT, SET_IN, FR, NX, OUTDEG, ACTIVATE, type GpuHandler } from '../../../actors/gpu/handler.js';
import { outbox } from '../../../actors/gpu/outbox.js';
import { keep, refresh, stale } from '../../../actors/gpu/residency.js';
import { clearNext, frontierAll, frontierOwned, pushPagesOf } from '../../../actors/gpu/frontier.js';
import { holdNext, holds } from '../../../actors/gpu/held.js';
import type { GpuActor } from '../../../actors/gpu/gpu-actor.js';

export const bfs: GpuHandler = {
  modes: ['push', 'pull'],
  async run(a, s) {
    const level = s.f.args.level!, push = s.f.mode === 'push';
    // depth is resident (index.ts): RMAT 24's 67 MB go up only when another writer changed it. A
    // fresh run's first level (args.seed) needs none of it: -1 but at the source, set here.
    const up = stale(a, s, 'depth', 'i32');
    if (up === 'all' && s.f.args.seed !== undefined) await seedDepth(a, s.f.args.seed);
    else await refresh(a, s, 'depth', 'i32', 'depth', up);
    await clearNext(a, s);
    await (push ? frontierOwned(a, s) : frontierAll(a, s));
    const st = push
      ? await a.run('bfs_push', { setId: SET_OUT, pages: await pushPagesOf(a, SET_OUT, s), params: { level, ...a.ownedParams() }, state: { depth: 'depth', frontier: FR, next: NX, ...a.ownedState() } })
      : await a.run('bfs_pull', { setId: SET_IN, pages: await a.pullPages(SET_IN, s), params: { level }, state: { depth: 'depth', frontier: FR, next: NX } });
    // Held (index.ts: resident 'device', deviceNext): depth and the flags stay on the device,
    // claims of other GPUs' vertices go to them (holdNext).
    const hold = holds(a, s, 'depth', true);
    // A pull level writes only the owned vertices (one writer each), as an 'owner' array: its
    // owned ranges stay valid beside other actors, and GPU peers copy theirs in (residency.ts).
    keep(a, s, 'depth', push ? 'claim' : 'owner');
    // The kernel's activations are the flags set since clearNext (NextSet counts fresh marks).
    const activated = st?.activated ?? 0;
    const held = hold ? await holdNext(a, s, activated, push ? outbox(st, 'depth', 'claim', ACTIVATE) : undefined) : undefined;
    if (held !== undefined) return a.out({ active: held });
    // Pull: the actor is its ranges' one writer: depth and next flags go back dense, in place
    // (a compacted merge of RMAT 24's 10 M claims a level cost ~250 ms on the coordinator).
    if (!push) return a.out({ sync: hold ? [] : await a.syncOwned('depth', 'depth', s), active: await a.syncNext(s, activated) });
    // Every claim of a level writes level + 1: the device's next flags say it all.
    return a.out({ ...(await a.changedOwned('depth', 'claim', s, activated, level + 1)), outbox: outbox(st, 'depth', 'claim', ACTIVATE) });
  },
  stealPush: {
    async run(a, s, tasks) {
      const st = await a.pushStolen('bfs_push', s, tasks, { level: s.f.args.level! }, { depth: 'depth' });
      return outbox(st, 'depth', 'claim', ACTIVATE);
    },
    owned: (a, s) => a.changedOwned('depth', 'claim', s, undefined, s.f.args.level! + 1),
  },
};

/**
 * Every level of a fresh run in one superstep, on the GPU owning every vertex (index.ts, edgeMap
 * gpuOnly): the controller runs bfs_push / bfs_pull level by level, switching direction as the
 * engine would (args.pullAbove), with no frame, vote or JS call between levels (kernel 'levels',
 * native/src/controller_levels.cpp). depth stays on the device until the run ends; the vote's sum
 * is the number of levels.
 */
export const bfs_levels: GpuHandler = {
  modes: ['push'],
  async run(a, s) {
    if (!a.gpusOwnAll) throw new Error('bfs_levels runs on GPUs owning every vertex (edgeMap gpuOnly)');
    const { source, pullAbove } = s.f.args as { source: number; pullAbove: number };
    await levelArrays(a);
    await a.ensureOutDegree();
    // With `source` the controller seeds depth and the frontier itself: nothing is uploaded.
    // Several GPUs: each walks its own pages over a whole copy of the state, ORing the others'
    // next flags in at each level's end (native controller_levels.cpp).
    const exchange = a.group?.loopExchange(a, NX);
    if (a.group !== undefined && exchange === undefined) throw new Error('bfs_levels on several GPUs needs them all real or all emulated');
    const st = await a.runLoop('levels', {
      setId: SET_OUT,
      pages: Uint32Array.from(a.rangePages(SET_OUT)),
      params: { source, level: 0, size: 1, edges: a.graph.outDegree[source]!, pullAbove },
      state: { depth: 'depth', frontier: FR, next: NX, outDeg: OUTDEG },
      levels: { push: 'bfs_push', pull: 'bfs_pull', inSet: a.directed ? SET_IN : SET_OUT, inPages: Uint32Array.from(a.rangePages(SET_IN)) },
      ...(exchange !== undefined ? { exchange } : {}),
    });
    // The device's flags are no frontier the engine knows of.
    a.nextStep = -1;
    const hold = holds(a, s, 'depth', false, true);
    keep(a, s, 'depth', 'owner');
    // The levels once: every member ran them all.
    const levels = a.group === undefined || a.group.lead(a) ? (st.levels ?? 0) : 0;
    return a.out({ sum: levels, ...(hold ? {} : { sync: await a.syncOwned('depth', 'depth', s) }) });
  },
  // Preloaded: depth and the flags (every path uses them).
  prepare: (a) => levelArrays(a),
};

/** bfs's device arrays: depth and the frontier and next flags. */
async function levelArrays(a: GpuActor): Promise<void> {
  for (const [name, kind] of [['depth', 'i32'], [FR, 'u8'], [NX, 'u8']] as const) await a.ensure(name, kind);
}

/** The device depth of a fresh run: -1 everywhere but 0 at `source` (what the driver's host array holds). */
async function seedDepth(a: GpuActor, source: number): Promise<void> {
  await a.ensure('depth', 'i32');
  await a.controller.fillState('depth', -1);
  await a.controller.scatterState('depth', Uint32Array.of(source), Int32Array.of(0));
  a.stats.stateBytesIn += 8;
}
