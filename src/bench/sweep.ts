/**
 * The sweep: graphs x topologies x programs (x alphas on CPU+GPU topologies) x repetitions, plus
 * the peers on the same graphs. Each graph is prepared once in a child process (generated or
 * read, built, saved as .tsr, plus GAPBS edge lists when that peer is used); then every cell runs
 * in its own child process that loads the .tsr, so each cell's peak RSS is its own. Finished
 * cells are appended to `cells.jsonl` and `results.json` / `results.md` are rewritten after
 * each one, so an interrupted sweep keeps everything it finished.
 */
import { findProgram } from '../programs/index.js';
import { fork, type ChildProcess } from 'node:child_process';
import { appendFile, mkdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import cliProgress from 'cli-progress';
import writeFileAtomic from 'write-file-atomic';
import { TesseraError } from '../errors.js';
import { loadTopology } from '../topology/load.js';
import type { Topology } from '../topology/schema.js';
import { programLabel, type BenchConfig, type GraphPlan, type ProgramPlan } from './config.js';
import { GRAPHOLOGY_PROGRAMS, type CellResult, type ChildMessage, type Job, type PrepareResult } from './cell.js';
import { machineInfo } from './machine.js';
import { renderMarkdown } from './markdown.js';
import { checkGapbs, gapbsCommand, runGapbs } from './peers/gapbs.js';
import { RESULT_SCHEMA, summarize, type BenchResults, type Cell, type EngineName, type GraphInfo, type PeerStatus } from './schema.js';

export interface SweepOptions {
  config: BenchConfig;
  /** Folder that receives `<timestamp>/` (default bench/results). */
  outDir: string;
  /** --peer overrides: gapbs=PATH, or graphology=off / gapbs=off. */
  peerOverrides: Record<string, string>;
  /** Progress bars on stderr (TTY) instead of one line per cell. */
  progress: boolean;
  log: (line: string) => void;
}

/** A planned cell: everything a child needs, and what the result row will say. */
interface PlannedCell {
  id: string;
  engine: EngineName;
  topology: string;
  topologyFile: string | null;
  threads: number;
  gpus: number;
  program: ProgramPlan;
  alpha: number | 'auto' | null;
  /** The sockets of a CPU+GPU topology without its GPUs: the host-only baseline of the alpha plot. */
  cpuOnly: boolean;
}

export function timestampDir(d = new Date()): string {
  return d.toISOString().slice(0, 19).replace(/:/g, '-') + 'Z';
}

const CHILD = new URL('./cell.js', import.meta.url);

/** Runs one job in a fresh child process; resolves with its result message, or throws. */
function runChild(job: Job, timeoutMs: number, onProgress: (done: number, total: number) => void, track: (c: ChildProcess | null) => void): Promise<ChildMessage> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [], { env: { ...process.env, TESSERA_BENCH_CHILD: '1' }, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    track(child);
    let stderr = '';
    let answer: ChildMessage | undefined;
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    const timer = setTimeout(() => {
      answer = { type: 'error', message: `timed out after ${(timeoutMs / 1000).toFixed(0)} s (cellTimeout in the config)`, user: false };
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('message', (m: ChildMessage) => {
      if (m.type === 'progress') onProgress(m.done, m.total);
      else answer ??= m;
    });
    child.on('error', (e) => (clearTimeout(timer), track(null), reject(e)));
    // 'close', not 'exit': it comes after the IPC channel has closed, so the child's last message
    // has been delivered ('exit' can overtake it on a loaded machine).
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      track(null);
      if (answer) return resolve(answer);
      const last = stderr.trim().split('\n').filter(Boolean).at(-1) ?? 'no message';
      const why = signal !== null ? `killed by ${signal}${signal === 'SIGKILL' ? ' (out of memory?)' : ''}` : `exit code ${code}`;
      resolve({ type: 'error', message: `child process ended without a result (${why}): ${last}`, user: false });
    });
    child.send(job);
  });
}

