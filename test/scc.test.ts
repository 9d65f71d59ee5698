/**
 * The scc built-in: the serial reference (Tarjan) against brute-force reachability on random
 * small graphs (fast-check), and the engine against the reference on RMAT graphs (directed,
 * undirected, pages split under hubs) on one socket, two sockets, forced push and pull, and an
 * emulated GPU running the SCC operators beside a socket, owning one range or several (RAND).
 * networkx's own labels on the Graphalytics and SNAP graphs: oracles.test.ts.
 */
import test from 'ava';
import fc from 'fast-check';
import { buildGraph, generate, run, type Graph } from '../src/index.js';
import { scc } from '../src/programs/index.js';
import { referenceScc } from '../src/programs/scc/reference.js';
import { GPU, ONE, TWO, withGpu } from './helpers/topologies.js';
import { outCsr } from './helpers/references.js';
import { rawFrom } from './helpers/raw.js';

const gpuTest = withGpu ? test : test.skip;

/** Labels by mutual reachability (a BFS from every vertex): the definition itself. */
function bruteScc(g: Graph): Uint32Array {
  const { n, offsets, nbrs } = outCsr(g);
  const reach = Array.from({ length: n }, (_, s) => {
    const seen = new Uint8Array(n);
    const q = [s];
    seen[s] = 1;
    for (let i = 0; i < q.length; i++)
      for (let e = offsets[q[i]!]!; e < offsets[q[i]! + 1]!; e++) if (!seen[nbrs[e]!]) (seen[nbrs[e]!] = 1), q.push(nbrs[e]!);
    return seen;
  });
  const ids = g.ids.toOriginal;
  return Uint32Array.from({ length: n }, (_, v) => {
    let m = ids[v]!;
    for (let u = 0; u < n; u++) if (reach[v]![u] && reach[u]![v] && ids[u]! < m) m = ids[u]!;
    return m;
  });
}

const edges = fc.array(fc.tuple(fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 24 })), { minLength: 1, maxLength: 80 });

test('reference: Tarjan equals mutual reachability on random small graphs', (t) => {
  fc.assert(
    fc.property(edges, fc.boolean(), (es, undirected) => {
      const g = buildGraph(rawFrom(es), undirected ? { directed: false } : {});
      t.deepEqual([...referenceScc(g)], [...bruteScc(g)]);
    }),
    { numRuns: 200 },
  );
});

test('the engine on random small graphs (3-edge pages, two sockets) equals the reference', async (t) => {
  await fc.assert(
    fc.asyncProperty(edges, async (es) => {
      const g = buildGraph(rawFrom(es), { pageEdges: 3 });
      const r = await run(g, scc, { topology: TWO });
      t.deepEqual([...r.values], [...referenceScc(g)]);
    }),
    { numRuns: 25 },
  );
});

const GRAPHS: Array<[string, Graph]> = [
  ['rmat:12:ef=8', generate('rmat:12:ef=8')],
  ['rmat:11:ef=8, 64-edge pages', generate('rmat:11:ef=8', { pageEdges: 64 })],
  ['rmat:10 undirected', generate('rmat:10', { undirected: true })],
];

for (const [label, g] of GRAPHS) {
  test(`${label}: 1S, 2S, forced push and pull equal the reference`, async (t) => {
    const want = [...referenceScc(g)];
    for (const [topology, forceMode] of [[ONE, undefined], [TWO, undefined], [ONE, 'push'], [TWO, 'pull']] as const) {
      const r = await run(g, scc, { topology, ...(forceMode ? { forceMode } : {}) });
      t.deepEqual([...r.values], want, `${topology.name} ${forceMode ?? ''}`);
      t.true(Number(r.report.notes.rounds) >= 1);
    }
  });
  gpuTest(`${label}: an emulated GPU (HIGH and RAND) equals the reference`, async (t) => {
    const want = [...referenceScc(g)];
    for (const partition of ['high', 'rand'] as const) {
      const r = await run(g, scc, { topology: GPU, partition });
      t.deepEqual([...r.values], want, partition);
      t.true(r.report.steps.some((s) => s.kernel === 'sccBackward' && s.actors.some((a) => a.actor === 'gpu0' && (a.gpu?.calls ?? 0) > 0)), `${partition}: the GPU ran sccBackward`);
    }
    // The GPU alone keeps its resident scc and color between supersteps.
    t.deepEqual([...(await run(g, scc, { topology: GPU, gpuShare: 1, steal: 'off' })).values], want, 'the GPU owning every vertex');
  });
}
