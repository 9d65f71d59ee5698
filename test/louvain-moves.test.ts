/**
 * Louvain's sequential moves (serial.ts moveOrderedSerial, and the addon's louvainMoveOrdered that
 * equals it) against the same moves written plainly: each vertex's neighbouring communities summed
 * in a fresh Map (first-touch order, as the stamped scatter keeps them), on every level the
 * program runs, several graphs. The scatter once stamped communities with the vertex's own id, so
 * a vertex evaluated again in a later sweep summed onto its stale weights: this caught it.
 */
import test from 'ava';
import { generate } from '../src/index.js';
import { nativeCpuKernels } from '../actors/gpu/native-host.js';
import { AGGREGATE_BLOCK, aggregateSerial, CLASSES, classOrder, MAX_ROUNDS, MAX_SWEEPS, moveOrderedSerial, relabel, ROUND_TOL, sequentialRoundsTs, TOL, undirectedView, type WCsr } from '../src/programs/louvain/serial.js';

function plainMoves(g: WCsr, comm: Uint32Array, tot: Float64Array, size: Uint32Array, order: Uint32Array, resolution: number, m2: number): { sweeps: number; gain: number } {
  const { n, off, adj, wt, k } = g;
  const act = new Uint8Array(n).fill(1);
  const slack = new Float64Array(n);
  let sweeps = 0;
  let total = 0;
  while (sweeps < MAX_SWEEPS) {
    sweeps++;
    let moved = 0;
    let gain = 0;
    for (const v of order) {
      if (act[v] === 0) continue;
      act[v] = 0;
      const cv = comm[v]!;
      const acc = new Map<number, number>();
      for (let e = off[v]!; e < off[v + 1]!; e++) {
        const c = comm[adj[e]!]!;
        const w = wt === undefined ? 1 : wt[e]!;
        acc.set(c, acc.has(c) ? acc.get(c)! + w : w);
      }
      const kv = k[v]!;
      tot[cv]! -= kv;
      size[cv]!--;
      const f = (resolution * kv) / m2;
      const stay = (acc.get(cv) ?? 0) - f * tot[cv]!;
      let best = cv;
      let bestGain = stay;
      let second = -Infinity;
      for (const [c, a] of acc) {
        if (c === cv) continue;
        const x = a - f * tot[c]!;
        if (x > bestGain || (x === bestGain && best !== cv && c < best)) (second = bestGain), (best = c), (bestGain = x);
        else if (x > second) second = x;
      }
      if (best !== cv && size[cv] === 0 && size[best] === 1 && best > cv) (best = cv), (bestGain = stay), (second = Infinity);
      slack[v] = bestGain - Math.max(second, 0);
      tot[best]! += kv;
      size[best]!++;
      if (best === cv) continue;
      comm[v] = best;
      moved++;
      gain += (2 * (bestGain - stay)) / m2;
      const g2 = (2 * resolution * kv) / m2;
      for (let e = off[v]!; e < off[v + 1]!; e++) {
        const u = adj[e]!;
        if (comm[u] === best) continue;
        slack[u] = slack[u]! - 2 * (wt === undefined ? 1 : wt[e]!) - g2 * k[u]!;
        if (slack[u]! < 0) act[u] = 1;
      }
    }
    total += gain;
    if (moved === 0 || gain < TOL) break;
  }
  return { sweeps, gain: total };
}