function graphologyAvailable(): string | null {
  const require = createRequire(import.meta.url);
  try {
    for (const m of ['graphology', 'graphology-traversal', 'graphology-metrics/centrality/pagerank', 'graphology-components', 'graphology-shortest-path/dijkstra', 'graphology-communities-louvain']) require.resolve(m);
    return null;
  } catch (e) {
    return `not installed (${(e as Error).message.split('\n')[0]}); to compare with it: npm install graphology graphology-traversal graphology-metrics graphology-components graphology-shortest-path graphology-communities-louvain (in a tessera checkout, npm ci installs them)`;
  }
}

/** Peer TEPS use tessera's processed-edge count on the same graph and program, so TEPS ratios equal time ratios. */
export function fillPeerTeps(cells: Cell[]): void {
  for (const c of cells) {
    if (c.engine === 'tessera' || c.status !== 'ok') continue;
    const ref = cells.find((t) => t.engine === 'tessera' && t.status === 'ok' && t.graph === c.graph && t.program === c.program && t.alpha === null);
    const edges = ref ? summarize(ref.samples.map((s) => s.edges ?? 0))?.median ?? null : null;
    for (const s of [...c.warmup, ...c.samples]) {
      s.edges = edges;
      s.teps = edges === null || s.ms <= 0 ? null : edges / (s.ms / 1000);
    }
    c.teps = edges === null ? null : summarize(c.samples.map((s) => s.teps!));
    c.tepsBasis = edges === null ? null : 'tessera-edges';
  }
}

