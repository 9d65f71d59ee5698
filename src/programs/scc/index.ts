/**
 * SCC — strongly connected components (networkx `strongly_connected_components`): u and v share
 * a component exactly when each reaches the other along directed edges; a vertex on no cycle is
 * alone; on an undirected graph these are the connected components. Label = the smallest
 * ORIGINAL id in the component (as wcc). Weights are ignored.
 *
 * Coloring (Orzan; Slota et al.'s Multistep without the trimming): each round, among the
 * unassigned vertices, every vertex takes the smallest id that reaches it (forward min-label
 * propagation, push or pull); a vertex that kept its own id is the root of its color, and its
 * component is what reaches it backwards inside that color (pull over out-lists from the roots).
 * Rounds repeat until every vertex is assigned; each assigns at least one component per color.
 * Kernels: kernels.ts (CPU), gpu.cu (GPU operators); serial reference (Tarjan): reference.ts.
 */
import { defineProgram } from '../../engine/define.js';
import type { Frontier } from '../../engine/program.js';
import { referenceScc } from './reference.js';

export const scc = defineProgram({
  name: 'scc',
  summary: 'strongly connected components; label = the smallest original id in the component',
  params: {},
  state: {
    // Resident (the driver writes both through vertex maps only): GPUs keep them across a phase.
    scc: { type: 'i32', init: -1, reduce: 'claim', resident: true },
    // Forward propagation from any actor lowers a color: the smallest wins.
    color: { type: 'i32', init: 0, reduce: 'min', resident: true },
    label: { type: 'u32', init: 0, reduce: 'none' },
  },
  output: 'label',
  kernels: new URL('./kernels.js', import.meta.url),
  gpu: {
    source: new URL('./gpu.cu', import.meta.url),
    kernels: {
      sccForward: { modes: ['push', 'pull'], state: { scc: 'i32', color: 'i32' }, reads: ['scc'] },
      sccBackward: { modes: ['pull'], state: { scc: 'i32', color: 'i32' }, reads: ['color'] },
    },
  },
  // scc + color + label i32, frontier + next u8; each round walks the edges about twice.
  profile: { mode: 'push', stateBytesPerVertex: 14, passes: 2, unit: 'run', vertexTerm: true },
  reference: (g) => referenceScc(g),
  demoParams: () => ({}),
  resumable: true,
  readsWeights: false,
  async run(ctx) {
    const { scc, color, label } = ctx.state;
    // Safe points in both propagation loops: the carry says which loop and its frontier, and a
    // resumed run enters the round there.
    type Carry = { rounds: number; phase: 'forward' | 'backward'; f: Frontier };
    const c = ctx.resume<Carry>();
    let rounds = c?.rounds ?? 0;
    let at: Carry | undefined = c;
    while (at !== undefined || (await ctx.vertexMap('sccColor', { scc, color })).sum > 0) {
      if (at === undefined) rounds++;
      let f = at?.f ?? ctx.all();
      if (at?.phase !== 'backward') {
        while (f.size > 0) {
          await ctx.checkpoint({ rounds, phase: 'forward', f });
          ({ next: f } = await ctx.edgeMap('sccForward', f, { scc, color }, {}, { readsFrontier: true, pullIf: { state: 'scc', value: -1 } }));
        }
        // Maps back to the pool once used (edgeMap takes back only those it made), not held to
        // the run's end: each held one is a map more the run needs at once.
        ctx.release(f);
      }
      const roots: Frontier = at?.phase === 'backward' ? at.f : await ctx.vertexFilter('sccRoots', { scc, color });
      let b = roots;
      at = undefined;
      while (b.size > 0) {
        await ctx.checkpoint({ rounds, phase: 'backward', f: b });
        ({ next: b } = await ctx.edgeMap('sccBackward', b, { scc, color }, {}, { modes: ['pull'], pullPages: 'out', readsFrontier: true, pullIf: { state: 'scc', value: -1 } }));
      }
      ctx.release(roots);
      ctx.release(b);
    }
    ctx.note('rounds', rounds);
    // Representatives (internal ids) -> the smallest original id of each component.
    const ids = ctx.graph.ids.toOriginal;
    const best = new Float64Array(scc.length).fill(Infinity);
    for (let v = 0; v < scc.length; v++) if (ids[v]! < best[scc[v]!]!) best[scc[v]!] = ids[v]!;
    for (let v = 0; v < scc.length; v++) label[v] = best[scc[v]!]!;
    return label;
  },
});
