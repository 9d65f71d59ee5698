/** `tessera run`, `tessera demo` and `tessera topology detect`. */
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkParamNames, checkRequiredParams, flagOf, type AnyProgram } from '../engine/define.js';
import { isGeneratorSpec, MAX_SCALE, parseGeneratorSpec, specEdges } from '../graph/generate/spec.js';
import { InvalidArgumentError, type Command } from 'commander';
import type { EngineEvents } from '../engine/coordinator.js';
import type { RunResult } from '../api.js';
import type { Json } from '../engine/checkpoint.js';
import { mergeRecordedFlags, recordFlags } from './resume.js';
import { faults } from '../engine/faults.js';
import { summarize, type RunReport } from '../engine/report.js';
import type { Graph } from '../graph/types.js';
import type { ModelSummary } from '../model/index.js';
import type { Topology } from '../topology/schema.js';
import { choiceOption, floatOption, intOption, positiveOption, sizeOption } from './options.js';
import { DEFAULT_PARTITION_SEED, SMALL_GPU_BYTES, SMALL_GPU_EDGES, type MultiGpu, type RunnableStrategy } from '../engine/partition.js';
import { TesseraError } from '../errors.js';
import { hasPaths } from '../engine/paths.js';
import { inFlight } from './in-flight.js';
import { checkClashes, checkOutputDir, graphInputs, type Named } from './paths.js';

// The engine, the graph readers, the topology's schema (zod) and the checkpoints load when a
// command needs them: `tessera run` starts reading its graph, then imports the engine (~0.15 s
// on the 2-core box) while a .tsr is read on the addon's threads.

interface RunFlags {
  algo?: string;
  names?: boolean;
  header?: boolean;
  parents?: boolean;
  graph?: string;
  vertices?: string;
  undirected?: boolean;
  allowNegativeWeights?: boolean;
  source?: number | string;
  iterations?: number;
  damping?: number;
  topology?: string;
  out?: string;
  report?: string;
  pageEdges?: number;
  hostMemory?: number;
  mode?: 'push' | 'pull';
  window?: number;
  sources?: number;
  sourceList?: string;
  seed?: number;
  param: Record<string, ParamValue>;
  alpha?: number | 'auto';
  partition?: 'high' | 'low' | 'rand' | 'auto';
  multiGpu?: 'p' | 's' | 'auto';
  partitionSeed?: number;
  steal: 'auto' | 'off' | 'always';
  quiet?: boolean;
  checkpoint?: string;
  checkpointEvery?: number;
  checkpointInterval?: number;
  resume?: string;
}

/** The flags once --algo and --graph are known (given, or from the checkpoint resumed). */
type ReadyFlags = RunFlags & { algo: string; graph: string };

/** What chooseSplit hands the engine (EngineOptions fields) and the report. */
interface Split {
  gpuShare?: number;
  partition: RunnableStrategy;
  partitionSeed?: number;
  partitionPages?: 'in' | 'out';
  ownership?: Array<Array<[number, number]>>;
  multiGpu?: MultiGpu;
  summarize?: (r: RunReport) => ModelSummary;
}

/**
 * The CPU/GPU split for a GPU topology (TOTEM): alpha = the CPU sockets' fraction of the edges,
 * and the strategy: HIGH (the GPUs own the low-degree tail of the degree-ordered ids; hubs stay on
 * the CPU), LOW (the GPUs own the hubs) or RAND (the model's random page choice for the seed,
 * `--partition-seed` = `tessera model --seed`). A number is used as given; `auto` asks the
 * performance model (src/model) for the alpha (and, with --partition auto, the strategy) with the
 * smallest predicted makespan. Returns undefined when the topology (or the defaults) decide.
 */
