/**
 * The GPU side of bc: handlers of the kernels with a precompiled native implementation
 * (native/src), which the GPU actor imports by URL (the definition's `gpu`).
 */
import { SET_OUT, SET_IN, FR, NX, OUTDEG, ACTIVATE, type GpuHandler, type GpuStep, type StepOut } from '../../../actors/gpu/handler.js';
import type { GpuActor } from '../../../actors/gpu/gpu-actor.js';
import { rangeVertices } from '../../engine/partition.js';
import type { StateMerge } from '../../wire/frames.js';
import { clearNext, frontierAll, frontierOwned } from '../../../actors/gpu/frontier.js';
import { keep, refresh } from '../../../actors/gpu/residency.js';
import { holds } from '../../../actors/gpu/held.js';

export const bcFwd: GpuHandler = {
  // bc_forward has no outbox (depth and sigma change together): it writes the device replica
  // anywhere and the actor sends the difference against what it uploaded. bc_forward_pull writes
  // only the owned vertices (one writer each).
  modes: ['push', 'pull'],
  async run(a, s) {
    if (s.f.mode === 'pull') return pull(a, s);
    // One GPU owning every vertex: a level's claims are the device's next flags, and sigma changed
    // only at those vertices (from 0: unreached until this level): settle. Otherwise the whole
    // arrays, diffed against what was uploaded.
    const sole = a.gpusOwnAll && a.group === undefined;
    const dist0 = await a.upload('dist', s, !sole) as Int32Array;
    const sigma0 = await a.upload('sigma', s, !sole) as Float64Array;
    await clearNext(a, s);
    await frontierOwned(a, s);
    const st = await a.run('bc_forward', {
      setId: SET_OUT,
      pages: a.pushPages(SET_OUT, s),
      params: { level: s.f.args.level! },
      state: { depth: 'dist', sigma: 'sigma', frontier: FR, next: NX },
    });
    if (st !== undefined && sole) return settle(a, s, st.activated ?? 0);
    const merges: StateMerge[] = [];
    if (st !== undefined) {
      const dist = await a.readAll('dist', 'i32') as Int32Array;
      const sigma = await a.readAll('sigma', 'f64') as Float64Array;
      const claimed: number[] = [];
      const added: number[] = [];
      for (let v = 0; v < dist.length; v++) {
        if (dist0[v] === -1 && dist[v] !== -1) claimed.push(v);
        if (sigma[v] !== sigma0[v]) added.push(v);
      }
      const level = s.f.args.level! + 1;
      merges.push({ state: 'dist', op: 'claim', activate: ACTIVATE, ids: Uint32Array.from(claimed), values: new Float64Array(claimed.length).fill(level) });
      merges.push({ state: 'sigma', op: 'sum', activate: false, ids: Uint32Array.from(added), values: Float64Array.from(added, (v) => sigma[v]! - sigma0[v]!) });
    }
    return a.out({ merges });
  },
};

/**
 * A forward level pulled (the engine's choice for a large frontier): the owned vertices at depth
 * -1 sum sigma over their in-neighbours in the frontier; this GPU is their one writer (settle).
 */
async function pull(a: GpuActor, s: GpuStep): Promise<StepOut> {
  await a.upload('dist', s);
  await a.upload('sigma', s);
  await clearNext(a, s);
  await frontierAll(a, s);
  const st = await a.run('bc_forward_pull', {
    setId: SET_IN,
    pages: await a.pullPages(SET_IN, s),
    params: { level: s.f.args.level! },
    state: { depth: 'dist', sigma: 'sigma', frontier: FR, next: NX },
  });
  return settle(a, s, st?.activated ?? 0);
}

/**
 * A forward level's results where this GPU is its vertices' one writer (a pull, or one GPU owning
 * every vertex): a few claims and their path counts (from 0) compacted on the device, as merges;
 * many (a large level: ~10 M on RMAT 24, whose merges took the coordinator ~0.5 s to fold) copied
 * back in place over the owned ranges with the next flags.
 */