export async function runSweep(o: SweepOptions): Promise<{ dir: string; results: BenchResults }> {
  const cfg = o.config;
  // Inputs first: a bad topology or an empty program list fails the sweep before its folder exists.
  if (cfg.programs.length === 0) throw new TesseraError('the sweep has no programs', { file: cfg.file, key: '--programs', fix: "name at least one of the config's programs (e.g. --programs pr,bfs:push), or leave --programs out" });
  const topologies: Array<{ file: string; t: Topology }> = [];
  for (const file of cfg.topologies) {
    const t = await loadTopology(file);
    // Cells are named by the topology's name: two files of one name would share cell ids.
    const twin = topologies.find((x) => x.t.name === t.name);
    if (twin) throw new TesseraError(`topologies ${twin.file} and ${file} are both named '${t.name}'`, { file: cfg.file, key: 'topologies', fix: 'give each topology its own name (the name: key)' });
    topologies.push({ file, t });
  }
  const dir = path.resolve(o.outDir, timestampDir());
  const cache = path.join(dir, '.graphs');
  await mkdir(cache, { recursive: true });
  const maxThreads = Math.max(...topologies.map(({ t }) => t.sockets.reduce((a, s) => a + s.threads, 0)));

  // Peers: used, disabled, or absent with the reason; never simulated.
  const peers: PeerStatus[] = [];
  const gOverride = o.peerOverrides.graphology;
  let graphology: { maxEdges: number } | null = null;
  if (gOverride === 'off' || cfg.peers.graphology === false) peers.push({ name: 'graphology', status: 'disabled', path: null, note: gOverride === 'off' ? '--peer graphology=off' : 'peers.graphology: false in the config' });
  else {
    const why = graphologyAvailable();
    if (why) peers.push({ name: 'graphology', status: 'absent', path: null, note: why });
    else {
      graphology = cfg.peers.graphology;
      peers.push({ name: 'graphology', status: 'used', path: null, note: `single-threaded JavaScript; graphs up to ${graphology.maxEdges} edges; programs ${Object.keys(GRAPHOLOGY_PROGRAMS).join(', ')}` });
    }
  }
  const gapbsPath = o.peerOverrides.gapbs === 'off' ? null : (o.peerOverrides.gapbs ? path.resolve(o.peerOverrides.gapbs) : cfg.peers.gapbs);
  let gapbs: string | null = null;
  if (gapbsPath === null) peers.push({ name: 'gapbs', status: o.peerOverrides.gapbs === 'off' ? 'disabled' : 'absent', path: null, note: 'no GAPBS build given (--peer gapbs=/path/to/gapbs or peers.gapbs in the config)' });
  else {
    const why = await checkGapbs(gapbsPath, cfg.programs);
    if (why) peers.push({ name: 'gapbs', status: 'absent', path: gapbsPath, note: why });
    else {
      gapbs = gapbsPath;
      peers.push({ name: 'gapbs', status: 'used', path: gapbsPath, note:
          `OpenMP, ${maxThreads} threads (OMP_NUM_THREADS), OMP_WAIT_POLICY=${process.env.OMP_WAIT_POLICY ?? 'unset'} ` +
          `(on a machine shared with other work, passive avoids spinning threads being descheduled); edge lists in tessera's internal ids`,
      });
    }
  }
  for (const p of peers) if (p.status !== 'used') o.log(`peer ${p.name}: ${p.status} — ${p.note}`);

  // The plan per graph (cells known up front, for the progress bar).
  const plan = (g: GraphPlan): PlannedCell[] => {
    const cells: PlannedCell[] = [];
    const add = (c: Omit<PlannedCell, 'id'>): void =>
      void cells.push({ ...c, id: [g.id, c.engine, c.topology, programLabel(c.program), c.alpha ?? '-'].join('|') });
    for (const { file, t } of topologies) {
      const threads = t.sockets.reduce((a, s) => a + s.threads, 0);
      for (const p of cfg.programs) {
        add({ engine: 'tessera', topology: t.name, topologyFile: file, threads, gpus: t.gpus.length, program: p, alpha: null, cpuOnly: false });
        if (t.gpus.length > 0 && cfg.alphas.length > 0) {
          add({ engine: 'tessera', topology: `${t.name} (CPU only)`, topologyFile: file, threads, gpus: 0, program: p, alpha: null, cpuOnly: true });
          for (const a of cfg.alphas) add({ engine: 'tessera', topology: t.name, topologyFile: file, threads, gpus: t.gpus.length, program: p, alpha: a, cpuOnly: false });
        }
      }
    }
    for (const p of cfg.programs) {
      if (graphology) add({ engine: 'graphology', topology: 'graphology (1 thread)', topologyFile: null, threads: 1, gpus: 0, program: p, alpha: null, cpuOnly: false });
      if (gapbs) add({ engine: 'gapbs', topology: `gapbs (${maxThreads} threads)`, topologyFile: null, threads: maxThreads, gpus: 0, program: p, alpha: null, cpuOnly: false });
    }
    return cells;
  };
  // The model's predicted curve per (graph, CPU+GPU topology, program), when alphas are swept.
  const modelJobs = cfg.alphas.length === 0 ? [] : topologies.filter(({ t }) => t.gpus.length > 0).flatMap(({ file, t }) => cfg.programs.map((p) => ({ file, name: t.name, program: p })));
  const plans = cfg.graphs.map((g) => ({ g, cells: plan(g) }));
  const totalSteps = plans.reduce((a, p) => a + 1 + p.cells.length + modelJobs.length, 0);

  const results: BenchResults = {
    schema: RESULT_SCHEMA,
    status: 'running',
    startedAt: new Date().toISOString(),
    finishedAt: null,
    config: { file: cfg.file, name: cfg.name, repetitions: cfg.repetitions, warmup: cfg.warmup, alphas: cfg.alphas, steal: cfg.steal, partition: cfg.partition, multiGpu: cfg.multiGpu },
    machine: await machineInfo(),
    peers,
    graphs: [],
    cells: [],
    modelCurves: [],
  };
  const save = async (): Promise<void> => {
    fillPeerTeps(results.cells);
    await writeFileAtomic(path.join(dir, 'results.json'), JSON.stringify(results, null, 1) + '\n');
    await writeFileAtomic(path.join(dir, 'results.md'), renderMarkdown(results, []));
  };
  await save();

  // Progress: an overall bar and one for the current cell's runs (TTY), else a line per cell.
  const multi = o.progress ? new cliProgress.MultiBar({ stream: process.stderr, hideCursor: true, clearOnComplete: false, fps: 4, format: '{bar} {value}/{total} {label}' }, cliProgress.Presets.shades_classic) : null;
  const overall = multi?.create(totalSteps, 0, { label: 'cells' });
  const current = multi?.create(1, 0, { label: '' });
  const log = (s: string): void => (multi ? multi.log(s + '\n') : o.log(s));
  let step = 0;
  const advance = (label: string): void => {
    step++;
    overall?.update(step, { label: `cells — ${label}` });
  };

  let child: ChildProcess | null = null;
  let interrupted = false;
  const onSigint = (): void => {
    interrupted = true;
    child?.kill('SIGKILL');
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);

  try {
    for (const { g, cells } of plans) {
      if (interrupted) break;
      const tsr = path.join(cache, `${results.graphs.length}.tsr`);
      const wantWeighted = cfg.programs.some((p) => findProgram(p.name).peers?.gapbsWeighted === true);
      const el = gapbs ? path.join(cache, `${results.graphs.length}.el`) : null;
      const wel = gapbs && wantWeighted ? path.join(cache, `${results.graphs.length}.wel`) : null;
      current?.start(1, 0, { label: `prepare ${g.id}` });
      const prep = await runChild({ type: 'prepare', graph: g, tsr, edgeList: el, weightedEdgeList: wel }, cfg.cellTimeoutMs, () => undefined, (c) => (child = c));
      if (interrupted) break;
      if (prep.type !== 'prepared') {
        const msg = prep.type === 'error' ? prep.message : 'unexpected answer';
        if (prep.type === 'error' && prep.user && results.cells.length === 0) {
          // Before the first cell: nothing measured, so no results folder is left behind.
          await rm(dir, { recursive: true, force: true });
          throw graphRefused(g.id, msg, cfg.file);
        }
        log(`graph ${g.id}: preparation failed: ${msg}; its cells are skipped`);
        advance(`skipped ${g.id}`);
        for (const c of cells) {
          results.cells.push(emptyCell(g.id, c, 'failed', `graph preparation failed: ${msg}`));
          advance(c.id);
        }
        await save();
        continue;
      }
      const pr: PrepareResult = prep.result;
      const info: GraphInfo = {
        id: g.id,
        spec: g.kind === 'file' ? path.relative(process.cwd(), g.spec) : g.spec,
        kind: g.kind,
        scale: g.scale,
        vertices: pr.vertices,
        edges: pr.edges,
        directed: pr.directed,
        weighted: pr.weighted,
        buildMs: pr.buildMs,
        buildPeakRssBytes: pr.peakRssBytes,
        source: pr.source,
      };
      results.graphs.push(info);
      advance(`prepared ${g.id}`);
      log(`graph ${g.id}: ${pr.vertices} vertices, ${pr.edges} edges, built in ${(pr.buildMs / 1000).toFixed(1)} s`);
      await save();

      for (const c of cells) {
        if (interrupted) break;
        current?.start(cfg.warmup + cfg.repetitions, 0, { label: c.id });
        const cell = await runCell(c, g, pr, tsr, el, wel, cfg, graphology, gapbs, (d) => current?.update(d), (ch) => (child = ch));
        if (interrupted && cell.status !== 'ok') break;
        results.cells.push(cell);
        await appendFile(path.join(dir, 'cells.jsonl'), JSON.stringify(cell) + '\n');
        await save();
        advance(c.id);
        const t = cell.time ? `${cell.time.median.toFixed(1)} ms` : cell.status;
        if (!multi || cell.status !== 'ok') log(`${c.id}: ${t}${cell.note ? ` (${cell.note})` : ''}`);
      }
      for (const mj of modelJobs) {
        if (interrupted) break;
        current?.start(1, 0, { label: `model ${g.id} ${mj.name} ${programLabel(mj.program)}` });
        const m = await runChild({ type: 'model', tsr, topologyFile: mj.file, program: mj.program, steps: 20, alphas: cfg.alphas.filter((a): a is number => typeof a === 'number'), sourceInternal: pr.sourceInternal }, cfg.cellTimeoutMs, () => undefined, (ch) => (child = ch));
        if (interrupted) break;
        const base = { graph: g.id, topology: mj.name, program: programLabel(mj.program) };
        results.modelCurves.push(
          m.type === 'model'
            ? { ...base, status: 'ok', note: null, points: m.result.points }
            : { ...base, status: 'unavailable', note: m.type === 'error' ? m.message : 'unexpected answer', points: [] },
        );
        await save();
        advance(`model ${mj.name} ${programLabel(mj.program)}`);
      }
      await rm(tsr, { force: true });
      if (el) await rm(el, { force: true });
      if (wel) await rm(wel, { force: true });
    }
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    multi?.stop();
    await rm(cache, { recursive: true, force: true });
  }
  results.status = interrupted ? 'interrupted' : 'complete';
  results.finishedAt = new Date().toISOString();
  fillPeerTeps(results.cells);
  const { renderPlots } = await import('./plots.js');
  const plots = await renderPlots(results, dir);
  await writeFileAtomic(path.join(dir, 'results.json'), JSON.stringify(results, null, 1) + '\n');
  await writeFileAtomic(path.join(dir, 'results.md'), renderMarkdown(results, plots));
  return { dir, results };
}

