/**
 * HITS (Kleinberg): hub and authority scores, for a fixed number of iterations. Starting from
 * h = a = 1, each iteration sets
 *   a(v) = sum of h(u) over in-neighbours u, then a /= ||a||_2
 *   h(v) = sum of a(w) over out-neighbours w, then h /= ||h||_2
 * (a vector that is all zero stays so). On undirected graphs in- and out-neighbours are the same.
 * The output is the authority scores (0 iterations: all 1). Weights are ignored. Written against
 * the public API only (import from 'tessera').
 *
 * Pull only: authorities gather over in-pages, hubs over out-pages (`pullPages: 'out'`), each
 * vertex written by one task; the sum of squares comes back as the step's sum and a vertexMap
 * scales (on the GPUs where they own every vertex). Kernels: kernels.ts (CPU), gpu.cu (GPU
 * operators); serial reference: reference.ts.
 */
import { defineProgram } from 'tessera';
import { referenceHits } from './reference.js';

export const hits = defineProgram({
  name: 'hits',
  summary: 'HITS authority scores (hubs alongside), L2-normalised, fixed iterations',
  params: {
    iterations: { type: 'int', default: 20, min: 0, description: 'number of iterations (each updates authorities, then hubs)' },
  },
  // resident 'device': a GPU owning every vertex keeps them between supersteps and copies them
  // back when a superstep does not pass one, or at the end (the driver reads and writes neither).
  state: {
    hub: { type: 'f64', init: 1, reduce: 'owner', resident: 'device' },
    auth: { type: 'f64', init: 1, reduce: 'owner', resident: 'device' },
  },
  output: 'float',
  kernels: new URL('./kernels.js', import.meta.url),
  // On GPUs hitsGather runs the operator in gpu.cu (each vertex written by its owner, dst filled:
  // not sent up first); hitsScale too where the GPUs own every vertex (a vertex pass).
  gpu: {
    source: new URL('./gpu.cu', import.meta.url),
    kernels: {
      hitsGather: { modes: ['pull'], state: { src: 'f64', dst: 'f64' }, reads: ['src'], reduce: { dst: 'owner' }, fills: ['dst'] },
      hitsScale: { modes: ['vertex'], state: { x: 'f64' }, args: { f: 'f64' }, reduce: { x: 'owner' } },
    },
  },
  // hub + auth f64; two pull passes over the edges per iteration, 20 iterations by default.
  profile: { mode: 'pull', stateBytesPerVertex: 16, passes: 40, unit: 'pass', vertexTerm: true, calibration: () => ({ iterations: 3 }) },
  reference: (g, { iterations }) => referenceHits(g, iterations),
  demoParams: () => ({ iterations: 20 }),
  // Checkpoints: a safe point per iteration; hub and auth are declared state, the count the carry.
  resumable: true,
  // Its GPU operators ignore edge weights: a GPU may hold a weighted graph's pages without them.
  readsWeights: false,
  async run(ctx, { iterations }) {
    const { hub, auth } = ctx.state;
    const all = ctx.all();
    for (let it = ctx.resume<{ it: number }>()?.it ?? 0; it < iterations; it++) {
      await ctx.checkpoint({ it });
      const a = await ctx.edgeMap('hitsGather', all, { src: hub, dst: auth }, {}, { modes: ['pull'] });
      if (a.sum > 0) await ctx.vertexMap('hitsScale', { x: auth }, { f: 1 / Math.sqrt(a.sum) });
      const h = await ctx.edgeMap('hitsGather', all, { src: auth, dst: hub }, {}, { modes: ['pull'], pullPages: 'out' });
      if (h.sum > 0) await ctx.vertexMap('hitsScale', { x: hub }, { f: 1 / Math.sqrt(h.sum) });
    }
    return auth;
  },
});
