/**
 * The GPU side of pr: handlers of the kernels with a precompiled native implementation
 * (native/src), which the GPU actor imports by URL (the definition's `gpu`).
 */
import { SET_IN, SET_ALLIN, OUTDEG, OWNED, type GpuHandler, type GpuStep } from '../../../actors/gpu/handler.js';
import type { GpuActor } from '../../../actors/gpu/gpu-actor.js';
import type { StateSync } from '../../wire/frames.js';
import { exchanged, keep, refresh, slotsFor } from '../../../actors/gpu/residency.js';

/** Per-run scratch key (GpuActor.scratch): this step's device arrays, for steal. */
const STEP = 'pr:step';

/**
 * Device arrays for contrib (read) and nextContrib (written) this step. The driver swaps the two
 * every iteration, so this step's contrib is the host array the device filled (as nextContrib)
 * for its own ranges last step: residency.ts finds that device array and uploads only the ranges
 * other actors computed (Graphie: reuse what is resident); anything else goes up whole.
 * nextContrib is only written: nothing of it goes up. The first iteration (args.r0) reads no
 * contrib (cDev undefined): the kernel divides r0 by the out-degrees.
 */
async function contribOnDevice(a: GpuActor, s: GpuStep): Promise<{ cDev: string | undefined; nDev: string }> {
  const first = s.f.args.r0 !== undefined;
  if ((s.state.contrib === undefined) !== first || s.state.nextContrib === undefined) throw new Error(`kernel '${s.f.kernel}' needs nextContrib, and contrib unless args.r0 is given`);
  const slots = slotsFor(a, s, first ? [['nextContrib', 'f64']] : [['contrib', 'f64'], ['nextContrib', 'f64']]);
  const cDev = slots.get('contrib');
  const nDev = slots.get('nextContrib')!;
  if (cDev !== undefined) await refresh(a, s, 'contrib', 'f64', cDev);
  await a.ensure(nDev, 'f64');
  return { cDev, nDev };
}

/** pr_pull's params and state over the applied vertices: the first iteration's r0 or contrib. */
function pull(s: GpuStep, cDev: string | undefined, nDev: string, apply: Record<string, number>, extra: Record<string, string> = {}) {
  const r0 = s.f.args.r0;
  return {
    params: { base: s.f.args.base!, d: s.f.args.damping!, ...(r0 !== undefined ? { r0 } : {}), ...apply },
    state: { ...(cDev !== undefined ? { contrib: cDev } : {}), next: 'rank', outDeg: OUTDEG, nextContrib: nDev, ...extra },
  };
}

export const pr: GpuHandler = {
  modes: ['pull'],
  async run(a, s) {
    // The program swaps contrib and nextContrib every iteration, so this step's contrib is the
    // host array the device filled (as nextContrib) for its own ranges last step: keep the
    // device copy and upload only the ranges the other actors computed (Graphie: reuse what
    // is resident). Anything else (first step, another run) is uploaded whole.
    const { cDev, nDev } = await contribOnDevice(a, s);
    await a.ensure('rank', 'f64');
    await a.ensureOutDegree();
    // Gather and the CPU kernel's vertex apply (next contribution, dangling mass) on the device,
    // applied to the owned vertices of the pages only: [applyBegin, applyEnd) for one range,
    // the owned byte map for several.
    const one = a.single;
    // Several GPUs: each copies its new contributions into the others' nextContrib as soon as its
    // kernels end, while theirs may still run (instead of at the next superstep's meeting).
    const exchange = a.group?.exchangeFor(a, nDev, SET_IN);
    const st = await a.run('pr_pull', { setId: SET_IN, pages: a.rangePages(SET_IN), ...pull(s, cDev, nDev, one ? { applyBegin: a.begin, applyEnd: a.end } : {}, one ? {} : { owned: OWNED }), ...(exchange !== undefined ? { exchange } : {}) });
    a.scratch.set(STEP, { cDev, nDev });
    // Alone, the device's nextContrib is the truth even where it is not read back (below).
    keep(a, s, 'nextContrib', 'owner', 'f64', nDev);
    if (exchange !== undefined) exchanged(a, nDev);
    // Ranks go back after the last iteration only (nothing reads them before); contributions
    // only when a CPU actor owns vertices (it gathers them next step; alone, the device keeps
    // its own, and GPU peers copy theirs device to device). Without `last`, both every step.
    const sync: StateSync[] = [];
    if (s.f.args.last !== 0) sync.push(...(await a.syncOwned('rank', 'rank', s)));
    if (!a.gpusOwnAll || s.f.args.last === undefined) sync.push(...(await a.syncOwned(nDev, 'nextContrib', s)));
    return a.out({ sum: st?.sum ?? 0, sync });
  },
  // The device holds every contribution of this step (its own range computed, the rest
  // uploaded), so any vertex range can be gathered here; pages come from the whole in-set.
  async steal(a, s, lo, hi) {
    const { cDev, nDev } = a.scratch.get(STEP) as { cDev: string | undefined; nDev: string };
    const st = await a.run('pr_pull', { setId: SET_ALLIN, pages: await a.inPagesOver(lo, hi), ...pull(s, cDev, nDev, { applyBegin: lo, applyEnd: hi }) });
    const sync = [await a.syncRange(nDev, 'nextContrib', s, lo, hi)];
    if (s.f.args.last !== 0) sync.push(await a.syncRange('rank', 'rank', s, lo, hi));
    return { sum: st?.sum ?? 0, sync };
  },
};

