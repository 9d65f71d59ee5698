/**
 * MIS — a maximal independent set of the undirected view (v's neighbours: N_in(v) ∪ N_out(v)):
 * no two members adjacent, and every other vertex has a member neighbour. Output per vertex: 1 in
 * the set, 0 not. The set is the one sequential greedy takes in priority order (highest first: a
 * vertex joins when no neighbour has joined), where v's priority is misPriority(original id of v,
 * seed), a bijection of 32-bit ids for each seed: no two vertices tie, and the set depends only on
 * the graph and the seed. An isolated vertex is in the set. Written against the public API only.
 *
 * Blelloch, Fineman and Shun, "Greedy sequential maximal independent set and matching are
 * parallel on average" (SPAA 2012): rounds over the undecided vertices (Luby's rounds with fixed
 * priorities). In each round an undecided vertex with a neighbour in the set leaves, and one whose
 * priority beats every undecided neighbour's joins; every decision reads only what was decided in
 * earlier rounds (the round's frontier is the undecided set), so the rounds do not depend on
 * thread timing. Kernels: kernels.ts (CPU), gpu.cu (GPU operator); serial reference: reference.ts.
 */
import { defineProgram, undirectedCsr, type Frontier } from 'tessera';
import { misPriority, referenceMis } from './reference.js';

export const mis = defineProgram({
  name: 'mis',
  summary: 'maximal independent set of the undirected view (1 in, 0 not): greedy in hashed priority order',
  params: {
    seed: { type: 'int', default: 1, min: 0, max: 0xffffffff, description: 'seed of the vertex priorities' },
  },
  state: {
    // -1 undecided, then 1 (in) or 0 (out), written once (claim). Resident: the driver never
    // writes mis and writes prio before the first superstep only.
    mis: { type: 'i32', init: -1, reduce: 'claim', resident: true },
    prio: { type: 'u32', init: 0, reduce: 'none', resident: true },
  },
  output: 'int',
  kernels: new URL('./kernels.js', import.meta.url),
  gpu: {
    source: new URL('./gpu.cu', import.meta.url),
    // Its union pages cut from the view the rounds pass (off, adj), not merged again on the actor.
    kernels: { misRound: { modes: ['pull'], state: { mis: 'i32', prio: 'u32' }, reads: ['prio'], view: 'undirected', viewCsr: { off: 'off', adj: 'adj' } } },
  },
  // mis + prio, frontier + next u8, the view's offsets f64. Each round walks the undecided
  // vertices' lists (stopping at a member neighbour); the undecided set shrinks geometrically.
  profile: { mode: 'pull', stateBytesPerVertex: 18, passes: 4, unit: 'run', vertexTerm: true },
  reference: (g, { seed }) => referenceMis(g, seed),
  demoParams: () => ({ seed: 1 }),
  // Checkpoints: a safe point per round; mis and prio are declared state, the round's frontier the carry.
  resumable: true,
  // Its GPU operators ignore edge weights: a GPU may hold a weighted graph's pages without them.
  readsWeights: false,
  async run(ctx, { seed }) {
    const { mis, prio } = ctx.state;
    let c = ctx.resume<{ rounds: number; size: number; f: Frontier }>();
    if (c === undefined) {
      const ids = ctx.graph.ids.toOriginal;
      for (let v = 0; v < prio.length; v++) prio[v] = misPriority(ids[v]!, seed);
      c = { rounds: 0, size: 0, f: ctx.all() };
    }
    // The undirected view as a CSR, built once (kept per graph when small): the rounds walk it.
    const { off, adj } = await undirectedCsr(ctx, ctx.all(), 'misView', false);
    let { rounds, size, f } = c;
    while (f.size > 0) {
      await ctx.checkpoint({ rounds, size, f });
      const r = await ctx.edgeMap('misRound', f, { mis, prio, off, adj }, {}, { modes: ['pull'], readsFrontier: true });
      rounds++;
      size += r.sum;
      f = r.next;
    }
    ctx.release(f);
    ctx.note('rounds', rounds);
    ctx.note('size', size);
    return mis;
  },
});
