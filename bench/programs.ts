/**
 * Per-program benchmark (issues 4 and 5): edges processed per second for every program on a
 * Graph500 RMAT graph and on soc-Epinions1, on one CPU socket actor with a fixed thread count.
 * One Engine per graph (actors started once); each cell is one warm-up run, then the median of
 * --reps runs. The peer, measured in the same run, is the program's serial reference
 * (src/programs/reference) on the same parameters: its time gives the speed-up column, and its
 * values check the engine's (a benchmark of wrong answers is worthless).
 *
 *   node dist/bench/programs.js [--scale 20] [--reps 5] [--threads 2] [--programs bfs,pr,...]
 *       [--graphs rmat,snap] [--bc-sources 16] [--iterations 10] [--peer-reps 1] [--out]
 *
 * SSSP runs on the weighted twin of the RMAT graph (rmat:S:weighted, same edges, weights in
 * (0, 1]); the other programs on the unweighted one. soc-Epinions1 has no weights: SSSP there
 * measures hop distances. bfs and sssp start at the vertex of highest out-degree; bc uses a
 * fixed sample (--bc-sources K, --seed).
 *
 * Columns: supersteps; median ms (the engine's run time, actors already started); edges
 * processed per second (the engine's edge count: every edge a kernel touched, summed over
 * supersteps, divided by the median time). For bfs also Graph500-style TEPS: the edges of the
 * traversed component over the time (Graph500 spec, "TEPS": input edges in the BFS tree's
 * component; here, out-edges of the reached vertices, each undirected edge counted once; the
 * builder has already dropped self-loops and duplicates, which Graph500 would count).
 *
 * --out writes bench/results/programs-<date>.json (every repetition, machine, load average).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Engine } from '../src/engine/coordinator.js';
import { loadGraph } from '../src/graph/load.js';
import type { Graph } from '../src/graph/types.js';
import { findProgram, PROGRAMS as BUILTINS } from '../src/programs/index.js';
import { prepareRun } from '../src/api.js';
import type { Topology } from '../src/topology/schema.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const { values: a } = parseArgs({
  options: {
    scale: { type: 'string', default: '20' },
    reps: { type: 'string', default: '5' },
    threads: { type: 'string', default: '2' },
    programs: { type: 'string', default: 'bfs,pr,sssp,wcc,cdlp,lcc,bc' },
    graphs: { type: 'string', default: 'rmat,snap' },
    snap: { type: 'string', default: path.resolve(ROOT, 'test/data/snap/soc-Epinions1.txt.gz') },
    'bc-sources': { type: 'string', default: '16' },
    seed: { type: 'string', default: '1' },
    iterations: { type: 'string', default: '10' },
    'peer-reps': { type: 'string', default: '1' },
    out: { type: 'boolean', default: false },
  },
});

function positiveInt(name: string, v: string, min = 1): number {
  const x = Number(v);
  if (!Number.isSafeInteger(x) || x < min) {
    process.stderr.write(`programs bench: --${name} must be an integer >= ${min}, got '${v}'\n`);
    process.exit(1);
  }
  return x;
}

const scale = positiveInt('scale', a.scale);
const reps = positiveInt('reps', a.reps);
const threads = positiveInt('threads', a.threads);
const bcSources = positiveInt('bc-sources', a['bc-sources']);
const seed = positiveInt('seed', a.seed, 0);
const iterations = positiveInt('iterations', a.iterations);
const peerReps = positiveInt('peer-reps', a['peer-reps'], 0);
const PROGRAMS = BUILTINS.map((p) => p.name as string);
const programs = a.programs.split(',').map((s) => s.trim());
for (const p of programs) if (!PROGRAMS.includes(p)) (process.stderr.write(`programs bench: unknown program '${p}' (use ${PROGRAMS.join(',')})\n`), process.exit(1));
const graphKinds = a.graphs.split(',').map((s) => s.trim());

const topology: Topology = { name: `1S-${threads}t`, source: 'bench', sockets: [{ id: 0, threads }], gpus: [], interconnect: {}, model: {} };

type Values = ArrayLike<number>;
type Params = Record<string, unknown>;

/** Floats are summed in another order than the reference: compare relatively. */
const TOLERANCE = 1e-6;
function disagreements(got: Values, want: Values): number {
  let bad = 0;
  for (let v = 0; v < want.length; v++) {
    const x = got[v]!;
    const y = want[v]!;
    if (x !== y && !(Math.abs(x - y) <= TOLERANCE * Math.max(Math.abs(x), Math.abs(y)))) bad++;
  }
  return bad + Math.abs(got.length - want.length);
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Graph500-style traversed edges of a BFS: out-edges of the reached vertices (undirected: halved). */
function componentEdges(g: Graph, depth: Values): number {
  let m = 0;
  for (let v = 0; v < g.numVertices; v++) if (depth[v]! >= 0) m += g.outDegree[v]!;
  return g.directed ? m : m / 2;
}

interface Row {
  program: string;
  graph: string;
  vertices: number;
  edges: number;
  supersteps: number;
  medianMs: number;
  runsMs: number[];
  edgesProcessed: number;
  edgesPerSec: number;
  /** bfs: edges in the traversed component, and those per second. */
  componentEdges?: number;
  graph500Teps?: number;
  peerMs?: number;
  speedup?: number;
  /** Vertices whose value differs from the serial reference (0 = correct). */
  mismatches?: number;
}

const rows: Row[] = [];
const log = (s: string): void => void process.stdout.write(s + '\n');
const M = (x: number): string => (x >= 1e9 ? `${(x / 1e9).toFixed(2)} G` : x >= 1e6 ? `${(x / 1e6).toFixed(1)} M` : x >= 1e3 ? `${(x / 1e3).toFixed(1)} k` : x.toFixed(0));

async function benchGraph(spec: string, label: string, names: string[]): Promise<void> {
  if (names.length === 0) return;
  const { graph: g, loadMs } = await loadGraph(spec);
  log(`${label}: ${g.numVertices} vertices, ${g.numEdges} edges${g.weightType ? ` (${g.weightType} weights)` : ''}, ${g.out.pages.length} out-pages, loaded in ${(loadMs / 1000).toFixed(1)} s`);
  const source = g.ids.toOriginal[0]!; // degree renumbering: internal 0 has the highest out-degree
  const engine = await Engine.create(g, topology);
  try {
    for (const name of names) {
      const program = findProgram(name);
      // The options this script sets, for the programs that take them.
      const given: Params = { source, iterations, damping: 0.85, sources: bcSources, seed };
      const { params } = prepareRun(g, program, Object.fromEntries(Object.entries(given).filter(([k]) => k in program.params)));
      const times: number[] = [];
      let last: Awaited<ReturnType<Engine['run']>> | undefined;
      for (let r = 0; r <= reps; r++) {
        const out = await engine.run(program, params);
        if (r > 0) times.push(out.report.totalMs); // r = 0 is the warm-up
        last = out;
      }
      const { values, report } = last!;
      const med = median(times);
      const row: Row = {
        program: name,
        graph: label,
        vertices: g.numVertices,
        edges: g.numEdges,
        supersteps: report.supersteps,
        medianMs: med,
        runsMs: times,
        edgesProcessed: report.edgesProcessed,
        edgesPerSec: report.edgesProcessed / (med / 1000),
      };
      if (name === 'bfs') {
        row.componentEdges = componentEdges(g, values);
        row.graph500Teps = row.componentEdges / (med / 1000);
      }
      if (peerReps > 0 && program.reference !== undefined) {
        const peer: number[] = [];
        let want: Values = [];
        for (let r = 0; r < peerReps; r++) {
          const t0 = performance.now();
          want = (program.reference as (g: Graph, p: unknown) => Values)(g, params);
          peer.push(performance.now() - t0);
        }
        row.peerMs = median(peer);
        row.speedup = row.peerMs / med;
        row.mismatches = disagreements(values, want);
      }
      rows.push(row);
      progress(`  ${name}: ${row.supersteps} supersteps, median ${med.toFixed(1)} ms, ${M(row.edgesPerSec)} edges/s${row.peerMs === undefined ? '' : `, reference ${row.peerMs.toFixed(0)} ms`}`);
    }
  } finally {
    await engine.close();
  }
}

/** Per-cell progress on stderr while the table (stdout) waits for every row. */
const progress = (s: string): void => void process.stderr.write(s + '\n');

function printTable(): void {
  log('\n| program | graph | supersteps | median ms | edges processed | edges/s | Graph500 TEPS (bfs) | serial ref ms | speed-up | check |');
  log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) printRow(r);
}

