/**
 * CDLP — Graphalytics semantics (deterministic synchronous label propagation), labels are
 * ORIGINAL ids: L_0(v) = v's original id; for i = 1..iterations every vertex takes the most
 * frequent label among L_{i-1} of its in- AND out-neighbours, counted as a multiset (on a
 * directed graph a neighbour linked both ways counts twice); ties go to the smallest label; a
 * vertex without neighbours keeps its label. Synchronous (double-buffered). Stops early once an
 * iteration changes no label (later iterations would change nothing). Weights are ignored.
 * On undirected graphs each neighbour is counted once (counting it twice, via N_in and N_out,
 * doubles every count and never changes the winner).
 *
 * Pull only: each vertex gathers its neighbours' labels (in-edges from the task's pages, out-edges
 * through graph.out when directed) into a per-worker reusable buffer, sorts it and takes the
 * longest run (kernels.ts). Serial reference: reference.ts.
 */
import { copyArray } from '../../engine/fill.js';
import { defineProgram } from '../../engine/define.js';
import { referenceCdlp } from './reference.js';

export const cdlp = defineProgram({
  name: 'cdlp',
  summary: 'community detection by synchronous label propagation; labels are original ids',
  graphalytics: 'cdlp',
  params: {
    iterations: { type: 'int', default: 10, min: 0, property: 'max-iterations', description: 'maximum number of iterations (stops early once no label changes)' },
  },
  state: {
    // Only a vertex's owner writes its label (pull); the driver fills original ids and swaps the two.
    label: { type: 'u32', init: 0, reduce: 'owner' },
    nextLabel: { type: 'u32', init: 0, reduce: 'owner' },
  },
  output: 'label',
  kernels: new URL('./kernels.js', import.meta.url),
  gpu: new URL('./gpu.js', import.meta.url),
  // label u32 + next u32; pull only; 10 iterations by default.
  profile: { mode: 'pull', stateBytesPerVertex: 8, passes: 10, unit: 'pass', vertexTerm: true, calibration: () => ({ iterations: 5 }) },
  reference: (g, { iterations }) => referenceCdlp(g, iterations),
  demoParams: () => ({ iterations: 10 }),
  resumable: true,
  readsWeights: false,
  async run(ctx, { iterations }) {
    type Carry = { label: Uint32Array; nextLabel: Uint32Array; done: number; prevChanged: number; older: Uint32Array | undefined };
    let c = ctx.resume<Carry>();
    if (c === undefined) {
      copyArray(ctx.state.label, ctx.graph.ids.toOriginal);
      c = { label: ctx.state.label, nextLabel: ctx.state.nextLabel, done: 0, prevChanged: -1, older: undefined };
    }
    // Synchronous propagation can settle into a 2-cycle (labels swapping back and forth): once
    // label_k+1 equals label_k-1 every later iteration is known, so a huge iteration count ends
    // there with the labels it would have reached. Checked only when the count of changed labels
    // repeats (a copy of n labels per candidate, none in runs that converge).
    let { label, nextLabel, done, prevChanged, older } = c;
    const all = ctx.all();
    while (done < iterations) {
      await ctx.checkpoint({ label, nextLabel, done, prevChanged, older });
      const { sum: changed, next } = await ctx.edgeMap('cdlp', all, { label, nextLabel }, {}, { modes: ['pull'] });
      ctx.release(next);
      [label, nextLabel] = [nextLabel, label];
      done++;
      if (changed === 0) {
        // Say what ran: a count the labels settle before (Graphalytics' max-iterations) ends here.
        if (done < iterations) ctx.note('stopped', `no label changed in iteration ${done} of ${iterations}, so later ones would change none`);
        break;
      }
      if (older !== undefined && equal(label, older)) {
        // label = label_done = label_done-2: label_N is label for an even N - done, else nextLabel.
        if ((iterations - done) % 2 === 1) [label, nextLabel] = [nextLabel, label];
        ctx.note('cycle', done);
        ctx.note('stopped', `labels alternate between two states from iteration ${done - 1}; iteration ${iterations}'s labels returned without running the rest`);
        done = iterations;
        break;
      }
      older = changed === prevChanged && iterations - done > 2 ? nextLabel.slice() : undefined;
      prevChanged = changed;
    }
    ctx.note('iterations', done);
    return label;
  },
});

function equal(a: Uint32Array, b: Uint32Array): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
