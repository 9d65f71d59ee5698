/**
 * Graph pipeline benchmark: RMAT generation, page building, .tsr write and read, edge-list text.
 *
 *   node dist/bench/graph-build.js [--scale 20] [--edge-factor 16] [--pipeline memory|text|both]
 *                                  [--threads N] [--gen-threads N] [--reps 1] [--peer MODULE]
 *                                  [--undirected]
 *                                  [--dir DIR] [--json FILE] [--keep]
 *
 * --peer MODULE: a module exporting buildGraph (e.g. a copy of an older builder compiled outside
 *   the repo) whose memory pipeline runs in the same session, alternating with ours, `--reps`
 *   times each; the report gives medians and our/peer ratios. --threads is passed to our builder,
 *   --gen-threads to generateEdges (both pipelines' runs: 1 = the generator before threads).
 *
 * memory pipeline (one child process): generate RMAT in memory -> buildGraph -> writeTsr; then a
 *   fresh child reads the .tsr back.
 * text pipeline (the end-to-end conversion): a child generates straight to an .el text file
 *   (streamed); a fresh child reads the .el, builds and writes a .tsr; a fresh child reads the .tsr.
 *
 * Each step reports wall time, edges/s where it makes sense, and peak RSS
 * (process.resourceUsage().maxRSS). maxRSS only grows within a process, so steps that share a
 * child report the peak up to the end of that step; every pipeline starts in a fresh child so the
 * numbers do not carry over. "B/edge" is peak RSS divided by the generated (raw) edges.
 * Default scale is 20; defaults pipeline: both.
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median } from 'simple-statistics';
import type { buildGraph as BuildFn, BuildOptions } from '../src/graph/build.js';
import { generateEdges, generateToEdgeList } from '../src/graph/generate/index.js';
import { readGraphFile } from '../src/graph/readers/index.js';
import { readTsr, writeTsr } from '../src/graph/tsr.js';

interface Step {
  step: string;
  ms: number;
  /** Edges the step processed (raw edges for generate/read/build, stored edges for tsr). */
  edges?: number;
  /** Peak RSS of the process so far, bytes. */
  peakRss: number;
  /** Bytes written or read, where relevant. */
  bytes?: number;
  note?: string;
}

const peak = (): number => process.resourceUsage().maxRSS * 1024;

function timed<T>(fn: () => T): [T, number] {
  const t = performance.now();
  const r = fn();
  return [r, performance.now() - t];
}

async function timedAsync<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now();
  const r = await fn();
  return [r, performance.now() - t];
}

// ---------------------------------------------------------------------------------------------
// child steps (each run in a fresh process)

interface ChildOpts {
  /** Module exporting buildGraph (default: ours). */
  builder?: string;
  threads?: number;
  genThreads?: number;
  undirected?: boolean;
}

async function loadBuilder(builder: string | undefined): Promise<typeof BuildFn> {
  const mod = (await import(builder ? path.resolve(builder) : '../src/graph/build.js')) as { buildGraph: typeof BuildFn };
  return mod.buildGraph;
}

async function childMain(kind: string, spec: string, dir: string, co: ChildOpts): Promise<Step[]> {
  const steps: Step[] = [];
  const buildGraph = await loadBuilder(co.builder);
  const phases: string[] = [];
  const bopts: BuildOptions = {
    ...(co.threads ? { threads: co.threads } : {}),
    ...(co.undirected ? { directed: false } : {}),
    onPhase: (p, ms) => phases.push(`${p} ${(ms / 1000).toFixed(2)} s`),
  };
  const tsr = path.join(dir, kind === 'memory' ? 'memory.tsr' : 'text.tsr');
  const el = path.join(dir, 'graph.el');
  steps.push({ step: 'process start', ms: 0, peakRss: peak() });
  if (kind === 'memory') {
    const [raw, genMs] = timed(() => generateEdges(spec, co.genThreads ? { threads: co.genThreads } : {}));
    const m = raw.src.length;
    steps.push({ step: 'generate RMAT (memory)', ms: genMs, edges: m, peakRss: peak() });
    const [g, buildMs] = timed(() => buildGraph(raw, bopts));
    steps.push({
      step: 'buildGraph',
      ms: buildMs,
      edges: m,
      peakRss: peak(),
      note: `${g.numVertices} vertices, ${g.numEdges} edges kept, ${g.out.pages.length}+${g.in.pages.length} pages${phases.length ? `; ${phases.join(', ')}` : ''}`,
    });
    const [, wMs] = await timedAsync(() => writeTsr(g, tsr));
    steps.push({ step: 'writeTsr', ms: wMs, edges: g.numEdges, bytes: (await stat(tsr)).size, peakRss: peak() });
  } else if (kind === 'read-tsr') {
    const file = path.join(dir, spec);
    const [g, rMs] = await timedAsync(() => readTsr(file));
    steps.push({ step: `readTsr (${spec}, verified)`, ms: rMs, edges: g.numEdges, bytes: (await stat(file)).size, peakRss: peak() });
    const [, r2] = await timedAsync(() => readTsr(file, { verify: false }));
    steps.push({ step: `readTsr (${spec}, verify: false; second read, same process)`, ms: r2, edges: g.numEdges, peakRss: peak() });
  } else if (kind === 'gen-el') {
    const [r, ms] = await timedAsync(() => generateToEdgeList(spec, el));
    steps.push({ step: 'generate RMAT -> .el text (streamed)', ms, edges: r.edges, bytes: r.bytes, peakRss: peak() });
  } else if (kind === 'el-to-tsr') {
    const [{ raw }, rMs] = await timedAsync(() => readGraphFile(el, {}));
    const m = raw.src.length;
    steps.push({ step: 'read .el', ms: rMs, edges: m, bytes: (await stat(el)).size, peakRss: peak() });
    const [g, bMs] = timed(() => buildGraph(raw, bopts));
    steps.push({ step: 'buildGraph', ms: bMs, edges: m, peakRss: peak(), note: `${g.numVertices} vertices, ${g.numEdges} edges kept${phases.length ? `; ${phases.join(', ')}` : ''}` });
    const [, wMs] = await timedAsync(() => writeTsr(g, tsr));
    steps.push({ step: 'writeTsr', ms: wMs, edges: g.numEdges, bytes: (await stat(tsr)).size, peakRss: peak() });
  } else {
    throw new Error(`unknown child step ${kind}`);
  }
  return steps;
}

