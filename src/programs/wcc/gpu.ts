/**
 * The GPU side of wcc: handlers of the kernels with a precompiled native implementation
 * (native/src), which the GPU actor imports by URL (the definition's `gpu`).
 */
import { SET_OUT, SET_IN, FR, NX, type GpuHandler } from '../../../actors/gpu/handler.js';
import { joinOutboxes } from '../../../actors/gpu/outbox.js';
import type { RunStats } from '../../../actors/gpu/native.js';
import { keep, refresh } from '../../../actors/gpu/residency.js';
import { clearNext, frontierOwned, pushPagesOf } from '../../../actors/gpu/frontier.js';
import { holdNext, holds } from '../../../actors/gpu/held.js';
import { sharedIds } from './ids.js';
import type { GpuActor } from '../../../actors/gpu/gpu-actor.js';

export const wcc: GpuHandler = {
  modes: ['push', 'pull'],
  async run(a, s) {
    // label is resident (index.ts): up once per run where nothing else writes it (residency.ts).
    await refresh(a, s, 'label');
    await clearNext(a, s);
    const sets = a.directed ? [SET_OUT, SET_IN] : [SET_OUT];
    const stats: RunStats[] = [];
    if (s.f.mode === 'push') {
      // Min labels go over out- and in-edges: one call per orientation, each with an outbox.
      await frontierOwned(a, s);
      for (const set of sets) {
        const st = await a.run('wcc_push', { setId: set, pages: await pushPagesOf(a, set, s), params: a.ownedParams(), state: { label: 'label', frontier: FR, next: NX, ...a.ownedState() } });
        if (st) stats.push(st);
      }
    } else {
      // Native pull takes the min over every neighbour (the CPU kernel over active ones):
      // more work per superstep, the same fixed point.
      for (const set of sets.reverse()) {
        const st = await a.run('wcc_pull', { setId: set, pages: a.rangePages(set), state: { label: 'label', next: NX } });
        if (st) stats.push(st);
      }
    }
    const outbox = joinOutboxes(stats, 'label', 'min');
    const activated = stats.reduce((x, st) => x + st.activated, 0);
    // The coordinator's min fold of the changes reproduces the device's labels. A pull writes only
    // the owned vertices (one writer each), as an 'owner' array: its owned ranges stay valid beside
    // other actors, and GPU peers copy theirs in (residency.ts).
    // Held (index.ts: resident 'device', deviceNext): labels and flags stay on the device, lower
    // labels of other GPUs' vertices go to them (holdNext).
    const hold = holds(a, s, 'label', true);
    keep(a, s, 'label', s.f.mode === 'push' ? 'min' : 'owner');
    const held = hold ? await holdNext(a, s, activated, outbox) : undefined;
    if (held !== undefined) return a.out({ active: held });
    return a.out({ ...(await a.changedOwned('label', 'min', s, activated)), outbox });
  },
};

/** The graph's original ids on the device: a graph constant, up once per actor ('@': kept across programs). */
const ORIG = '@orig';

/**
 * Afforest on GPUs owning every vertex (index.ts, edgeMap gpuOnly): the three wcc_afforest calls
 * of native/src/controller_aff.cpp. The forest is device scratch; the labels stay on the device
 * (held) until the run ends, or go back at once where the engine does not hold them. Several GPUs
 * each run phases 0 and 1 over their own pages and merge their forests after each (aff_merge:
 * every member then holds the same forest, so the same sample and labels).
 */
export const afforest: GpuHandler = {
  modes: ['pull'],
  async run(a, s) {
    if (!a.gpusOwnAll) throw new Error("wcc's afforest runs on GPUs owning every vertex (edgeMap gpuOnly)");
    const orig = s.state.orig as Uint32Array | undefined;
    if (orig === undefined) throw new Error("wcc's afforest needs the original ids as state 'orig'");
    await afforestArrays(a, orig);
    const exchange = a.group?.loopExchange(a, 'comp');
    if (a.group !== undefined && exchange === undefined) throw new Error("wcc's afforest on several GPUs needs them all real or all emulated");
    const merge = async (step: number) => {
      if (exchange !== undefined) await a.runPageless('aff_merge', { params: { step }, state: comp, exchange });
    };
    const rounds = s.f.args.rounds!;
    const comp = { comp: 'comp' };
    const out = a.rangePages(SET_OUT);
    // Phase 0 also resets the forest; phase 1 samples the biggest component: both run without pages too.
    const phase = (params: Record<string, number>) =>
      out.length === 0 ? a.runPageless('wcc_afforest', { params, state: comp }) : a.run('wcc_afforest', { setId: SET_OUT, pages: out, params, state: comp });
    await phase({ phase: 0, rounds });
    await merge(0);
    const st = await phase({ phase: 1, from: rounds });
    // Directed: an edge into a vertex outside the biggest component is linked from that end.
    if (a.directed) await a.run('wcc_afforest', { setId: SET_IN, pages: a.rangePages(SET_IN), params: { phase: 1, from: 0, skip: st!.sum! }, state: comp });
    await merge(2);
    await a.runPageless('wcc_afforest', { params: { phase: 2 }, state: { ...comp, label: 'label', orig: ORIG } });
    // Several GPUs: every member's labels are exact everywhere ('whole'); each sends its own ranges.
    const hold = holds(a, s, 'label', false, true);
    keep(a, s, 'label', 'owner');
    if (hold) return a.out({ active: 0 });
    return a.out({ active: 0, sync: await a.syncOwned('label', 'label', s) });
  },
  // Preloaded: the labels (either path), and on GPUs owning every vertex Afforest's forest and
  // the original ids (an upload of 4 bytes a vertex the first run would otherwise make).
  prepare: (a, graph) => (a.gpusOwnAll ? afforestArrays(a, sharedIds(graph)) : a.ensure('label', 'u32')),
};

/** Afforest's device arrays: the forest, the labels and the graph's original ids (a constant, up once). */
async function afforestArrays(a: GpuActor, orig: Uint32Array): Promise<void> {
  await a.ensure('comp', 'u32');
  await a.ensure('label', 'u32');
  await a.ensureDegrees(ORIG, orig);
}
