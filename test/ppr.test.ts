/**
 * The ppr built-in (personalized, weighted PageRank to a tolerance) against its serial
 * reference on RMAT graphs (weighted, pages split under hubs, undirected), on one and two
 * sockets and an emulated GPU running its operator (HIGH and RAND); the iteration cap and the
 * converged note; weighted=0; repeated sources count once. networkx itself: oracles.test.ts.
 */
import test from 'ava';
import { generate, run, type Graph } from '../src/index.js';
import { ppr } from '../src/programs/index.js';
import { referencePpr } from '../src/programs/ppr/reference.js';
import { GPU, ONE, TWO, withGpu } from './helpers/topologies.js';


function close(t: { true(c: boolean, m?: string): void }, got: ArrayLike<number>, want: ArrayLike<number>, what: string): void {
  let bad = -1;
  for (let v = 0; v < want.length && bad < 0; v++) if (!(Math.abs(got[v]! - want[v]!) <= 1e-10 * Math.max(Math.abs(want[v]!), 1e-300))) bad = v;
  t.true(bad < 0, `${what}: vertex ${bad} got ${got[bad]} want ${want[bad]}`);
}

const GRAPHS: Array<[string, Graph]> = [
  ['rmat:10:weighted', generate('rmat:10:ef=8:weighted')],
  ['rmat:10:weighted, 64-edge pages', generate('rmat:10:ef=8:weighted', { pageEdges: 64 })],
  ['rmat:10 undirected', generate('rmat:10', { undirected: true })],
];
const base = { damping: 0.85, iterations: 100, tolerance: 1e-6, weighted: 1 };

for (const [label, g] of GRAPHS) {
  test(`${label}: uniform and personalized on 1S, 2S and an emulated GPU equal the reference`, async (t) => {
    const ids = g.ids.toOriginal;
    const srcInternal = [0, 5, 9];
    const sources = srcInternal.map((v) => ids[v]!);
    for (const personal of [false, true]) {
      const want = referencePpr(g, { ...base, sources: personal ? srcInternal : [] });
      t.true(want.converged);
      // gpuShare 1: the GPU alone keeps its resident p between supersteps.
      const tops = withGpu ? [[ONE, 'high'], [TWO, 'high'], [GPU, 'high'], [GPU, 'rand'], [GPU, 'high', 1]] as const : ([[ONE, 'high'], [TWO, 'high']] as const);
      for (const [topology, partition, gpuShare] of tops) {
        const r = await run(g, ppr, { topology, partition, ...(gpuShare !== undefined ? { gpuShare } : {}), ...(personal ? { sources } : {}) });
        close(t, r.values, want.values, `${topology.name} ${partition} ${personal ? 'personalized' : 'uniform'}`);
        t.is(r.report.notes.iterations, want.iterations);
        t.is(r.report.notes.converged, true);
      }
    }
  });
}

(withGpu ? test : test.skip)('on a GPU owning every vertex the init, gathers and applies (a vertex pass) run on the device: only p goes up', async (t) => {
  const g = GRAPHS[0]![1];
  const r = await run(g, ppr, { topology: GPU, gpuShare: 1, iterations: 6, tolerance: 0 });
  close(t, r.values, referencePpr(g, { ...base, iterations: 6, tolerance: 0, sources: [] }).values, 'GPU-only');
  const applies = r.report.steps.filter((s) => s.kernel === 'pprApply');
  t.is(applies.length, 6);
  t.true(applies.every((s) => s.vertexMap === true && s.actors.every((a) => a.kind === 'gpu' || a.tasks === 0)));
  // Only p goes up (the first gather): the init fills x, contrib and outW on the device, the
  // gathers xn; the frontier (every vertex) is set there; the iterations' arrays stay.
  const bytesIn = r.report.steps.map((s) => s.actors.reduce((x, a) => x + (a.gpu?.stateBytesIn ?? 0), 0));
  t.deepEqual(bytesIn, r.report.steps.map((_, i) => (i === 1 ? 8 * g.numVertices : 0)), `state sent up: ${bytesIn.join(', ')}`);
});

test('the iteration cap, weighted=0 and repeated sources', async (t) => {
  const g = GRAPHS[0]![1];
  const capped = await run(g, ppr, { topology: ONE, iterations: 3, tolerance: 0 });
  t.is(capped.report.notes.iterations, 3);
  t.is(capped.report.notes.converged, false);
  close(t, capped.values, referencePpr(g, { ...base, iterations: 3, tolerance: 0, sources: [] }).values, 'capped');
  const plain = await run(g, ppr, { topology: ONE, weighted: 0 });
  close(t, plain.values, referencePpr(g, { ...base, weighted: 0, sources: [] }).values, 'weighted=0');
  const weightedRanks = referencePpr(g, { ...base, sources: [] }).values;
  t.true(plain.values.some((x, v) => Math.abs(x - weightedRanks[v]!) > 1e-6), 'weights change the ranks');
  const s = g.ids.toOriginal[3]!;
  const once = await run(g, ppr, { topology: ONE, sources: [s] });
  const twice = await run(g, ppr, { topology: ONE, sources: [s, s] });
  close(t, twice.values, once.values, 'a repeated source counts once');
});

test('tessera run --algo ppr --param sources=a,b gives the library values', async (t) => {
  const { tempDir, tessera } = await import('./helpers/cli.js');
  const { readFile } = await import('node:fs/promises');
  const path = await import('node:path');
  const out = path.join(await tempDir('ppr'), 'ppr.txt');
  const r = await tessera(['run', '--algo', 'ppr', '--graph', 'rmat:8', '--param', 'sources=3,5', '--topology', 'configs/1S.yaml', '--out', out, '-q']);
  t.is(r.code, 0, r.stderr);
  const g = generate('rmat:8');
  const lib = await run(g, ppr, { topology: ONE, sources: [3, 5] });
  const lines = (await readFile(out, 'utf8')).trim().split('\n');
  t.is(lines.length, g.numVertices);
  for (const l of lines) {
    const [v, x] = l.split(' ').map(Number);
    t.true(Math.abs(x! - lib.get(v!)) <= 1e-12 * Math.max(x!, 1e-300), `vertex ${v}`);
  }
});