function runChild(kind: string, spec: string, dir: string, co: ChildOpts = {}): Promise<Step[]> {
  const extra = [
    ...(co.builder ? ['--builder', co.builder] : []),
    ...(co.threads ? ['--threads', String(co.threads)] : []),
    ...(co.genThreads ? ['--gen-threads', String(co.genThreads)] : []),
    ...(co.undirected ? ['--undirected'] : []),
  ];
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--child', kind, '--spec', spec, '--dir', dir, ...extra], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: Step[] | undefined;
    let error: string | undefined;
    child.on('message', (m: { steps?: Step[]; error?: string }) => {
      if (m.steps) result = m.steps;
      if (m.error) error = m.error;
    });
    child.on('exit', (code, signal) => {
      if (result) resolve(result);
      else reject(new Error(error ?? `child ${kind} exited with ${signal ?? code}`));
    });
  });
}

// ---------------------------------------------------------------------------------------------
// report

function fmtBytes(b: number): string {
  return b >= 2 ** 30 ? `${(b / 2 ** 30).toFixed(2)} GiB` : `${(b / 2 ** 20).toFixed(0)} MiB`;
}

function table(title: string, steps: Step[], rawEdges: number): string {
  const lines = [
    `### ${title}`,
    '',
    '| step | time (s) | M edges/s | peak RSS | B/raw edge at peak | B/raw edge above process start | size | note |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  let base = 0;
  for (const s of steps) {
    if (s.step === 'process start') base = s.peakRss;
    const rate = s.edges && s.ms > 0 ? (s.edges / s.ms / 1e3).toFixed(1) : '';
    lines.push(
      `| ${s.step} | ${(s.ms / 1000).toFixed(2)} | ${rate} | ${fmtBytes(s.peakRss)} | ${(s.peakRss / rawEdges).toFixed(1)} | ${((s.peakRss - base) / rawEdges).toFixed(1)} | ${s.bytes ? fmtBytes(s.bytes) : ''} | ${s.note ?? ''} |`,
    );
  }
  return lines.join('\n');
}

const stepSum = (steps: Step[]): number => steps.reduce((s, x) => s + x.ms, 0);
const maxPeak = (steps: Step[]): number => Math.max(...steps.map((x) => x.peakRss));

/** Medians over repeated memory-pipeline runs, ours and (when given) the peer's, with ratios. */
function summary(ours: Step[][], peers: Step[][], rawEdges: number, peer: string | undefined): string {
  const of = (runs: Step[][], step: string, f: (s: Step) => number): number => median(runs.map((r) => f(r.find((s) => s.step === step)!)));
  const rate = (s: Step): number => s.edges! / s.ms / 1e3;
  const rows: Array<[string, (runs: Step[][]) => number, string]> = [
    ['generate (M edges/s)', (r) => of(r, 'generate RMAT (memory)', rate), 'higher is better'],
    ['buildGraph (M edges/s)', (r) => of(r, 'buildGraph', rate), 'higher is better'],
    ['buildGraph (s)', (r) => of(r, 'buildGraph', (s) => s.ms / 1000), ''],
    ['peak RSS after build (B/raw edge)', (r) => of(r, 'buildGraph', (s) => s.peakRss / rawEdges), 'lower is better'],
    ['generate + build + write .tsr (s)', (r) => median(r.map(stepSum)) / 1000, ''],
  ];
  const lines = [
    `### medians over ${ours.length} run${ours.length === 1 ? '' : 's'}${peer ? `, alternating with the peer builder ${peer}` : ''}`,
    '',
    peer ? '| measure | ours | peer | ours / peer | |' : '| measure | ours | |',
    peer ? '| --- | ---: | ---: | ---: | --- |' : '| --- | ---: | --- |',
  ];
  for (const [name, f, note] of rows) {
    const a = f(ours);
    if (!peer) lines.push(`| ${name} | ${a.toFixed(2)} | ${note} |`);
    else {
      const b = f(peers);
      lines.push(`| ${name} | ${a.toFixed(2)} | ${b.toFixed(2)} | ${(a / b).toFixed(2)} | ${note} |`);
    }
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      scale: { type: 'string', default: '20' },
      'edge-factor': { type: 'string', default: '16' },
      pipeline: { type: 'string', default: 'both' },
      dir: { type: 'string' },
      json: { type: 'string' },
      keep: { type: 'boolean', default: false },
      child: { type: 'string' },
      spec: { type: 'string' },
      builder: { type: 'string' },
      threads: { type: 'string' },
      'gen-threads': { type: 'string' },
      undirected: { type: 'boolean', default: false },
      reps: { type: 'string', default: '1' },
      peer: { type: 'string' },
    },
  });
  const co: ChildOpts = {
    threads: values.threads ? Number(values.threads) : undefined,
    genThreads: values['gen-threads'] ? Number(values['gen-threads']) : undefined,
    undirected: values.undirected,
  };
  if (values.child) {
    try {
      const steps = await childMain(values.child, values.spec!, values.dir!, { ...co, builder: values.builder });
      process.send!({ steps });
    } catch (e) {
      process.send!({ error: (e as Error).message });
      process.exitCode = 1;
    }
    return;
  }
  const scale = Number(values.scale);
  const ef = Number(values['edge-factor']);
  const spec = `rmat:${scale}:ef=${ef}`;
  if (values.threads !== undefined && !(Number(values.threads) >= 1)) throw new Error(`--threads ${values.threads}: give a positive integer`);
  const rawEdges = ef * 2 ** scale;
  const dir = values.dir ?? (await mkdtemp(path.join(os.tmpdir(), 'tessera-bench-')));
  const pipe = values.pipeline;
  const out: Record<string, Step[]> = {};
  const md: string[] = [
    `## Graph pipeline: ${spec} (${rawEdges.toLocaleString('en-US')} raw edges)`,
    '',
    `node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}${co.undirected ? '; built undirected' : ''}`,
    '',
  ];
  try {
    if (pipe === 'memory' || pipe === 'both') {
      process.stderr.write(`memory pipeline: ${spec}...\n`);
      const reps = Math.max(1, Number(values.reps));
      try {
        const ours: Step[][] = [];
        const peers: Step[][] = [];
        for (let r = 0; r < reps; r++) {
          ours.push(await runChild('memory', spec, dir, co));
          if (values.peer) peers.push(await runChild('memory', spec, dir, { undirected: co.undirected, genThreads: co.genThreads, builder: values.peer }));
        }
        const b = await runChild('read-tsr', 'memory.tsr', dir);
        out.memory = [...ours[ours.length - 1]!, ...b];
        const thr = [co.genThreads ? `generate threads: ${co.genThreads}` : '', co.threads ? `build threads: ${co.threads}` : ''].filter((x) => x).join(', ');
        const title = `in memory: generate -> build -> .tsr${thr ? ` (${thr})` : ''}; fresh process: read .tsr`;
        md.push(table(reps > 1 ? `${title} (last of ${reps} runs)` : title, out.memory, rawEdges), '');
        md.push(`convert in memory (generate + build + write .tsr, one process): ${(stepSum(ours[ours.length - 1]!) / 1000).toFixed(1)} s, peak RSS ${fmtBytes(maxPeak(ours[ours.length - 1]!))}`, '');
        if (reps > 1 || values.peer) {
          md.push(summary(ours, peers, rawEdges, values.peer), '');
          out.memoryRuns = ours.flat();
          if (values.peer) out.peerRuns = peers.flat();
        }
      } catch (e) {
        md.push(`memory pipeline failed: ${(e as Error).message}`, '');
        process.exitCode = 1;
      }
    }
    if (pipe === 'text' || pipe === 'both') {
      process.stderr.write(`text pipeline: ${spec} -> .el -> .tsr...\n`);
      try {
        const a = await runChild('gen-el', spec, dir);
        const b = await runChild('el-to-tsr', spec, dir, co);
        const c = await runChild('read-tsr', 'text.tsr', dir);
        out.text = [...a, ...b, ...c];
        const total = [...a, ...b].reduce((s, x) => s + x.ms, 0);
        md.push(table('end to end, a fresh process per group: generate -> .el | read .el -> build -> .tsr | read .tsr', out.text, rawEdges), '');
        md.push(`end-to-end conversion time (generate .el + read + build + write .tsr): ${(total / 1000).toFixed(1)} s; peak RSS converting .el -> .tsr: ${fmtBytes(maxPeak(b))}`, '');
      } catch (e) {
        md.push(`text pipeline failed: ${(e as Error).message}`, '');
        process.exitCode = 1;
      }
    }
  } finally {
    if (!values.keep && values.dir === undefined) await rm(dir, { recursive: true, force: true });
  }
  process.stdout.write(md.join('\n') + '\n');
  if (values.json) await writeFile(values.json, JSON.stringify({ spec, rawEdges, steps: out }, null, 2) + '\n');
}

await main();