async function chooseSplit(f: ReadyFlags, graph: Graph, topology: Topology): Promise<Split | undefined> {
  if (f.multiGpu !== undefined && topology.gpus.length < 2) {
    throw new TesseraError(`--multi-gpu shares work between GPUs, and this topology has ${topology.gpus.length === 0 ? 'none' : 'one'}`, {
      key: '--multi-gpu',
      fix: 'drop the flag, or use a topology with two GPUs or more (e.g. configs/1S2G.yaml or configs/1S2G-emulated.yaml)',
    });
  }
  if (f.partitionSeed !== undefined) {
    // Refused where it cannot apply (as --alpha and --partition), not ignored.
    if (topology.gpus.length === 0) {
      throw new TesseraError('--partition-seed seeds the rand partition between CPU sockets and GPUs, and this topology has no GPU', {
        key: '--partition-seed',
        fix: 'drop the flag, or use a topology with gpus (e.g. configs/1S1G.yaml or configs/1S1G-emulated.yaml)',
      });
    }
    const rand = f.partition === 'rand' || f.partition === 'auto' || (f.partition === undefined && f.alpha === 'auto');
    if (!rand) throw new TesseraError(`--partition-seed seeds the rand partition, and this run's partition is ${f.partition ?? 'high (the default)'}`, { key: '--partition-seed', fix: 'add --partition rand (or auto), or drop --partition-seed' });
  }
  if (f.alpha === undefined && f.partition === undefined && f.multiGpu === undefined) return undefined;
  if (topology.gpus.length === 0) {
    throw new TesseraError('--alpha and --partition split the work between CPU sockets and GPUs, and this topology has no GPU', {
      key: f.alpha !== undefined ? '--alpha' : '--partition',
      fix: 'drop the flag, or use a topology with gpus (e.g. configs/1S1G.yaml or configs/1S1G-emulated.yaml)',
    });
  }
  const seed = f.partitionSeed ?? DEFAULT_PARTITION_SEED;
  const fixed: RunnableStrategy | undefined = f.partition === 'auto' ? undefined : f.partition;
  if (f.alpha !== 'auto' && f.partition !== 'auto' && f.multiGpu !== 'auto') {
    // Nothing for the model to choose: the flags as given (--multi-gpu s: run() deals the pages).
    return {
      ...(typeof f.alpha === 'number' ? { gpuShare: 1 - f.alpha } : {}),
      partition: fixed ?? 'high',
      ...(fixed === 'rand' ? { partitionSeed: seed } : {}),
      ...(f.multiGpu !== undefined ? { multiGpu: f.multiGpu } : {}),
    };
  }
  // The model (and its calibration) loads only when asked for: other runs start without it.
  const { modelSplit } = await import('../model/split.js');
  // The rates of the mode the run is forced to (else the program's own), and the source (a
  // top-down BFS is predicted level by level).
  const { vertexIdOf } = await import('../api.js');
  const source = f.source === undefined ? undefined : vertexIdOf(graph, f.source, '--source');
  // --multi-gpu auto keeps the alpha given, else the topology's, and HIGH unless --partition names
  // one; --alpha auto and --partition auto choose what they name (and --partition auto alone, alpha too).
  const choose = f.alpha === 'auto' || f.partition === 'auto';
  const alpha = f.alpha ?? (f.partition === 'auto' ? 'auto' : undefined);
  const partition = fixed ?? (choose ? 'auto' : 'high');
  const multiGpu = f.multiGpu ?? (topology.gpus.length > 1 ? 'auto' : 'p');
  return modelSplit(graph, topology, f.algo, { partition, alpha, seed, mode: f.mode, source, multiGpu });
}

/** Graph files below this size start the sockets' threads during their load (`tessera run`). */
const PRESTART_BYTES = 1 << 30;

/** The size of the file `graph` names (undefined for a generator spec, or a file that cannot be read: the load says why). */
async function graphFileBytes(graph: string): Promise<number | undefined> {
  if (isGeneratorSpec(graph)) return undefined;
  return stat(graph).then(
    (st) => (st.isFile() ? st.size : undefined),
    () => undefined,
  );
}