async function settle(a: GpuActor, s: GpuStep, activated: number): Promise<StepOut> {
  if (activated === 0) return a.out({});
  if (activated * 256 < rangeVertices(a.owned)) return a.out({ merges: [await a.ownedChanges('dist', 'claim', s), { ...(await a.ownedChanges('sigma', 'sum', s)), activate: false }] });
  return a.out({ sync: [...(await a.syncOwned('dist', 'dist', s)), ...(await a.syncOwned('sigma', 'sigma', s))], active: await a.syncNext(s, activated) });
}

export const bcBack: GpuHandler = {
  modes: ['pull'],
  async run(a, s) {
    for (const name of ['dist', 'sigma', 'delta', 'bc']) await a.upload(name, s);
    const st = await a.run('bc_backward', {
      setId: SET_OUT,
      pages: a.rangePages(SET_OUT),
      params: { level: s.f.args.level! },
      state: { depth: 'dist', sigma: 'sigma', delta: 'delta', bc: 'bc' },
    });
    return a.out({ sync: [...(await a.syncOwned('delta', 'delta', s)), ...(await a.syncOwned('bc', 'bc', s))] });
  },
};

/**
 * One source on the GPU owning every vertex alone (index.ts, edgeMap gpuOnly): the forward levels
 * in one controller call (kernel 'levels' with bc_forward / bc_forward_pull, switching direction
 * as the engine would: args.pullAbove; native/src/controller_levels.cpp), then bc_backward a level
 * at a time from the deepest. Depths, path counts and dependencies stay on the device (what the
 * supersteps above upload and read back whole each level); bc stays there across the sources.
 */
export const bcSource: GpuHandler = {
  modes: ['pull'],
  async run(a, s) {
    if (!a.gpusOwnAll || a.group !== undefined) throw new Error("bc's bcSource runs on one GPU owning every vertex (edgeMap gpuOnly)");
    const { source, pullAbove } = s.f.args as { source: number; pullAbove: number };
    await sourceArrays(a);
    await a.ensureOutDegree();
    // bc is resident 'device' (index.ts): up once a run (the first source's, or a resumed run's
    // sums), then held across the sources and read back when the run ends.
    await refresh(a, s, 'bc');
    // levels seeds the depths (-1, 0 at the source) and the flags; the counts are seeded here.
    await a.controller.fillState('sigma', 0);
    await a.controller.scatterState('sigma', Uint32Array.of(source), Float64Array.of(1));
    await a.controller.fillState('delta', 0);
    const pages = Uint32Array.from(a.rangePages(SET_OUT));
    const st = await a.runLoop('levels', {
      setId: SET_OUT,
      pages,
      params: { source, level: 0, size: 1, edges: a.graph.outDegree[source]!, pullAbove },
      state: { depth: 'dist', sigma: 'sigma', frontier: FR, next: NX, outDeg: OUTDEG },
      levels: { push: 'bc_forward', pull: 'bc_forward_pull', inSet: a.directed ? SET_IN : SET_OUT, inPages: Uint32Array.from(a.rangePages(SET_IN)) },
    });
    // The device's flags and depths are no state the engine knows of.
    a.nextStep = -1;
    // st.levels counts the last level, which reached nothing: the deepest has no successors. A
    // level walks the out-pages holding one of its vertices (Graphie's active pages): a deep
    // level's few vertices would cost a launch per page of the graph.
    for (let level = (st.levels ?? 0) - 2; level >= 1; level--) {
      const at = Array.from(await a.controller.activePages(SET_OUT, pages, 'dist', level));
      await a.run('bc_backward', { setId: SET_OUT, pages: at, params: { level }, state: { depth: 'dist', sigma: 'sigma', delta: 'delta', bc: 'bc' } });
    }
    const hold = holds(a, s, 'bc');
    keep(a, s, 'bc', 'owner');
    if (hold) return a.out({});
    return a.out({ sync: await a.syncOwned('bc', 'bc', s) });
  },
  // Preloaded: the device arrays of a source.
  prepare: (a) => sourceArrays(a),
};

/** bcSource's device arrays: depths, path counts, dependencies, bc and the flags. */
async function sourceArrays(a: GpuActor): Promise<void> {
  for (const [name, kind] of [['dist', 'i32'], ['sigma', 'f64'], ['delta', 'f64'], ['bc', 'f64'], [FR, 'u8'], [NX, 'u8']] as const) await a.ensure(name, kind);
}