/**
 * Every iteration of a fresh run in one superstep, on GPUs owning every vertex (index.ts, edgeMap
 * gpuOnly): the controller runs pr_pull iteration by iteration, its contributions in two device
 * arrays it writes in turn (native/src/controller_levels.cpp runPrIterations). Several GPUs write
 * their owned contributions into each other's arrays (from the apply itself where they have peer
 * access) and add their dangling masses at each iteration's end. The ranks come back once; the
 * contributions stay on the devices and mirror nothing after (with args.handBack the last ones
 * come back too).
 */
export const pr_iterations: GpuHandler = {
  modes: ['pull'],
  async run(a, s) {
    if (!a.gpusOwnAll) throw new Error('pr_iterations runs on GPUs owning every vertex (edgeMap gpuOnly)');
    const { iterations, damping, r0, dangling } = s.f.args as { iterations: number; damping: number; r0: number; dangling: number };
    await prArrays(a);
    await a.ensureOutDegree();
    const exchange = a.group?.loopExchange(a, 'nextContrib', true);
    if (a.group !== undefined && exchange === undefined) throw new Error('pr_iterations on several GPUs needs them all real or all emulated');
    const one = a.single;
    const st = await a.runLoop('pr_iterations', {
      setId: SET_IN,
      pages: a.rangePages(SET_IN),
      params: { iterations, damping, n: a.graph.numVertices, r0, dangling, ...(one ? { applyBegin: a.begin, applyEnd: a.end } : {}), ...(a.group !== undefined ? { wholeRanks: 1 } : {}) },
      state: { contrib: 'contrib', nextContrib: 'nextContrib', rank: 'rank', outDeg: OUTDEG, ...(one ? {} : { owned: OWNED }) },
      ...(exchange !== undefined ? { exchange } : {}),
    });
    // Ranks once: one GPU its own; several, every rank on each (wholeRanks), an even share each
    // (P leaves one GPU nearly every vertex of an RMAT graph, S each many small ranges). Its own
    // mass of the last iteration (the engine sums them).
    const sync = a.group === undefined ? await a.syncOwned('rank', 'rank', s) : await Promise.all(a.group.evenShare(a, a.graph.numVertices).map(([b, e]) => a.syncRange('rank', 'rank', s, b, e)));
    // handBack: the last iteration's contributions (device array nextContrib after an odd count of
    // iterations, contrib after an even one) into the host's contrib, where the supersteps go on.
    if (s.f.args.handBack === 1) sync.push(...(await a.syncOwned(iterations % 2 === 1 ? 'nextContrib' : 'contrib', 'contrib', s)));
    return a.out({ sum: st.sum ?? 0, sync });
  },
  // Preloaded: the contributions and ranks (pr's supersteps use the same device arrays).
  prepare: (a) => prArrays(a),
};

/** pr's device arrays: the two of contributions and the ranks. */
async function prArrays(a: GpuActor): Promise<void> {
  for (const name of ['contrib', 'nextContrib', 'rank']) await a.ensure(name, 'f64');
}
