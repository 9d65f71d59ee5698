/**
 * Every expected output of the LDBC Graphalytics validation graphs (test/data/graphalytics:
 * BFS, PR, SSSP, WCC, CDLP, LCC, directed and undirected) through the public path — loadGraph
 * (the Graphalytics reader, parameters from each graph's .properties) and api.run — matched with
 * the official rules of validate.ts: exact for BFS and CDLP, equivalence for WCC, epsilon 1e-4
 * for PR, SSSP and LCC. Each graph runs with the default page size and with 4-edge pages (split
 * pages everywhere), on two threads and on two socket actors.
 */
import type { BuiltinName } from '../src/programs/index.js';
import test from 'ava';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { run } from '../src/api.js';
import { loadGraph } from '../src/graph/load.js';
import type { Topology } from '../src/topology/schema.js';
import { BFS_UNREACHABLE, matchFor, readOutput, type GraphalyticsAlgorithm, type Output } from '../src/programs/validate.js';
import { GRAPHALYTICS } from './helpers/paths.js';

const ALGO: Record<GraphalyticsAlgorithm, BuiltinName> = { BFS: 'bfs', PR: 'pr', SSSP: 'sssp', WCC: 'wcc', CDLP: 'cdlp', LCC: 'lcc' };

function topo(threads: number[]): Topology {
  return { name: `${threads.length}S`, source: 'test', sockets: threads.map((t, id) => ({ id, threads: t })), gpus: [], interconnect: {}, model: {} };
}

const graphs = readdirSync(GRAPHALYTICS, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'matching-examples')
  .map((d) => d.name)
  .sort();

let expectedFiles = 0;
for (const name of graphs) {
  const dir = path.join(GRAPHALYTICS, name);
  const algos = (Object.keys(ALGO) as GraphalyticsAlgorithm[]).filter((a) => readdirSync(dir).includes(`${name}-${a}`));
  expectedFiles += algos.length;
  test(`${name}: ${algos.join(', ')}`, async (t) => {
    for (const [pageEdges, threads] of [
      [undefined, [2]],
      [4, [1, 1]],
    ] as const) {
      const { graph, defaults } = await loadGraph(dir, { pageEdges });
      for (const algo of algos) {
        const r = await run(graph, ALGO[algo], { defaults, topology: topo([...threads]) });
        const actual: Output = new Map();
        // Graphalytics ids are integers (loadGraph's type admits names too).
        for (const [id, x] of r.entries()) actual.set(id as number, algo === 'BFS' && x < 0 ? BFS_UNREACHABLE : x);
        const m = matchFor(algo, readOutput(path.join(dir, `${name}-${algo}`)), actual);
        t.true(m.ok, `${algo} (pageEdges ${pageEdges ?? 'default'}, sockets ${threads.join('+')}): ${m.reason ?? ''}`);
      }
    }
  });
}

test('every expected output is covered', (t) => {
  t.is(graphs.length, 14);
  t.is(expectedFiles, 24);
});
