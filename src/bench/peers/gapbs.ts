/**
 * The GAP Benchmark Suite as a peer (Beamer, Asanović, Patterson, "The GAP Benchmark Suite",
 * arXiv:1508.03619): a user-built folder holding its kernel binaries (`make` in a gapbs checkout).
 * It runs on the same graph as tessera, written as a GAPBS edge list in tessera's internal ids,
 * with OMP_NUM_THREADS = the topology's thread count. Its own per-trial timer is parsed from the
 * output ("Trial Time:" lines); the first trial is the warm-up. Nothing of GAPBS is shipped here.
 */
import { findProgram } from '../../programs/index.js';
import { access, constants, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ProgramPlan } from '../config.js';
import { GAPBS_WEIGHT_SCALE } from '../cell.js';
import type { Sample } from '../schema.js';

export interface GapbsOutput {
  /** "Trial Time:" values in seconds, in order. */
  trials: number[];
  /** "Average Time:" (seconds), null when the run ended early. */
  average: number | null;
  /** "Read Time:" (file input) or "Generate Time:" (-g / -u), and "Build Time:", in seconds. */
  readTime: number | null;
  generateTime: number | null;
  buildTime: number | null;
  /** From "Graph has N nodes and M directed|undirected edges". */
  nodes: number | null;
  edges: number | null;
  directed: boolean | null;
  /** "Verification: PASS|FAIL" lines (-v). */
  verification: Array<'PASS' | 'FAIL'>;
  /** Lines that are not part of the known format (e.g. "Couldn't open file x"). */
  other: string[];
}

const TIME_RE = /^(Trial Time|Average Time|Read Time|Generate Time|Build Time|Verification Time|Relabel):\s+([0-9.eE+-]+)\s*$/;
const GRAPH_RE = /^Graph has (\d+) nodes and (\d+) (directed|undirected) edges/;
// PrintStep lines of the kernels' logging (-l): "   td         20     0.00004", "    i   0.00001", "Source:  1".
const STEP_RE = /^(\s*\S+\s+-?\d+\s+[0-9.eE+-]+|\s*\S+\s+[0-9.eE+-]+|\S+:\s+\S+)\s*$/;

/** Parses the standard output of a GAPBS kernel (benchmark.h BenchmarkKernel + builder/reader). */
export function parseGapbsOutput(text: string): GapbsOutput {
  const out: GapbsOutput = { trials: [], average: null, readTime: null, generateTime: null, buildTime: null, nodes: null, edges: null, directed: null, verification: [], other: [] };
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trimEnd();
    if (line === '') continue;
    const t = TIME_RE.exec(line);
    if (t) {
      const x = Number(t[2]);
      if (t[1] === 'Trial Time') out.trials.push(x);
      else if (t[1] === 'Average Time') out.average = x;
      else if (t[1] === 'Read Time') out.readTime = x;
      else if (t[1] === 'Generate Time') out.generateTime = x;
      else if (t[1] === 'Build Time') out.buildTime = x;
      continue;
    }
    const g = GRAPH_RE.exec(line);
    if (g) {
      out.nodes = Number(g[1]);
      out.edges = Number(g[2]);
      out.directed = g[3] === 'directed';
      continue;
    }
    const v = /^Verification:\s+(PASS|FAIL)\s*$/.exec(line);
    if (v) {
      out.verification.push(v[1] as 'PASS' | 'FAIL');
      continue;
    }
    if (STEP_RE.test(line)) continue;
    out.other.push(line);
  }
  return out;
}

export interface GapbsFiles {
  /** Unweighted edge list (.el), internal ids. */
  el: string;
  /** Weighted edge list (.wel), weights scaled by GAPBS_WEIGHT_SCALE. */
  wel: string;
}

/** Which GAPBS kernel runs a tessera program, and with which flags (null: no equivalent; the program's peers). */
export function gapbsCommand(
  program: ProgramPlan,
  files: GapbsFiles,
  g: { source: number; meanWeight: number },
  trials: number,
): { binary: string; args: string[]; note: string } | null {
  const gapbs = findProgram(program.name).peers?.gapbs;
  return gapbs === undefined ? null : gapbs({ params: program.params, el: files.el, wel: files.wel, source: g.source, meanWeight: g.meanWeight, weightScale: GAPBS_WEIGHT_SCALE, trials });
}

