/**
 * Outside oracles from networkx (test/data/oracles/networkx.json, made by scripts/nx-oracles.py):
 * strongly connected components (the scc built-in), core numbers (the kcore built-in), triangles
 * per vertex of the undirected view (the tc built-in; total in its note) and PageRank,
 * uniform and personalized, weighted where the graph is (the ppr built-in, and pr with its
 * weighted and tolerance options), on the
 * Graphalytics and SNAP graphs of test/data, compared by the sha256 of "<id> <value>" lines in id
 * order, on one socket and on one socket with an emulated GPU running the programs' operators.
 */
import test from 'ava';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadGraph, run, type Graph, type Topology } from '../src/index.js';
import { kcore, ppr, pr, scc, tc } from '../src/programs/index.js';
import { nativeAvailable } from '../actors/gpu/native.js';

const DATA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../test/data');
interface Oracle {
  vertices: number;
  pagerank: { uniform: Array<[number, number]>; sources: number[]; personalized: Array<[number, number]> };
  scc: { components: number; sha256: string };
  core: { max: number; sha256: string };
  triangles: { total: number; sha256: string };
}
const ORACLES = (JSON.parse(readFileSync(path.join(DATA, 'oracles/networkx.json'), 'utf8')) as { graphs: Record<string, Oracle> }).graphs;

const ONE: Topology = { name: '1S', source: 'test', sockets: [{ id: 0, threads: 2 }], gpus: [], interconnect: {}, model: {} };
const GPU: Topology = { name: '1S1G-emulated', source: 'test', sockets: [{ id: 0, threads: 2 }], gpus: [{ device: 0, emulated: true, streams: 2 }], interconnect: {}, model: {} };
const avail = nativeAvailable();
const withGpu = avail.ok || !avail.toolchainMissing;

function digest(entries: Iterable<[number, number]>): string {
  const h = createHash('sha256');
  for (const [v, x] of [...entries].sort((a, b) => a[0] - b[0])) h.update(`${v} ${x}\n`);
  return h.digest('hex');
}

async function load(name: string): Promise<Graph> {
  const [kind, file] = name.split('/') as [string, string];
  if (kind === 'graphalytics') return (await loadGraph(path.join(DATA, kind, file))).graph;
  return (await loadGraph(path.join(DATA, kind, `${file}.txt.gz`), { undirected: file.startsWith('facebook') })).graph;
}

for (const [name, o] of Object.entries(ORACLES)) {
  test(`networkx on ${name}: SCC labels, core numbers, triangles, PageRank (uniform and personalized)`, async (t) => {
    const g = await load(name);
    t.is(g.numVertices, o.vertices);
    for (const topology of withGpu ? [ONE, GPU] : [ONE]) {
      const s = await run(g, scc, { topology });
      t.is(new Set(s.values).size, o.scc.components, `${topology.name}: components`);
      t.is(digest(s.entries() as Iterable<[number, number]>), o.scc.sha256, `${topology.name}: SCC labels`);
      const k = await run(g, kcore, { topology });
      t.is(Math.max(...k.values), o.core.max, `${topology.name}: degeneracy`);
      t.is(digest(k.entries() as Iterable<[number, number]>), o.core.sha256, `${topology.name}: core numbers`);
      const tri = await run(g, tc, { topology });
      t.is(tri.report.notes.triangles, o.triangles.total, `${topology.name}: triangles in total`);
      t.is(digest(tri.entries() as Iterable<[number, number]>), o.triangles.sha256, `${topology.name}: triangles per vertex`);
      for (const [what, sources, want] of [['uniform', [], o.pagerank.uniform], ['personalized', o.pagerank.sources, o.pagerank.personalized]] as const) {
        const r = await run(g, ppr, { topology, ...(sources.length > 0 ? { sources: [...sources] } : {}) });
        t.true(r.report.notes.converged === true, `${topology.name} ${what}: converged`);
        for (const [v, x] of want) {
          const got = r.get(v);
          t.true(Math.abs(got - x) <= 1e-9 * x, `${topology.name} ${what} pagerank of ${v}: ${got} vs networkx ${x}`);
        }
      }
      // pr with networkx's options is networkx's pagerank (run as ppr without sources).
      const w = await run(g, pr, { topology, weighted: 1, tolerance: 1e-6, iterations: 100 });
      t.is(w.report.notes.ranAs, ppr.name);
      t.true(w.report.notes.converged === true, `${topology.name} pr weighted: converged`);
      for (const [v, x] of o.pagerank.uniform) t.true(Math.abs(w.get(v) - x) <= 1e-9 * x, `${topology.name} pr weighted of ${v}: ${w.get(v)} vs networkx ${x}`);
    }
  });
}
