/**
 * The programs whose CPU kernels have a native twin (bfs, wcc's Afforest, sssp, bc; native/src)
 * against their serial references, on graphs whose supersteps go to the worker threads (RMAT 14,
 * directed and undirected) and on a small graph with 64-edge pages (hubs over split pages, run on
 * the coordinator's thread), on 1, 2 and 4 threads. Run twice: with the native kernels
 * (native-kernels.test.ts) and with TESSERA_NATIVE_KERNELS=0 (ts-kernels.test.ts).
 */
import type { ExecutionContext } from 'ava';
import { Engine } from '../../src/engine/coordinator.js';
import { internalId } from '../../src/engine/output.js';
import { loadGraph } from '../../src/graph/load.js';
import { buildGraph } from '../../src/graph/build.js';
import type { Graph } from '../../src/graph/types.js';
import { bc, bfs, sssp, wcc } from '../../src/programs/index.js';
import { referenceBetweenness } from '../../src/programs/bc/reference.js';
import { referenceBfs, referenceSssp, referenceWcc } from './references.js';
import { rawFrom } from './raw.js';
import { topo } from './topologies.js';

function skewed(directed: boolean): Graph {
  let x = 11;
  const rnd = (): number => (x = (x * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
  const e: Array<[number, number, number]> = [];
  for (let i = 0; i < 3000; i++) e.push([Math.floor(rnd() ** 3 * 400) * 2 + 1, Math.floor(rnd() ** 3 * 400) * 2 + 1, 1 + Math.floor(rnd() * 4)]);
  return buildGraph(rawFrom(e, { directed, vertices: [0, 5000], weighted: true }), { pageEdges: 64 });
}

export async function kernelCases(): Promise<Array<{ label: string; graph: Graph }>> {
  return [
    { label: 'rmat 14 directed', graph: (await loadGraph('rmat:14:weighted')).graph },
    { label: 'rmat 14 undirected', graph: (await loadGraph('rmat:14:weighted', { undirected: true })).graph },
    { label: 'skewed directed, 64-edge pages', graph: skewed(true) },
    { label: 'skewed undirected, 64-edge pages', graph: skewed(false) },
  ];
}

function same(t: ExecutionContext, got: ArrayLike<number>, want: ArrayLike<number>, what: string): void {
  let bad = -1;
  for (let v = 0; v < want.length && bad < 0; v++) if (got[v] !== want[v] && !(Math.abs(got[v]! - want[v]!) <= 1e-9 * Math.abs(want[v]!))) bad = v;
  t.true(got.length === want.length && bad < 0, bad < 0 ? what : `${what}: vertex ${bad} got ${got[bad]} want ${want[bad]}`);
}

/** bfs (from the top hub and from a low-degree vertex), wcc, sssp and bc (from both) equal their references. */
export async function checkKernelCases(t: ExecutionContext): Promise<void> {
  for (const { label, graph: g } of await kernelCases()) {
    const sources = [0, internalId(g, g.ids.toOriginal[Math.floor(g.numVertices / 3)]!)];
    const refs = sources.map((s) => ({ s, bfs: referenceBfs(g, s), sssp: referenceSssp(g, s) }));
    const refWcc = referenceWcc(g);
    const refBc = referenceBetweenness(g, Uint32Array.from(sources));
    for (const threads of [1, 2, 4]) {
      const e = await Engine.create(g, topo([threads]));
      try {
        for (const r of refs) {
          const b = await e.run(bfs, { source: r.s });
          same(t, b.values, r.bfs, `bfs ${label}, source ${r.s}, ${threads} threads`);
          const d = await e.run(sssp, { source: r.s });
          same(t, d.values, r.sssp, `sssp ${label}, source ${r.s}, ${threads} threads`);
        }
        same(t, (await e.run(bc, { sources: Uint32Array.from(sources) })).values, refBc, `bc ${label}, ${threads} threads`);
        // Twice: the second run reuses pooled arrays.
        for (let k = 0; k < 2; k++) same(t, (await e.run(wcc, {})).values, refWcc, `wcc ${label}, ${threads} threads, run ${k + 1}`);
      } finally {
        await e.close();
      }
    }
  }
}
