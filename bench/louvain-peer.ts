/**
 * Louvain against graphology-communities-louvain in one warm process (issue 24): per graph, one
 * Engine (1 socket, --threads) built once; then warm-up + --reps rounds, each running tessera's
 * louvain and graphology's once (alternating, so load on a shared box hits both alike). Prints
 * medians, graphology/tessera and both modularities (tessera's note; graphology's `detailed`).
 *
 *   node dist/bench/louvain-peer.js [--reps 5] [--threads 2] [--graphs facebook,wiki,epinions,rmat:14,rmat:16] [--json FILE]
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Engine } from '../src/engine/coordinator.js';
import { loadGraph } from '../src/graph/load.js';
import { prepareRun } from '../src/api.js';
import { louvain } from '../src/programs/index.js';
import type { Topology } from '../src/topology/schema.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SNAP = path.join(ROOT, 'test/data/snap');
const FILES: Record<string, [string, boolean]> = {
  facebook: [path.join(SNAP, 'facebook_combined.txt.gz'), true],
  wiki: [path.join(SNAP, 'wiki-Vote.txt.gz'), false],
  epinions: [path.join(SNAP, 'soc-Epinions1.txt.gz'), false],
};
const { values: a } = parseArgs({ options: { reps: { type: 'string', default: '5' }, threads: { type: 'string', default: '2' }, graphs: { type: 'string', default: 'facebook,wiki,epinions,rmat:14,rmat:16' }, json: { type: 'string' } } });
const reps = Number(a.reps);
const topology: Topology = { name: '1S', source: 'bench', sockets: [{ id: 0, threads: Number(a.threads) }], gpus: [], interconnect: {}, model: {} };
const require = createRequire(import.meta.url);
const Graphology = require('graphology') as new (o: object) => { addNode(k: number): void; hasEdge(a: number, b: number): boolean; addUndirectedEdge(a: number, b: number): void };
const glv = require('graphology-communities-louvain') as { detailed(g: unknown, o?: object): { modularity: number } };
const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[xs.length >> 1]!;

const rows: object[] = [];
for (const name of a.graphs.split(',')) {
  const [file, undirected] = FILES[name] ?? [name, false];
  const { graph } = await loadGraph(file, { undirected });
  // graphology's graph: the undirected view (unweighted graphs here), built untimed.
  const G = new Graphology({ type: 'undirected', multi: false, allowSelfLoops: false });
  for (let v = 0; v < graph.numVertices; v++) G.addNode(v);
  for (const p of graph.out.pages)
    for (let v = p.vBegin; v < p.vEnd; v++)
      for (let e = p.offsets[v - p.vBegin]!; e < p.offsets[v - p.vBegin + 1]!; e++) {
        const u = p.nbrs[e]!;
        if (!G.hasEdge(v, u)) G.addUndirectedEdge(v, u);
      }
  const engine = await Engine.create(graph, topology, {});
  const { program, params } = prepareRun(graph, louvain, {});
  const t: number[] = [];
  const gt: number[] = [];
  const tq: number[] = [];
  const gq: number[] = [];
  const notes: object[] = [];
  for (let r = 0; r <= reps; r++) {
    const { report } = await engine.run(program, params);
    const t0 = performance.now();
    const d = glv.detailed(G);
    const g1 = performance.now() - t0;
    if (r === 0) continue;
    t.push(report.totalMs);
    tq.push(report.notes.modularity as number);
    notes.push(report.notes);
    gt.push(g1);
    gq.push(d.modularity);
  }
  await engine.close();
  const row = { graph: name, vertices: graph.numVertices, edges: graph.numEdges, tesseraMs: median(t), graphologyMs: median(gt), ratio: median(gt) / median(t), tesseraQ: median(tq), graphologyQ: median(gq), tesseraRuns: t, graphologyRuns: gt, tesseraQs: tq, graphologyQs: gq, notes: notes[0] };
  rows.push(row);
  console.log(`${name.padEnd(10)} tessera ${median(t).toFixed(1).padStart(8)} ms  graphology ${median(gt).toFixed(1).padStart(8)} ms  ratio ${(median(gt) / median(t)).toFixed(2)}  Q ${median(tq).toFixed(4)} vs ${median(gq).toFixed(4)}  ${JSON.stringify(notes[0])}`);
}
if (a.json !== undefined) writeFileSync(a.json, JSON.stringify({ threads: Number(a.threads), reps, rows }, null, 1));