/**
 * Checks a GAPBS build folder: usable (null) when it holds a kernel one of the sweep's programs
 * runs (a tc-only sweep needs only `tc`; a program whose kernel is missing fails its cells with
 * the reason), else why not.
 */
export async function checkGapbs(dir: string, programs: readonly ProgramPlan[]): Promise<string | null> {
  const files = { el: '', wel: '' };
  const needed = [...new Set(programs.map((p) => gapbsCommand(p, files, { source: 0, meanWeight: 1 }, 1)?.binary).filter((b): b is string => b !== undefined))];
  for (const b of needed) {
    try {
      await access(path.join(dir, b), constants.X_OK);
      return null;
    } catch {
      // the next one
    }
  }
  const list = (needed.length > 0 ? needed : ['bfs']).map((b) => path.join(dir, b)).join(', ');
  return `no executable ${list} (build GAPBS with make there, or fix --peer gapbs=PATH)`;
}

export interface GapbsRun {
  warmup: Sample[];
  samples: Sample[];
  loadMs: number | null;
  peakRssBytes: number | null;
  parsed: GapbsOutput;
}

/** Peak RSS of a running process (VmHWM is its high-water mark), or null once it has gone. */
async function vmHwm(pid: number): Promise<number | null> {
  try {
    const m = /VmHWM:\s+(\d+)\s+kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Runs one GAPBS kernel with `warmup + reps` trials and splits its trial times. Peak RSS is the
 * last VmHWM read from /proc while it ran (sampled every 50 ms, so a lower bound).
 */
export async function runGapbs(
  dir: string,
  cmd: { binary: string; args: string[] },
  threads: number,
  warmup: number,
  timeoutMs: number,
): Promise<GapbsRun> {
  // execa: the timeout kills with SIGKILL; failures come back as a result (reject: false). Imported
  // here, not by every CLI command at start.
  const { execa } = await import('execa');
  const child = execa(path.join(dir, cmd.binary), cmd.args, { env: { OMP_NUM_THREADS: String(threads) }, stdin: 'ignore', timeout: timeoutMs, killSignal: 'SIGKILL', reject: false });
  let peak: number | null = null;
  const poll = setInterval(() => {
    if (child.pid !== undefined) void vmHwm(child.pid).then((x) => (peak = x ?? peak));
  }, 50);
  const r = await child.finally(() => clearInterval(poll));
  if (r.exitCode === undefined && r.signal === undefined) throw new Error(`gapbs ${cmd.binary} did not start: ${String(r.shortMessage ?? r.message ?? 'no detail').split('\n')[0]}`);
  const stdout = String(r.stdout);
  const stderr = String(r.stderr);
  const code = r.exitCode;
  const signal = r.signal;
  const parsed = parseGapbsOutput(stdout + stderr);
  if (code !== 0 || parsed.trials.length === 0) {
    const why = r.timedOut ? `killed after the ${timeoutMs / 1000} s timeout` : signal !== undefined ? `killed by ${signal}${signal === 'SIGKILL' ? ' (out of memory?)' : ''}` : `exit code ${code}`;
    throw new Error(`gapbs ${cmd.binary} failed (${why})${parsed.other[0] ?? stderr.trim().split('\n')[0] ? `: ${parsed.other[0] ?? stderr.trim().split('\n')[0]}` : ''}`);
  }
  const samples = parsed.trials.map((s): Sample => ({ ms: s * 1000, edges: null, teps: null, supersteps: null, actors: [], cpuEdgeShare: null, model: null }));
  const load = (parsed.readTime ?? parsed.generateTime ?? 0) + (parsed.buildTime ?? 0);
  return { warmup: samples.slice(0, warmup), samples: samples.slice(warmup), loadMs: load > 0 ? load * 1000 : null, peakRssBytes: peak, parsed };
}