function printRow(r: Row): void {
  const check = r.mismatches === undefined ? '-' : r.mismatches === 0 ? 'ok' : `${r.mismatches} differ`;
  log(
    `| ${r.program} | ${r.graph} | ${r.supersteps} | ${r.medianMs.toFixed(1)} | ${M(r.edgesProcessed)} | ${M(r.edgesPerSec)} | ` +
      `${r.graph500Teps === undefined ? '' : M(r.graph500Teps)} | ${r.peerMs === undefined ? '-' : r.peerMs.toFixed(1)} | ` +
      `${r.speedup === undefined ? '-' : `${r.speedup.toFixed(2)}x`} | ${check} |`,
  );
}

const load0 = os.loadavg();
log(
  `# tessera per-program benchmark — ${os.cpus()[0]?.model} x${os.availableParallelism()}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ` +
    `Node ${process.version}; ${threads} thread(s) on one socket actor; median of ${reps} after 1 warm-up; load average ${load0.map((x) => x.toFixed(2)).join(' ')}\n`,
);
const started = new Date();

if (graphKinds.includes('rmat')) {
  await benchGraph(`rmat:${scale}`, `rmat:${scale}`, programs.filter((p) => p !== 'sssp'));
  await benchGraph(`rmat:${scale}:weighted`, `rmat:${scale}:weighted`, programs.filter((p) => p === 'sssp'));
}
if (graphKinds.includes('snap')) await benchGraph(a.snap, path.basename(a.snap).replace(/\.txt\.gz$|\.gz$/, ''), programs);

printTable();
const load1 = os.loadavg();
log(`\nload average at the end: ${load1.map((x) => x.toFixed(2)).join(' ')} (other processes on the machine skew the times)`);
const bad = rows.filter((r) => r.mismatches !== undefined && r.mismatches > 0);
if (bad.length > 0) log(`WARNING: ${bad.map((r) => `${r.program} on ${r.graph}`).join(', ')} disagree with the serial reference`);

if (a.out) {
  const dir = path.join(ROOT, 'bench/results');
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `programs-${started.toISOString().slice(0, 10)}.json`);
  const machine = { cpu: os.cpus()[0]?.model, cores: os.availableParallelism(), memGiB: os.totalmem() / 2 ** 30, node: process.version, loadavgStart: load0, loadavgEnd: load1 };
  const params = { scale, reps, threads, bcSources, seed, iterations, peerReps, snap: a.snap };
  await writeFile(file, JSON.stringify({ date: started.toISOString(), machine, params, rows }, null, 2) + '\n');
  log(`wrote ${path.relative(process.cwd(), file)}`);
}
if (bad.length > 0) process.exitCode = 1;