test('the sequential moves equal the same moves with a fresh sum per vertex, on every level (TypeScript and addon)', (t) => {
  const native = nativeCpuKernels()?.louvainMoveOrdered;
  for (const spec of ['rmat:11', 'rmat:12:weighted', 'uniform:12:ef=8', 'uniform:11:ef=4:weighted']) {
    let g = undirectedView(generate(spec));
    const m2 = g.k.reduce((a, b) => a + b, 0);
    for (let level = 0; g.n > 1; level++) {
      const init = (): { comm: Uint32Array; tot: Float64Array; size: Uint32Array } => ({ comm: new Uint32Array(g.n).map((_, i) => i), tot: g.k.slice(), size: new Uint32Array(g.n).fill(1) });
      const order = level === 0 ? classOrder(g.n) : new Uint32Array(g.n).map((_, i) => i);
      const [a, b] = [init(), init()];
      const want = plainMoves(g, a.comm, a.tot, a.size, order, 1, m2);
      const got = moveOrderedSerial(g, b.comm, b.tot, b.size, order, 1, m2);
      t.deepEqual([b.comm, b.tot, b.size, got], [a.comm, a.tot, a.size, want], `${spec} level ${level}`);
      if (native !== undefined) {
        const c = init();
        const r = native(g.off, g.adj, g.wt ?? null, g.k, c.comm, c.tot, c.size, order, 1, m2, MAX_SWEEPS, TOL, 3, 64);
        t.deepEqual([c.comm, c.tot, c.size, r], [a.comm, a.tot, a.size, want], `${spec} level ${level}: the addon, batched`);
      }
      const C = relabel(a.comm);
      if (C === g.n) break;
      g = aggregateSerial(g, a.comm, C);
    }
  }
});

const roundsOpts = { classes: CLASSES, maxSweeps: MAX_SWEEPS, tol: TOL, roundTol: ROUND_TOL, maxRounds: MAX_ROUNDS, batchVertices: 0, batchEntries: 16384, moveBatches: 0, block: AGGREGATE_BLOCK, compact: true };

(nativeCpuKernels()?.louvainRounds ? test : test.skip)("the addon's whole sequential path (louvainRounds) ends as the TypeScript's rounds, compacted or not, batched or not", (t) => {
  const native = nativeCpuKernels()!.louvainRounds!;
  for (const [spec, resolution] of [['rmat:12', 1], ['rmat:12:weighted', 1.2], ['uniform:11:ef=4:weighted', 0.8], ['rmat:10:weighted', 1]] as const) {
    const g = undirectedView(generate(spec));
    const m2 = g.k.reduce((a, b) => a + b, 0);
    for (const compact of [true, false]) {
      const want = sequentialRoundsTs(g, resolution, m2, compact);
      t.true(want.rounds >= 1 && want.levels >= 1, spec);
      // Small batches on every level: the gathering threads' path too (their choices are the serial loop's).
      for (const batch of [{ batchVertices: 0 }, { batchVertices: 3, batchEntries: 64 }, { batchVertices: 512, block: 7 }]) {
        const got = native(g.off, g.adj, g.wt ?? null, g.k, g.loop, resolution, m2, { ...roundsOpts, ...batch, compact });
        t.deepEqual(got, want, `${spec} compact ${compact} ${JSON.stringify(batch)}`);
      }
    }
  }
});

(nativeCpuKernels()?.louvainRounds ? test : test.skip)('louvainRounds refuses a view it cannot read, naming the argument', (t) => {
  const native = nativeCpuKernels()!.louvainRounds!;
  const g = undirectedView(generate('rmat:6'));
  const m2 = g.k.reduce((a, b) => a + b, 0);
  const call = (over: Partial<{ off: Float64Array; adj: Uint32Array; k: Float64Array }>, opts: Record<string, unknown> = roundsOpts): unknown =>
    native(over.off ?? g.off, over.adj ?? g.adj, g.wt ?? null, over.k ?? g.k, g.loop, 1, m2, opts as typeof roundsOpts);
  t.throws(() => call({ adj: Uint32Array.from(g.adj, (x) => (x === 0 ? g.n : x)) }), { message: /louvainRounds: adj holds vertex ids below n/ });
  t.throws(() => call({ off: g.off.map((x, i) => (i === g.n ? x + 1 : x)) }), { message: /adj and wt need off\[n\] entries/ });
  t.throws(() => call({ k: g.k.subarray(1) }), { message: /k and loop need n entries/ });
  t.throws(() => call({}, { ...roundsOpts, classes: 0 }), { message: /classes, block and batchEntries/ });
  t.throws(() => call({}, { ...roundsOpts, block: 1.5 }), { message: /opts.block must be a whole number/ });
  t.throws(() => call({}, { ...roundsOpts, tol: undefined }), { message: /opts.tol must be a number/ });
  t.throws(() => (native as unknown as (...a: unknown[]) => unknown)(g.off, g.adj, null, g.k, g.loop, 1, m2), { message: /opts must be an object/ });
});