/** Whether a graph (its file's `bytes`, or its generator spec) is small enough to leave a detected GPU idle: a file under SMALL_GPU_BYTES, a spec of under SMALL_GPU_EDGES edges. */
function tooSmallForGpu(graph: string, bytes: number | undefined): boolean {
  if (!isGeneratorSpec(graph)) return bytes !== undefined && bytes < SMALL_GPU_BYTES;
  try {
    return specEdges(parseGeneratorSpec(graph)) < SMALL_GPU_EDGES;
  } catch {
    return false;  // a malformed spec: the load says what is wrong
  }
}

/** `--param key=value` (repeatable) into one record. */
type ParamValue = number | string | Array<number | string>;

/** --param key=value: a number, a name (a vertex on a graph read with names), or a comma list of them. */
function collectParam(v: string, acc: Record<string, ParamValue>): Record<string, ParamValue> {
  const m = /^([A-Za-z][A-Za-z0-9]*)=(.+)$/.exec(v);
  const parts = m === null ? [] : m[2]!.split(',').map((p) => p.trim());
  if (m === null || parts.some((p) => p === '')) throw new InvalidArgumentError(`--param expects key=value or key=v1,v2,... (numbers, or vertex names), got '${v}'.`);
  if (m[1]! in acc) throw new InvalidArgumentError(`--param ${m[1]} is given twice (only one value can apply); give it once.`);
  const xs = parts.map((p) => (p === 'Infinity' ? Infinity : p === 'NaN' ? NaN : /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(p) ? Number(p) : p));
  return { ...acc, [m[1]!]: xs.length === 1 ? xs[0]! : xs };
}

/** --source: an integer is an original id; anything else a name. */
function vertexOption(v: string): number | string {
  return /^\d+$/.test(v.trim()) ? Number(v) : v;
}

/** An --algo that names a file rather than a built-in. */
function isModulePath(algo: string): boolean {
  return /[\\/]/.test(algo) || /\.(m?js|cjs)$/.test(algo);
}

/** The program a module exports (its default export, or its only exported program). */
async function programFromModule(file: string): Promise<AnyProgram> {
  const abs = path.resolve(file);
  await access(abs).catch(() => {
    throw new TesseraError('program module not found', { file, key: '--algo', fix: 'give the path of a built .js module that exports a program from defineProgram' });
  });
  let mod: Record<string, unknown>;
  try {
    mod = (await import(pathToFileURL(abs).href)) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof TesseraError) throw e;
    throw new TesseraError(`cannot load the program module: ${(e as Error).message.split('\n')[0]}`, { file, key: '--algo', fix: 'check that the module and what it imports exist (build TypeScript first)' });
  }
  const isProgram = (x: unknown): x is AnyProgram => typeof x === 'object' && x !== null && (x as AnyProgram).defined === true;
  if (isProgram(mod.default)) return mod.default;
  const found = Object.values(mod).filter(isProgram);
  if (found.length === 1) return found[0]!;
  throw new TesseraError(found.length === 0 ? 'the module exports no program' : `the module exports ${found.length} programs (${found.map((p) => p.name).join(', ')})`, {
    file,
    key: '--algo',
    fix: found.length === 0 ? 'export the result of defineProgram({ ... })' : 'make the one to run its default export',
  });
}

function alphaOption(v: string): number | 'auto' {
  if (v === 'auto') return v;
  const x = Number(v);
  if (v.trim() === '' || !(x >= 0 && x <= 1)) throw new InvalidArgumentError(`--alpha must be a number from 0 to 1 or auto, got '${v}'.`);
  return x;
}

/** Reads a bc source list: one original vertex id per line, `#`/`%` comments allowed. */
async function readSourceList(file: string, graph: Graph): Promise<Array<number | string>> {
  await access(file).catch(() => {
    throw new TesseraError('source list not found', { file, key: '--source-list', fix: 'give a file with one original vertex id per line' });
  });
  const [{ isKeyedGraph }, { readLines, readVertexFile }] = await Promise.all([import('../graphology.js'), import('../graph/readers/index.js')]);
  if (isKeyedGraph(graph)) {
    // A graph read with names: one name per line.
    const names: string[] = [];
    await readLines(file, (line) => void (line.trim() !== '' && !line.startsWith('#') && names.push(line.trim())));
    return names;
  }
  const list = await readVertexFile(file, { layout: 'id' });
  const ids: number[] = [];
  list.forEachChunk((chunk, count) => {
    for (let i = 0; i < count; i++) ids.push(chunk[i]!);
  });
  return ids;
}

