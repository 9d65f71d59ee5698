/**
 * WCC — Graphalytics semantics: weakly connected components, edge direction ignored; two
 * vertices share a label exactly when a path joins them; a vertex without edges is its own
 * component. Label = the smallest ORIGINAL id in the component (the convention of the
 * Graphalytics expected files; validation only compares the partition). Weights are ignored.
 *
 * Min-label propagation (labels start as original ids, graph.ids.toOriginal): a superstep takes,
 * for every vertex, the minimum label over its active neighbours through in- AND out-edges
 * (one page set when undirected). Push: each frontier vertex lowers its out- and in-neighbours'
 * labels with an Atomics.compareExchange min loop (Uint32); activation via a CAS on `next`.
 * Pull: each vertex (one writer) scans its in-edges in the task's pages and its out-edges through
 * graph.out. Halts when no label changes (kernels.ts). Serial reference: reference.ts.
 */
import { defineProgram } from '../../engine/define.js';
import type { Frontier } from '../../engine/program.js';
import { peers } from './peers.js';
import { referenceWcc } from './reference.js';

export const wcc = defineProgram({
  name: 'wcc',
  summary: 'weakly connected components; label = the smallest original id in the component',
  graphalytics: 'wcc',
  params: {},
  state: {
    // Pushes from other memories lower a label: the smallest wins. The driver fills original ids.
    label: { type: 'u32', init: 0, reduce: 'min' },
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
  async run(ctx) {
    const { label } = ctx.state;
    let c = ctx.resume<{ frontier: Frontier }>();
    if (c === undefined) {
      label.set(ctx.graph.ids.toOriginal);
      c = { frontier: ctx.all() };
    }
    let { frontier } = c;
    while (frontier.size > 0) {
      await ctx.checkpoint({ frontier });
      ({ next: frontier } = await ctx.edgeMap('wcc', frontier, { label }, {}, { readsFrontier: true }));
    }
    return label;
  },
});
