/**
 * Graph pipeline benchmark: RMAT generation, page building, .tsr write and read, edge-list text.
 *
 *   node dist/bench/graph-build.js [--scale 20] [--edge-factor 16] [--pipeline memory|text|both]
 *                                  [--dir DIR] [--json FILE] [--keep]
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
import { buildGraph } from '../src/graph/build.js';
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

async function childMain(kind: string, spec: string, dir: string): Promise<Step[]> {
  const steps: Step[] = [];
  const tsr = path.join(dir, kind === 'memory' ? 'memory.tsr' : 'text.tsr');
  const el = path.join(dir, 'graph.el');
  steps.push({ step: 'process start', ms: 0, peakRss: peak() });
  if (kind === 'memory') {
    const [raw, genMs] = timed(() => generateEdges(spec));
    const m = raw.src.length;
    steps.push({ step: 'generate RMAT (memory)', ms: genMs, edges: m, peakRss: peak() });
    const [g, buildMs] = timed(() => buildGraph(raw));
    steps.push({
      step: 'buildGraph',
      ms: buildMs,
      edges: m,
      peakRss: peak(),
      note: `${g.numVertices} vertices, ${g.numEdges} edges kept, ${g.out.pages.length}+${g.in.pages.length} pages`,
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
    const [g, bMs] = timed(() => buildGraph(raw));
    steps.push({ step: 'buildGraph', ms: bMs, edges: m, peakRss: peak(), note: `${g.numVertices} vertices, ${g.numEdges} edges kept` });
    const [, wMs] = await timedAsync(() => writeTsr(g, tsr));
    steps.push({ step: 'writeTsr', ms: wMs, edges: g.numEdges, bytes: (await stat(tsr)).size, peakRss: peak() });
  } else {
    throw new Error(`unknown child step ${kind}`);
  }
  return steps;
}

function runChild(kind: string, spec: string, dir: string): Promise<Step[]> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--child', kind, '--spec', spec, '--dir', dir], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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
    },
  });
  if (values.child) {
    try {
      const steps = await childMain(values.child, values.spec!, values.dir!);
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
  const rawEdges = ef * 2 ** scale;
  const dir = values.dir ?? (await mkdtemp(path.join(os.tmpdir(), 'tessera-bench-')));
  const pipe = values.pipeline;
  const out: Record<string, Step[]> = {};
  const md: string[] = [
    `## Graph pipeline: ${spec} (${rawEdges.toLocaleString('en-US')} raw edges)`,
    '',
    `node ${process.version}, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`,
    '',
  ];
  try {
    if (pipe === 'memory' || pipe === 'both') {
      process.stderr.write(`memory pipeline: ${spec}...\n`);
      try {
        const a = await runChild('memory', spec, dir);
        const b = await runChild('read-tsr', 'memory.tsr', dir);
        out.memory = [...a, ...b];
        md.push(table('in memory: generate -> build -> .tsr; fresh process: read .tsr', out.memory, rawEdges), '');
      } catch (e) {
        md.push(`memory pipeline failed: ${(e as Error).message}`, '');
        process.exitCode = 1;
      }
    }
    if (pipe === 'text' || pipe === 'both') {
      process.stderr.write(`text pipeline: ${spec} -> .el -> .tsr...\n`);
      try {
        const a = await runChild('gen-el', spec, dir);
        const b = await runChild('el-to-tsr', spec, dir);
        const c = await runChild('read-tsr', 'text.tsr', dir);
        out.text = [...a, ...b, ...c];
        const total = [...a, ...b].reduce((s, x) => s + x.ms, 0);
        md.push(table('end to end, a fresh process per group: generate -> .el | read .el -> build -> .tsr | read .tsr', out.text, rawEdges), '');
        md.push(`end-to-end conversion time (generate .el + read + build + write .tsr): ${(total / 1000).toFixed(1)} s`, '');
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
