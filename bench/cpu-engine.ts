/**
 * CPU engine benchmark (issue: BSP runtime): PageRank per-iteration time and BFS time on RMAT
 * with 1 and 2 threads (edges/s, speed-up), and tessera vs graphology on a graph graphology can
 * hold, measured in the same run. Medians over repetitions; the first run of each cell is a
 * warm-up and is dropped.
 *
 *   node dist/bench/cpu-engine.js [--scale 22] [--peer-scale 18] [--reps 3] [--threads 1,2]
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { createRequire } from 'node:module';
import { buildGraph } from '../src/graph/build.js';
import { generateEdges } from '../src/graph/generate/index.js';
import { Engine } from '../src/engine/coordinator.js';
import { bfs, pr as pagerank } from '../src/programs/index.js';
import type { Graph as TGraph } from '../src/graph/types.js';
import type { Topology } from '../src/topology/schema.js';
import { forEachEdge } from '../src/graph/pages.js';

// graphology ships CommonJS; load it as such (its typings do not resolve under NodeNext).
const require = createRequire(import.meta.url);
type GGraph = { addNode(k: unknown): void; addDirectedEdge(a: unknown, b: unknown): void };
const Graph = require('graphology') as new (o: object) => GGraph;
const pagerankG = require('graphology-metrics/centrality/pagerank') as (g: GGraph, o: object) => unknown;
const { bfsFromNode } = require('graphology-traversal') as { bfsFromNode(g: GGraph, n: string, cb: () => void, o: object): void };

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '22' },
    'peer-scale': { type: 'string', default: '18' },
    reps: { type: 'string', default: '3' },
    threads: { type: 'string', default: '1,2' },
    iterations: { type: 'string', default: '10' },
  },
});
const reps = Number(values.reps);
const iterations = Number(values.iterations);

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const topo = (threads: number): Topology => ({ name: `1S-${threads}t`, source: 'bench', sockets: [{ id: 0, threads }], gpus: [], interconnect: {}, model: {} });

async function timeTessera(g: TGraph, threads: number): Promise<{ prIterMs: number; bfsMs: number; bfsEdges: number }> {
  const e = await Engine.create(g, topo(threads));
  const pr: number[] = [];
  const bf: number[] = [];
  let bfsEdges = 0;
  try {
    for (let r = 0; r <= reps; r++) {
      const a = await e.run(pagerank, { iterations, damping: 0.85 });
      const b = await e.run(bfs, { source: 0 }); // internal 0 = highest degree vertex
      if (r === 0) continue; // warm-up
      pr.push(a.report.totalMs / iterations);
      bf.push(b.report.totalMs);
      bfsEdges = b.report.edgesProcessed;
    }
  } finally {
    await e.close();
  }
  return { prIterMs: median(pr), bfsMs: median(bf), bfsEdges };
}

function toGraphology(g: TGraph): GGraph {
  const G = new Graph({ type: 'directed', multi: false, allowSelfLoops: false });
  for (let v = 0; v < g.numVertices; v++) G.addNode(v);
  forEachEdge(g.out, (v, u) => G.addDirectedEdge(v, u));
  return G;
}

const log = (s: string): void => void process.stdout.write(s + '\n');
log(`# tessera CPU engine benchmark — ${os.cpus()[0]?.model} x${os.availableParallelism()}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`);

// 1. Scaling on RMAT `scale`.
{
  let t = performance.now();
  const raw = generateEdges(`rmat:${values.scale}`);
  const genMs = performance.now() - t;
  t = performance.now();
  const g = buildGraph(raw);
  const buildMs = performance.now() - t;
  log(`\nRMAT scale ${values.scale}: ${g.numVertices} vertices, ${g.numEdges} edges (generate ${genMs.toFixed(0)} ms, build ${buildMs.toFixed(0)} ms)`);
  log(`| threads | PR ms/iter | PR edges/s | BFS ms | BFS TEPS (E/time) |`);
  log(`|---|---|---|---|---|`);
  const rows: Array<{ threads: number; prIterMs: number; bfsMs: number }> = [];
  for (const threads of values.threads.split(',').map(Number)) {
    const r = await timeTessera(g, threads);
    rows.push({ threads, ...r });
    log(`| ${threads} | ${r.prIterMs.toFixed(1)} | ${((g.numEdges / r.prIterMs) * 1e3 / 1e6).toFixed(1)} M | ${r.bfsMs.toFixed(1)} | ${((g.numEdges / r.bfsMs) * 1e3 / 1e6).toFixed(1)} M |`);
  }
  if (rows.length >= 2) {
    log(`speed-up ${rows[0]!.threads}->${rows.at(-1)!.threads} threads: PR ${(rows[0]!.prIterMs / rows.at(-1)!.prIterMs).toFixed(2)}x, BFS ${(rows[0]!.bfsMs / rows.at(-1)!.bfsMs).toFixed(2)}x`);
  }
}

// 2. tessera vs graphology on the same graph.
{
  const g = buildGraph(generateEdges(`rmat:${values['peer-scale']}`));
  const G = toGraphology(g);
  const threads = Math.min(2, os.availableParallelism());
  const r = await timeTessera(g, threads);
  const gp: number[] = [];
  const gb: number[] = [];
  for (let k = 0; k <= reps; k++) {
    let t = performance.now();
    try {
      pagerankG(G, { alpha: 0.85, maxIterations: iterations, tolerance: -1 });
    } catch {
      // tolerance -1 never converges: graphology throws after maxIterations, the work is done.
    }
    const prMs = (performance.now() - t) / iterations;
    t = performance.now();
    let seen = 0;
    bfsFromNode(G, '0', () => void seen++, { mode: 'outbound' });
    const bfsMs = performance.now() - t;
    if (k === 0) continue;
    gp.push(prMs);
    gb.push(bfsMs);
  }
  log(`\nRMAT scale ${values['peer-scale']} (${g.numEdges} edges): tessera ${threads} threads vs graphology (1 thread, same run)`);
  log(`| program | tessera ms | graphology ms | ratio |`);
  log(`|---|---|---|---|`);
  log(`| PR per iteration | ${r.prIterMs.toFixed(2)} | ${median(gp).toFixed(2)} | ${(median(gp) / r.prIterMs).toFixed(1)}x |`);
  log(`| BFS | ${r.bfsMs.toFixed(2)} | ${median(gb).toFixed(2)} | ${(median(gb) / r.bfsMs).toFixed(1)}x |`);
}