function emptyCell(graph: string, c: PlannedCell, status: Cell['status'], note: string | null): Cell {
  return {
    id: c.id,
    graph,
    engine: c.engine,
    topology: c.topology,
    topologyFile: c.topologyFile === null ? null : path.relative(process.cwd(), c.topologyFile),
    threads: c.threads,
    gpus: c.gpus,
    program: programLabel(c.program),
    params: { ...c.program.params },
    alpha: c.alpha,
    status,
    note,
    loadMs: null,
    setupMs: null,
    warmup: [],
    samples: [],
    time: null,
    teps: null,
    tepsBasis: null,
    peakRssBytes: null,
    rssMethod: null,
    finishedAt: new Date().toISOString(),
  };
}

function fromResult(cell: Cell, r: CellResult | { warmup: Cell['warmup']; samples: Cell['samples']; loadMs: number | null; setupMs: number | null; peakRssBytes: number | null }, rssMethod: string, tepsFromEngine: boolean): Cell {
  return {
    ...cell,
    status: 'ok',
    loadMs: r.loadMs,
    setupMs: r.setupMs,
    warmup: r.warmup,
    samples: r.samples,
    time: summarize(r.samples.map((s) => s.ms)),
    teps: tepsFromEngine ? summarize(r.samples.map((s) => s.teps ?? 0)) : null,
    tepsBasis: tepsFromEngine ? 'engine' : null,
    peakRssBytes: r.peakRssBytes,
    rssMethod,
  };
}