/** `programs`: the built-ins' list for --algo's help (main.ts imports them only where help is asked for). */
export function registerRunCommands(program: Command, programs = 'a built-in program'): void {
  program
    .command('run')
    .description('run an algorithm on a graph with every actor of a topology')
    .option('--algo <algo|module>', `${programs}, or the path of a module exporting a program (defineProgram); required unless --resume`)
    .option('--graph <file|spec>', 'edge list (.txt/.el/.csv[.gz]), Graphalytics .e/.v, .mtx, .tsr, or rmat:SCALE / uniform:SCALE')
    .option('--vertices <file.v>', 'vertex list for an edge list: every vertex, isolated ones included (an edge naming one it lacks is an error)')
    .option('--undirected', 'treat every edge as undirected')
    .option('--names', 'edge lists: the ids are names (strings), read and written by name (default: detected)')
    .option('--no-names', 'edge lists: the ids are integers')
    .option('--header', 'edge lists: the first line is a header (default: detected)')
    .option('--no-header', 'edge lists: the first line is an edge')
    .option('--allow-negative-weights', 'accept negative edge weights (sssp still refuses them)')
    .option('--source <id>', 'source vertex for bfs/sssp: an original id, or a name on a graph read with names', vertexOption)
    .option('--iterations <n>', 'iterations for pr/cdlp', intOption('--iterations'))
    .option('--damping <d>', 'PageRank damping factor', floatOption('--damping'))
    .option('--window <w>', 'sssp update window (delta-stepping style; default: mean edge weight; Infinity: none)', floatOption('--window', true))
    .option('--sources <k>', 'bc: sample K source vertices (default: all, exact)', intOption('--sources', 1))
    .option('--source-list <file>', 'bc: source vertices, one original id per line')
    .option('--seed <n>', 'bc: seed of the source sample', intOption('--seed'))
    .option('--param <key=value>', "a parameter of the program by its name (repeatable; numbers, or a vertex id)", collectParam, {})
    .option('--topology <file|auto>', 'topology YAML, or auto to detect this machine (default: auto; with --resume, the checkpoint\'s)')
    .option('--out <file>', 'write `id value` lines, ascending original id (atomic); - for standard output')
    .option('--parents', 'bfs/sssp: a third column in --out, the parent on a shortest path (original id; the source: itself; -1: unreachable)')
    .option('--report <file.json>', 'write the run report as JSON (atomic); - for standard output')
    .option('--page-edges <n>', 'target edges per page', intOption('--page-edges', 1))
    .option('--host-memory <size>', "host memory the graph's edge pages may take (e.g. 8GiB): a larger .tsr is read from disk page by page (default: the topology's hostMemoryLimit, else none)", sizeOption('--host-memory'))
    .option('--mode <push|pull>', 'force the mode of every superstep whose kernel has it (default: chosen per superstep); supersteps that ran the other mode are counted in a notice', choiceOption('--mode', ['push', 'pull'] as const))
    .option('--alpha <x|auto>', "GPU topologies: the CPU sockets' fraction of the edges (0..1), or auto (the performance model picks)", alphaOption)
    .option('--partition <high|low|rand|auto>', 'GPU topologies: which vertices the CPU keeps (high: the hubs; low: the GPUs take them; rand: pages at random, as tessera model predicts)', choiceOption('--partition', ['high', 'low', 'rand', 'auto'] as const))
    .option('--multi-gpu <p|s|auto>', 'several GPUs: p (each owns one range of about equal edges), s (their pages dealt round-robin, state merged device to device) or auto (the performance model picks)', choiceOption('--multi-gpu', ['p', 's', 'auto'] as const))
    .option('--partition-seed <n>', 'seed of the rand partition (tessera model --seed; default 1)', intOption('--partition-seed'))
    .option('--steal <auto|off|always>', 'page stealing between actors (auto: when the model says the move pays)', choiceOption('--steal', ['auto', 'off', 'always'] as const), 'auto')
    .option('--checkpoint <dir>', 'write checkpoints of the run into DIR (atomically; removed when the run succeeds)')
    .option('--checkpoint-every <n>', 'a checkpoint every N supersteps (default: every 60 s)', intOption('--checkpoint-every', 1))
    .option('--checkpoint-interval <s>', 'a checkpoint every S seconds (default 60)', positiveOption('--checkpoint-interval'))
    .option('--resume <dir>', 'continue the run whose checkpoint is in DIR (its graph, program, parameters and outputs unless given)')
    .option('-q, --quiet', 'no summary on stdout')
    .action(async (flags: RunFlags, cmd: Command) => {
      faults(); // a misspelt TESSERA_FAULT is refused here, not ignored
      // --resume DIR: the flags the checkpointed run was started with, where none are given.
      const checkpoints = flags.resume !== undefined || flags.checkpoint !== undefined ? await import('../checkpoint.js') : undefined;
      const resumed = flags.resume !== undefined ? await checkpoints!.loadCheckpoint(flags.resume) : undefined;
      const recorded = resumed !== undefined ? checkpoints!.checkpointRecord(resumed) : undefined;
      if (recorded !== undefined) mergeRecordedFlags(flags, (recorded.extra as { flags?: Json } | null)?.flags ?? null, cmd);
      if (flags.algo === undefined || flags.graph === undefined) {
        throw new TesseraError(`${flags.algo === undefined ? '--algo' : '--graph'} is required`, { key: flags.algo === undefined ? '--algo' : '--graph', fix: 'give --algo ALGO --graph FILE, or --resume DIR to continue a checkpointed run' });
      }
      const f = flags as ReadyFlags;
      if (f.checkpoint === undefined && f.resume === undefined && (f.checkpointEvery !== undefined || f.checkpointInterval !== undefined)) {
        throw new TesseraError(`${f.checkpointEvery !== undefined ? '--checkpoint-every' : '--checkpoint-interval'} needs --checkpoint DIR`, { key: '--checkpoint', fix: 'add --checkpoint DIR (or drop the flag)' });
      }
      // Refuse an unwritable destination before the (possibly long) load and run, not after.
      await checkOutputs(f);
      if (f.parents && f.out === undefined) throw new TesseraError('--parents adds a column to the --out file, and there is no --out', { key: '--parents', fix: 'give --out FILE (or --out - for standard output)' });
      const { loadGraph } = await import('../graph/load.js');
      const load = (hostMemoryLimit: number | undefined) => {
        const p = loadGraph(f.graph!, { undirected: f.undirected, names: f.names, header: f.header, allowNegativeWeights: f.allowNegativeWeights, vertices: f.vertices, pageEdges: f.pageEdges, hostMemoryLimit });
        // A rejected load is awaited below.
        p.catch(() => undefined);
        return p;
      };
      // A resumed run goes on on the checkpoint's topology unless --topology names one.
      const topologies = await import('../topology/load.js');
      const fromCheckpoint = f.topology === undefined && recorded !== undefined;
      const text = fromCheckpoint ? undefined : await topologies.readTopologyFile(f.topology);
      // The load starts before a topology file is parsed (its YAML and schema modules, ~0.1 s on
      // the 2-core box) unless its text names hostMemoryLimit, which decides how a .tsr is read.
      const settled = f.hostMemory !== undefined || (fromCheckpoint ? recorded.topology.hostMemoryLimit === undefined : !(text ?? '').includes('hostMemoryLimit'));
      let loading = settled ? load(f.hostMemory) : undefined;
      inFlight.load = loading !== undefined;
      const loaded = fromCheckpoint ? recorded.topology : await topologies.loadTopology(f.topology, text);
      // The program, found while the graph is read (the built-ins' modules: ~60 ms of imports on
      // the 2-core box); before the GPUs open only where it decides which of several open: a
      // program that runs on one GPU of several opens only it (said once the run's parameters are
      // accepted: a refused run says one line).
      const findDef = async (): Promise<AnyProgram> => {
        const program = isModulePath(f.algo) ? await programFromModule(f.algo) : f.algo;
        return typeof program === 'string' ? (await import('../programs/index.js')).findProgram(program) : program;
      };
      // A GPU the machine has (not one a topology file names) is left idle on a small graph unless
      // a flag asks for GPUs; said once the run's parameters are accepted.
      const fileBytes = await graphFileBytes(f.graph);
      const gpuTopologies = loaded.gpus.length > 0 ? await import('../topology/sole-gpu.js') : undefined;
      const idle = !fromCheckpoint && loaded.source === 'detected' && loaded.gpus.length > 0 && f.alpha === undefined && f.partition === undefined && f.multiGpu === undefined && tooSmallForGpu(f.graph, fileBytes);
      const small = idle
        ? gpuTopologies!.idleGpusTopology(loaded, isGeneratorSpec(f.graph) ? `a graph of under ${SMALL_GPU_EDGES / 2 ** 20}M edges` : `a graph file under ${SMALL_GPU_BYTES / 2 ** 20} MiB`, '--alpha 0 runs on the GPU alone')
        : undefined;
      const base = small?.topology ?? loaded;
      const first = base.gpus.length > 1 ? await findDef() : undefined;
      const { topology, notice: sole } = first === undefined ? { topology: base, notice: undefined } : gpuTopologies!.soleGpuTopology(base, first, f.multiGpu !== undefined);
      const limit = f.hostMemory ?? topology.hostMemoryLimit;
      // (A file that set it where its text did not say so: read again under the limit.)
      if (loading === undefined || (f.hostMemory === undefined && limit !== undefined)) loading = load(limit);
      // The GPUs open while the graph is read, before the engine's modules are imported (their
      // contexts took ~0.65 s on the H200 hosts: open-gpus.ts). The sockets' threads start now
      // too where the graph is a file under PRESTART_BYTES: each thread's start (~0.1 s of node's
      // own) then runs beside the engine's imports. A larger file's load from the page cache slowed
      // about as much as that saved on the H100/H200 hosts' 16 cores (bench/results/h200-2026-11-27-cli-start,
      // h200-2026-11-29-startup): its sockets start after the load.
      const gpus = topology.gpus.length > 0 ? (await import('../engine/open-gpus.js')).openGpus(topology) : [];
      const early = new (await import('../engine/prestart.js')).Prestart(topology, [], { sockets: fileBytes !== undefined && fileBytes < PRESTART_BYTES, gpus });
      try {
        const def = first ?? (await findDef());
        // A program without safe points cannot checkpoint; a refusal exits once its line is out
        // (main.ts), the read and the GPUs' opening abandoned.
        if ((f.checkpoint !== undefined || resumed !== undefined) && def.resumable !== true) throw (await import('../engine/coordinator.js')).notResumable(def.name, resumed !== undefined);
        const output = def.output;
        if (f.parents && !hasPaths(output)) throw new TesseraError(`--parents needs a program whose output is a depth or a distance (bfs, sssp); ${f.algo} gives '${output}' values`, { key: '--parents', fix: 'drop --parents, or run bfs or sssp' });
        // The program's parameters by the flags `run` has for them (a --source-list is read once the
        // graph is there). Errors name a parameter by its flag where `run` has one, else as --param KEY.
        const byFlag: Record<string, unknown> = { source: f.source, iterations: f.iterations, damping: f.damping, window: f.window, sources: f.sources, sourceList: f.sourceList, seed: f.seed };
        const label = (k: string): string => (k in byFlag && !(k in f.param) ? flagOf(k) : `--param ${k}`);
        // A flag or --param the program does not take is refused before the run.
        checkParamNames(def, { ...byFlag, ...f.param }, label);
        // A required one missing is refused now, not after the read, where the graph cannot give it
        // (Graphalytics defaults come with .e/.v files only).
        checkRequiredParams(def, { ...byFlag, ...f.param }, !(f.graph.endsWith('.tsr') || isGeneratorSpec(f.graph)), label);
        // What the run needs besides the graph, imported meanwhile (a .tsr is read on the addon's threads).
        const [{ runOnce }, { EventEmitter }, { superstepProgress }, { writeResultToStdout }] = await Promise.all([
          import('../api.js'),
          import('eventemitter3'),
          import('./progress.js'),
          import('../engine/output.js'),
        ]);
        const { graph, defaults, loadMs, header } = await loading.finally(() => (inFlight.load = false));
        // A header line was guessed (not given): say so, with the way back.
        if (header !== undefined && f.header === undefined) process.stderr.write(`tessera: ${f.graph}: the first line (${header.join(', ')}) is a header; --no-header reads it as an edge\n`);
        const sourceList = f.sourceList === undefined ? undefined : await readSourceList(f.sourceList, graph);
        const split = await chooseSplit(f, graph, topology);
        const events = new EventEmitter<EngineEvents>();
        const stopProgress = f.quiet ? () => undefined : superstepProgress(events);
        // The program's parameters: the flags `run` has for them, then --param KEY=VALUE.
        const params: Record<string, unknown> = { ...byFlag, sourceList };
        for (const [k, v] of Object.entries(f.param)) {
          if (params[k] !== undefined) throw new TesseraError(`--param ${k} repeats ${flagOf(k)}`, { key: '--param', fix: 'give it once' });
          // One id for a list of vertices is a list of one.
          params[k] = !Array.isArray(v) && def.params[k]?.type === 'vertices' ? [v] : v;
        }
        const setup = {
          topology,
          prestart: early,
          forceMode: f.mode,
          events,
          steal: f.steal,
          gpuShare: split?.gpuShare,
          partition: split?.partition,
          partitionSeed: split?.partitionSeed,
          partitionPages: split?.partitionPages,
          ownership: split?.ownership,
          multiGpu: split?.multiGpu,
        };
        const control = {
          ...(f.checkpoint !== undefined || f.checkpointEvery !== undefined || f.checkpointInterval !== undefined
            ? { checkpoint: { dir: f.checkpoint ?? f.resume!, every: f.checkpointEvery, interval: f.checkpointInterval } }
            : {}),
          ...(f.resume !== undefined ? { resume: f.resume } : {}),
        };
        // Outputs are written before the checkpoint is removed: a failed write leaves it to resume from.
        const deliver = async (r: RunResult<number | string>): Promise<void> => {
          r.report.loadMs = loadMs;
          if (split?.summarize !== undefined) r.report.model = split.summarize(r.report);
          if (f.out === '-') await writeResultToStdout(r.graph, r.values, r.kind, f.parents ? r.parents() : undefined);
          else if (f.out !== undefined) await r.write(f.out, { parents: f.parents });
          if (f.report !== undefined) await writeJson(f.report, r.report);
        };
        const notice = (m: string): void => void process.stderr.write(`tessera: ${m}\n`);
        const r = await runOnce(graph, def, params, setup, defaults, label, control, { extra: { flags: recordFlags(f) }, notice, deliver, pending: [small?.notice, sole].filter((m): m is string => m !== undefined) }).finally(stopProgress);
        // --mode applies to the supersteps whose kernel runs that mode; any other ran its own,
        // said once here rather than refused before: which kernels run is the program's choice as it goes.
        const other = f.mode === undefined ? [] : r.report.steps.filter((s) => s.mode !== f.mode);
        if (other.length > 0) notice(`--mode ${f.mode} applies to kernels with a ${f.mode} form: ${other.length} of ${r.report.steps.length} supersteps of ${def.name} (kernel ${[...new Set(other.map((s) => s.kernel))].join(', ')}) ran ${f.mode === 'push' ? 'pull' : 'push'}`);
        // With the results on standard output, the summary goes to standard error.
        if (!f.quiet) (f.out === '-' || f.report === '-' ? process.stderr : process.stdout).write(summarize(r.report) + '\n');
      } finally {
        await early.close();
      }
    });

  program
    .command('demo')
    .description('the embedded default job: generate an RMAT graph, detect the machine, run the programs, check them, report')
    .option('--scale <s>', `RMAT scale (2^s vertices, 16 edges each; 4 to ${MAX_SCALE})`, intOption('--scale', 4, MAX_SCALE), 16)
    .option('--topology <file|auto>', 'topology YAML, or auto', 'auto')
    .option('--verbose', "the engine's run report of each program as well")
    .action(async (f: { scale: number; topology: string; verbose?: boolean }) => (await import('./demo.js')).runDemo(f.scale, f.topology, f.verbose === true));

  const topo = program.command('topology').description('topology files');
  topo
    .command('detect')
    .description('describe this machine as a topology (sockets, cores, GPUs)')
    .option('--out <file>', 'write the YAML here (atomically) instead of stdout; - for standard output')
    .action(async (f: { out?: string }) => {
      const out = f.out === '-' ? undefined : f.out;
      if (out !== undefined) await checkOutputDir(out, '--out');
      const { detectTopology, topologyToYaml } = await import('../topology/detect.js');
      const yaml = topologyToYaml(detectTopology());
      // Through a temporary file and a rename, as every output: a failed write leaves the old file.
      if (out !== undefined) await writeAtomic(out, yaml, '--out', 'the topology');
      else process.stdout.write(yaml);
    });
}

