/**
 * kcore — k-core decomposition (networkx `core_number(G.to_undirected())`): the coreness of every
 * vertex of the undirected view, where v's neighbours are N_in(v) ∪ N_out(v), each once (u->v and
 * v->u are one edge; on a directed graph a vertex's degree is its number of distinct in- and
 * out-neighbours together, not in-degree + out-degree). Coreness = the largest k such that the
 * vertex is in a subgraph whose every vertex has degree >= k there; a vertex without edges has 0
 * (self-loops are dropped when the graph is built). Weights are ignored.
 *
 * Parallel peeling (Ligra's KCore, Julienne's levels): at level c, every unpeeled vertex with at
 * most c unpeeled neighbours gets coreness c and is peeled; peeling lowers its neighbours'
 * degrees, and those dropping to c are peeled in the next round of the same level. A level starts
 * at the smallest degree left, so empty levels cost nothing. Kernels: kernels.ts (CPU, over the
 * undirected view's CSR, built once a run or kept per graph: src/engine/undirected-csr.ts), gpu.cu
 * (GPU operator); serial reference (Batagelj-Zaversnik): reference.ts.
 */
import { defineProgram } from '../../engine/define.js';
import type { Frontier } from '../../engine/program.js';
import { undirectedCsr } from '../../engine/undirected-csr.js';
import { ALIVE_SHIFT } from './kernels.js';
import { referenceKcore } from './reference.js';

/** A sockets-only round pulls when its frontier's out-edges exceed the unpeeled vertices' view entries / PULL_SHARE. */
const PULL_SHARE = 40;

export const kcore = defineProgram({
  name: 'kcore',
  aliases: ['core-number'],
  summary: 'coreness of every vertex of the undirected view (networkx core_number)',
  params: {},
  state: {
    // Decrements from any actor add up (reduce sum); a coreness is written once, over -1 (claim).
    // Resident: the driver changes them only through vertex maps, so GPUs keep their copies
    // across a level's peel rounds.
    deg: { type: 'i32', init: 0, reduce: 'sum', resident: true },
    core: { type: 'i32', init: -1, reduce: 'claim', resident: true },
    // The smallest degree left: one word every thread lowers.
    lowest: { type: 'i32', init: 0, reduce: 'min', length: () => 1 },
    // Per block of 2^ALIVE_SHIFT vertices, its unpeeled vertices at the last select that walked it
    // (kernels.ts kcoreSelect skips blocks at 0); the sockets' alone.
    alive: { type: 'i32', init: 1, reduce: 'none', length: (g) => (g.numVertices >>> ALIVE_SHIFT) + 1 },
  },
  output: 'int',
  kernels: new URL('./kernels.js', import.meta.url),
  // On GPUs a peel pulls (gpu.cu): each vertex lowers its own degree, so the actors' differences
  // add up (reduce sum) and a vertex dropping to c is seen by its owner. (A push from several
  // actors at once could take a degree past c + 1 -> c unseen by any of them.)
  gpu: {
    source: new URL('./gpu.cu', import.meta.url),
    // Its union pages cut from the view the calls pass (off, adj), not merged again on the actor.
    kernels: { kcorePeel: { modes: ['pull'], state: { deg: 'i32', core: 'i32' }, args: { c: 'i32' }, view: 'undirected', viewCsr: { off: 'off', adj: 'adj' } } },
  },
  // deg + core i32, frontier + next u8, the view's offsets f64 (its entries, ~2 an edge, are beyond
  // this figure). The view is merged from the in- and out-lists (two passes), then every vertex
  // walks its list once when peeled; each level's select visits the vertices of the blocks that
  // still hold unpeeled ones (twice where the level is not the last + 1).
  profile: { mode: 'push', stateBytesPerVertex: 18, passes: 3, unit: 'run', vertexTerm: true },
  reference: (g) => referenceKcore(g),
  demoParams: () => ({}),
  // Checkpoints: a safe point before each peel round; the carry is the level, the round's frontier
  // and the counters (deg, core and lowest are declared state, saved by the engine).
  resumable: true,
  readsWeights: false,
  async run(ctx) {
    const g = ctx.graph;
    const { deg, core, lowest, alive } = ctx.state;
    let r = ctx.resume<{ levels: number; c: number; next: Frontier }>();
    // The undirected view's CSR, which the CPU kernels walk and GPUs cut their union pages from;
    // none for a graph read from disk page by page (it would hold the whole graph in memory).
    const stored = g.out.stored !== undefined || g.in.stored !== undefined;
    const view: { off?: Float64Array; adj?: Uint32Array } = stored ? {} : await undirectedCsr(ctx, ctx.all(), 'kcoreView', false).then(({ off, adj }) => ({ off, adj }));
    if (r === undefined) await ctx.vertexMap('kcoreInit', { deg, ...view });
    let levels = r?.levels ?? 0;
    let c = r?.c ?? 0;
    // The view entries of the unpeeled vertices at the level's start: what a pull reads at most.
    let left = view.off?.[g.numVertices] ?? 2 * g.numEdges;
    for (;;) {
      let next: Frontier;
      if (r !== undefined) next = r.next;
      else {
        // After level c every unpeeled vertex has deg > c: level c + 1 is tried first (the first
        // level: 0), and where it peels none, the smallest deg left, which that pass found (a pass
        // and a round trip a level fewer than finding it first).
        const select = async (at: number): Promise<Frontier & { sum: number }> => {
          lowest[0] = 0x7fffffff;
          return ctx.vertexFilter('kcoreSelect', { deg, core, lowest, alive, ...(view.off !== undefined ? { off: view.off } : {}) }, { c: at });
        };
        let at = levels === 0 ? 0 : c + 1;
        let f = await select(at);
        if (f.size === 0) {
          ctx.release(f);
          if (f.sum === 0) break;
          f = await select((at = lowest[0]!));
        }
        c = at;
        levels++;
        left = f.sum;
        next = f;
      }
      r = undefined;
      while (next.size > 0) {
        await ctx.checkpoint({ levels, c, next });
        // Pulls touch only unpeeled vertices: GPUs (and sockets over a graph on disk) skip the rest's
        // pages. The rounds run on the sockets alone unless pulls are forced: most are tiny pushes,
        // a GPU only pulls, and its first pull builds its union pages, which costs more than all
        // the sockets' pulls of a run (bench/results/h200-2026-11-29-undirected-csr). A forced pull
        // runs the GPU operator.
        const sockets = ctx.gpuActors === 0 || ctx.forcedMode !== 'pull';
        // A push's decrement is an atomic on a counter other threads hit too (a hub's), ~20x a
        // pull's read of a view entry, so a round pulls once the frontier's out-edges pass
        // 1/PULL_SHARE of what is left (Ligra's m/20 counts the whole graph). Without the view a
        // pull merges lists from pages read from disk: Ligra's rule.
        const direction = sockets && view.off !== undefined ? { direction: { alpha: (g.numEdges * PULL_SHARE) / Math.max(left, 1) } } : {};
        ({ next } = await ctx.edgeMap('kcorePeel', next, { deg, core, ...view }, { c }, { readsFrontier: true, pullIf: { state: 'core', value: -1 }, ...direction, ...(sockets && ctx.gpuActors > 0 ? { cpuOnly: true } : {}) }));
      }
      ctx.release(next);
    }
    ctx.note('levels', levels);
    ctx.note('degeneracy', c);
    return core;
  },
});