const CHILD_RSS = 'maxRSS of the cell’s own process (load .tsr + set-up + warm-up + repetitions)';

async function runCell(
  c: PlannedCell,
  g: GraphPlan,
  pr: PrepareResult,
  tsr: string,
  el: string | null,
  wel: string | null,
  cfg: BenchConfig,
  graphology: { maxEdges: number } | null,
  gapbs: string | null,
  onProgress: (done: number) => void,
  track: (c: ChildProcess | null) => void,
): Promise<Cell> {
  const base = emptyCell(g.id, c, 'ok', null);
  const common = { tsr, program: c.program, source: pr.source, warmup: cfg.warmup, reps: cfg.repetitions };
  if (c.engine === 'gapbs') {
    const cmd = gapbsCommand(c.program, { el: el!, wel: wel ?? el! }, { source: pr.sourceInternal, meanWeight: pr.meanWeight }, cfg.warmup + cfg.repetitions);
    if (cmd === null) return { ...base, status: 'skipped', note: `GAPBS has no kernel with ${c.program.name}'s semantics` };
    try {
      const r = await runGapbs(gapbs!, cmd, c.threads, cfg.warmup, cfg.cellTimeoutMs);
      onProgress(cfg.warmup + cfg.repetitions);
      const cell = fromResult(base, { ...r, setupMs: null }, 'VmHWM of the GAPBS process, sampled every 50 ms (lower bound)', false);
      const nodes = r.parsed.nodes !== null && r.parsed.nodes !== pr.vertices ? `; GAPBS sees ${r.parsed.nodes} nodes (trailing isolated vertices dropped)` : '';
      return { ...cell, note: `${cmd.binary} ${cmd.args.map((a) => (a.includes('/') ? path.basename(a) : a)).join(' ')}: ${cmd.note}${nodes}` };
    } catch (e) {
      return { ...base, status: 'failed', note: (e as Error).message };
    }
  }
  if (c.engine === 'graphology') {
    if (!(c.program.name in GRAPHOLOGY_PROGRAMS)) return { ...base, status: 'skipped', note: `graphology has no ${c.program.name} with the same semantics` };
    if (pr.edges > graphology!.maxEdges) return { ...base, status: 'skipped', note: `graph has ${pr.edges} edges, above peers.graphology.maxEdges (${graphology!.maxEdges})` };
    const m = await runChild({ type: 'graphology', ...common }, cfg.cellTimeoutMs, onProgress, track);
    if (m.type !== 'cell') return { ...base, status: 'failed', note: m.type === 'error' ? m.message : 'unexpected answer' };
    return { ...fromResult(base, m.result, CHILD_RSS + '; load = read .tsr + build the graphology graph', false), note: GRAPHOLOGY_PROGRAMS[c.program.name]! };
  }
  if (c.alpha !== null && c.gpus === 0) return { ...base, status: 'skipped', note: 'alpha applies to topologies with GPUs' };
  const m = await runChild({ type: 'tessera', ...common, topologyFile: c.topologyFile!, alpha: c.alpha, cpuOnly: c.cpuOnly, steal: cfg.steal, partition: cfg.partition, multiGpu: cfg.multiGpu }, cfg.cellTimeoutMs, onProgress, track);
  if (m.type !== 'cell') {
    // A TesseraError is a topology or program the engine refuses (e.g. GPUs before the GPU actor): skipped, not failed.
    return { ...base, status: m.type === 'error' && m.user ? 'skipped' : 'failed', note: m.type === 'error' ? m.message : 'unexpected answer' };
  }
  const cell = fromResult(base, m.result, CHILD_RSS, true);
  if (c.alpha !== null) {
    const got = summarize(m.result.samples.map((s) => s.cpuEdgeShare ?? NaN).filter((x) => !Number.isNaN(x)));
    const a = m.result.auto;
    const asked = a ? `alpha auto: the model chose ${a.strategy.toUpperCase()} alpha ${a.alpha.toFixed(3)} (predicted ${a.predictedMs.toFixed(0)} ms; choosing took ${a.modelS.toFixed(1)} s)` : `alpha ${c.alpha} requested`;
    cell.note = got ? `${asked}; measured CPU edge share ${got.median.toFixed(3)}` : `${asked}; no per-actor edges reported`;
  }
  // base.note is null: a notice alone is the note.
  if (m.result.notice !== undefined) cell.note = cell.note == null ? m.result.notice : `${cell.note}; ${m.result.notice}`;
  // The GPUs the cell ran on (a soleGpu program takes one of the topology's several).
  if (m.result.gpus !== undefined) cell.gpus = m.result.gpus;
  return cell;
}

/**
 * A graph the engine refuses (the child's one line, with its own fix): one Fix part, the child's
 * fix with the way out of the sweep beside it.
 */
function graphRefused(id: string, msg: string, file: string): TesseraError {
  const at = msg.lastIndexOf(' Fix: ');
  const problem = (at < 0 ? msg : msg.slice(0, at)).replace(/\.$/, '');
  const fix = at < 0 ? undefined : msg.slice(at + ' Fix: '.length).replace(/\.$/, '');
  return new TesseraError(`graph ${id}: ${problem}`, { file, key: 'graphs', fix: fix === undefined ? 'fix or remove this graph entry' : `${fix}; or remove this graph entry` });
}
