/**
 * WCC — Graphalytics semantics: weakly connected components, edge direction ignored; two
 * vertices share a label exactly when a path joins them; a vertex without edges is its own
 * component. Label = the smallest ORIGINAL id in the component (the convention of the
 * Graphalytics expected files; validation only compares the partition). Weights are ignored.
 *
 * On CPU-only topologies: Afforest (afforest.ts; GAPBS cc.cc), union-find with sampling, then
 * each tree's smallest original id. On GPUs owning every vertex, the same Afforest on the devices
 * in one superstep (gpu.ts `afforest`: a vertex map between phases would bring the forest back to
 * the host; several GPUs merge their forests after each phase). With CPU and GPU actors sharing
 * the work (or a forced mode), min-label propagation as follows (its GPU kernels are native).
 *
 * Min-label propagation (labels start as original ids, graph.ids.toOriginal): a superstep takes,
 * for every vertex, the minimum label over its active neighbours through in- AND out-edges
 * (one page set when undirected). Push: each frontier vertex lowers its out- and in-neighbours'
 * labels with an Atomics.compareExchange min loop (Uint32); activation via a CAS on `next`.
 * Pull: each vertex (one writer) scans its in-edges in the task's pages and its out-edges through
 * graph.out. Halts when no label changes (kernels.ts). Serial reference: reference.ts.
 */
import { copyArray, fillIndex } from '../../engine/fill.js';
import { defineProgram } from '../../engine/define.js';
import type { Frontier, RunContext } from '../../engine/program.js';
import type { Graph } from '../../graph/types.js';
import { peers } from './peers.js';
import { referenceWcc } from './reference.js';
import { mostFrequent, TEAM_CTL } from './afforest.js';
import { nativeCpuKernels } from '../../../actors/gpu/native-host.js';
import { sharedIds } from './ids.js';

export const wcc = defineProgram({
  name: 'wcc',
  summary: 'weakly connected components; label = the smallest original id in the component',
  graphalytics: 'wcc',
  params: {},
  state: {
    // Pushes from other memories lower a label: the smallest wins. The driver fills original ids
    // before the first superstep only, and reads them once the run is over: a GPU owning every
    // vertex keeps its copy and need not send it back (gpu.ts).
    // Every entry written before it is read (the driver's copy of the ids, or the device's Afforest).
    label: { type: 'u32', init: 'unset', reduce: 'min', resident: 'device' },
    // Afforest's union-find parents on the CPU sockets, every vertex its own tree at first (the
    // CPU driver's fillIndex: a GPU's are on the device, and a fill there cost a 64 MiB pass).
    comp: { type: 'i32', init: 'unset', reduce: 'none' },
  },
  output: 'label',
  kernels: new URL('./kernels.js', import.meta.url),
  gpu: new URL('./gpu.js', import.meta.url),
  peers,
  // label u32 + frontier u8 + next u8.
  profile: { mode: 'pull', stateBytesPerVertex: 6, passes: 1, unit: 'run', vertexTerm: false },
  reference: (g) => referenceWcc(g),
  demoParams: () => ({}),
  resumable: true,
  readsWeights: false,
  async run(ctx) {
    // Afforest on CPU sockets; label propagation where GPUs share the work or a mode is forced. A
    // resumed run goes on with the algorithm its checkpoint was written by (the carry says which),
    // except that an Afforest checkpoint resumed with GPUs propagates labels from the start (its
    // labels are still the original ids: Afforest writes them after its last checkpoint).
    const c = ctx.resume<{ frontier?: Frontier; phase?: number }>();
    const cpu = ctx.gpuActors === 0 && ctx.forcedMode === undefined;
    if (cpu && (c === undefined || c.phase !== undefined)) return afforest(ctx, c?.phase);
    if (c === undefined && ctx.gpusOwnAll && ctx.forcedMode === undefined) {
      ctx.note('algorithm', 'afforest');
      ctx.release((await ctx.edgeMap('afforest', ctx.all(), { label: ctx.state.label, orig: sharedIds(ctx.graph) }, { rounds: ROUNDS }, { modes: ['pull'], pullPages: 'out', gpuOnly: true })).next);
      return ctx.state.label;
    }
    ctx.note('algorithm', 'label propagation');
    const { label } = ctx.state;
    if (c === undefined) copyArray(label, ctx.graph.ids.toOriginal);
    let frontier = c?.frontier ?? ctx.all();
    while (frontier.size > 0) {
      await ctx.checkpoint({ frontier });
      ({ next: frontier } = await ctx.edgeMap('wcc', frontier, { label }, {}, { readsFrontier: true, deviceNext: true }));
    }
    return label;
  },
});

/**
 * Afforest on the CPU sockets (afforest.ts). On one socket alone, where the addon has it, the
 * whole of it is one team (wcc_team). Else the sampling (both rounds in one pass) and the final
 * linking are supersteps (pull over out-pages); the trees are compressed once, after the final
 * linking, lowering each root's label to its tree's smallest original id, which is then spread
 * over the tree. A checkpoint before each superstep carries the phase.
 */
async function afforest(ctx: RunContext & { readonly state: { label: Uint32Array; comp: Int32Array } }, resumeAt: number | undefined): Promise<Uint32Array> {
  ctx.note('algorithm', 'afforest');
  const { label, comp } = ctx.state;
  const g = ctx.graph;
  if (resumeAt === undefined && ctx.teamwork && nativeCpuKernels()?.wccTeam !== undefined) {
    // One socket alone: the whole of it as one team on the addon (afforest.ts wcc_team).
    const ctl = ctx.alloc('f64', 0, TEAM_CTL);
    await ctx.team('wcc_team', { comp, label, ctl, orig: sharedIds(g) }, { rounds: ROUNDS });
    return label;
  }
  const all = ctx.all();
  if (resumeAt === undefined) {
    copyArray(label, ctx.graph.ids.toOriginal);
    // Every vertex its own tree, on the addon's threads (a vertex map's round trip cost more).
    fillIndex(comp);
  }
  const opts = { modes: ['pull'], pullPages: 'out' } as const;
  for (let phase = resumeAt ?? 0; phase <= 1; phase++) {
    await ctx.checkpoint({ phase });
    // Neither reads its next flags: the bitmap goes back for the next superstep.
    if (phase === 0) ctx.release((await ctx.edgeMap('affSample', all, { comp }, { rounds: ROUNDS }, opts)).next);
    else ctx.release((await ctx.edgeMap('affFinal', all, { comp }, { skip: mostFrequent(comp), from: ROUNDS }, opts)).next);
  }
  // The compression also lowers each root's label (one pass over the trees, not two).
  await ctx.vertexMap('affCompressMin', { comp, label });
  await ctx.vertexMap('affSpread', { comp, label });
  return label;
}

/** Afforest's sampling rounds: each vertex's first ROUNDS out-edges (GAPBS neighbor_rounds). */
const ROUNDS = 2;