/**
 * Output paths are checked before any work: each must differ from every file the run reads (the
 * graph's, a Graphalytics graph's .v and .properties, the vertex and source lists, the topology,
 * a program module) and from the other outputs (a result written over its input, or over the
 * report, loses one of them).
 */
async function checkOutputs(f: ReadyFlags): Promise<void> {
  const outs: Named[] = [];
  if (f.out !== undefined && f.out !== '-') outs.push(['--out', f.out]);
  if (f.report !== undefined && f.report !== '-') outs.push(['--report', f.report]);
  if (f.out === '-' && f.report === '-') throw new TesseraError('--out - and --report - both write to standard output', { key: '--report', fix: 'write one of them to a file' });
  for (const [key, file] of outs) await checkOutputDir(file, key);
  const inputs: Named[] = [...(await graphInputs(f.graph))];
  if (f.vertices !== undefined) inputs.push(['--vertices', f.vertices]);
  if (f.sourceList !== undefined) inputs.push(['--source-list', f.sourceList]);
  if (f.topology !== undefined && f.topology !== 'auto') inputs.push(['--topology', f.topology]);
  if (isModulePath(f.algo)) inputs.push(['--algo', f.algo]);
  // The checkpoint folder is an output too: a file there (an input, --out) would be lost or break it.
  if (f.checkpoint !== undefined) {
    await (await import('../checkpoint.js')).checkWritableFolder(f.checkpoint);
    outs.push(['--checkpoint', f.checkpoint]);
  }
  await checkClashes(inputs, outs, (key) => (key === '--checkpoint' ? 'give --checkpoint a folder of its own' : `write ${key} to another file`));
}

/** Writes TEXT to FILE through a temporary file and a rename (write-file-atomic). */
async function writeAtomic(file: string, text: string, key: string, what: string): Promise<void> {
  const { default: writeFileAtomic } = await import('write-file-atomic');
  await writeFileAtomic(file, text).catch((e: Error) => {
    throw new TesseraError(`cannot write ${what}: ${e.message}`, { file, key, fix: 'check the directory exists and is writable' });
  });
}

/** The report as JSON: into FILE, or on standard output for `-` (as --out -). */
async function writeJson(file: string, data: unknown): Promise<void> {
  const text = JSON.stringify(data, null, 2) + '\n';
  if (file === '-') await new Promise<void>((resolve) => process.stdout.write(text, () => resolve()));
  else await writeAtomic(file, text, '--report', 'the report');
}
