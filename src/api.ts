/**
 * The library surface: plain functions with options objects (graphology style).
 *
 *   const { graph } = await loadGraph('soc-Epinions1.txt.gz');
 *   const r = await run(graph, 'pr', { iterations: 20 });
 *   r.get(42)            // value of original vertex 42
 *   r.report.teps
 *
 *   const g = fromGraphology(graphologyGraph);            // see graphology.ts
 *   const bfs = await run(g, 'bfs', { source: 'alice' });
 *   bfs.get('bob'); bfs.assign(graphologyGraph, 'depth');
 *
 *   const rmat = generate('rmat:16:weighted');            // as `tessera generate`, in memory
 */
import { Engine, notResumable, type EngineOptions, type RunCheckpointing } from './engine/coordinator.js';
import { checkIdentity, loadCheckpoint, planCheckpoint, type RunControl } from './checkpoint.js';
import type { Json, LoadedCheckpoint } from './engine/checkpoint.js';
import { DEFAULT_PARTITION_SEED, gpuShareFor, SMALL_GPU_EDGES } from './engine/partition.js';
import { hasPaths, parentsOf } from './engine/paths.js';
import { nvrtcStatus } from '../actors/gpu/native.js';
import { isArrowFile, resultTable, tableBytes } from './graph/arrow.js';
import type { Table } from 'apache-arrow';
import { resolveParams, runsAs, type AnyProgram, type GraphDefaults, type InputParams, type OutputKind, type ParamSpecs, type ParamStyle, type ValuesOf } from './engine/define.js';
import { formatValue, internalId, writeBytes, writeResult } from './engine/output.js';
import type { RunReport } from './engine/report.js';
import { TesseraError } from './errors.js';
import { splitFix } from './engine/actor-errors.js';
import { buildGraph, type BuiltGraph } from './graph/build.js';
import { generateArguments, generateEdges } from './graph/generate/index.js';
import { specEdges } from './graph/generate/spec.js';
import { withTeam } from './graph/build/team.js';
import type { Graph } from './graph/types.js';
import { assignByKey, isKeyedGraph, type GraphologyLike, type KeyedGraph } from './graphology.js';
import { findProgram, type BuiltinName, type ProgramByName } from './programs/index.js';
import { resolveTopology } from './topology/load.js';
import { idleGpusTopology, soleGpuTopology } from './topology/sole-gpu.js';
import type { Topology } from './topology/schema.js';

/** A program: a built-in's name (or alias) or a definition from defineProgram. */
export type ProgramRef = BuiltinName | AnyProgram;
/** The definition a ProgramRef names. */
export type ProgramOf<P extends ProgramRef> = P extends BuiltinName ? ProgramByName[P] : P;
type IsAny<T> = 0 extends 1 & T ? true : false;
/** A program's input parameters; a program typed AnyProgram (a list, an import()) takes any record. */
type ParamsOf<P extends ProgramRef, K> = ProgramOf<P> extends { params: infer S extends ParamSpecs } ? (IsAny<S> extends true ? Record<string, unknown> : InputParams<S, K>) : never;
/** The result array of a program's output: Int32Array depths for bfs, Float64Array ranks for pr... */
export type ResultValues<P extends ProgramRef> = ProgramOf<P> extends { output: infer O extends OutputKind } ? ValuesOf<O> : never;

/** How a run is set up (not the program's parameters). */
export interface RunSetup extends Omit<EngineOptions, 'preload' | 'runs'> {
  /** A topology, a YAML path, or 'auto' (default: detect this machine). */
  topology?: Topology | string;
  /**
   * Programs (or built-in names) whose kernels the threads import while the actors start
   * (EngineOptions.preload): a session's first run of each then skips that step. `run()` names
   * its own program.
   */
  preload?: ReadonlyArray<ProgramRef | string>;
}

/** RunSetup's preload as programs (names resolved: an unknown one is refused as a run's is). */
function preloaded(setup: RunSetup, also?: AnyProgram): AnyProgram[] {
  if (setup.preload !== undefined && !Array.isArray(setup.preload))
    throw new TesseraError(`preload ${JSON.stringify(setup.preload) ?? String(setup.preload)} is not a list`, { key: 'preload', fix: "give a list of programs: names or definitions, e.g. ['bfs', 'pr']" });
  const named = (setup.preload ?? []).map((p) => (typeof p === 'string' ? findProgram(p, 'preload') : (p as AnyProgram)));
  return also === undefined ? named : [...named, also];
}

/**
 * `run`'s options: the program's parameters (required ones required) and the set-up; with
 * `defaults` (a Graphalytics graph's .properties values, from loadGraph) every parameter is optional.
 */
export type RunOptions<P extends ProgramRef = AnyProgram, K = number> =
  | (ParamsOf<P, K> & RunSetup & RunControl & { defaults?: GraphDefaults })
  | (Partial<ParamsOf<P, K>> & RunSetup & RunControl & { defaults: GraphDefaults });

/** Options given for a program with no required parameters may be left out. */
type OptsArg<P extends ProgramRef, K> = {} extends ParamsOf<P, K> ? [opts?: RunOptions<P, K>] : [opts: RunOptions<P, K>];

/** A graph that did not come from fromGraphology (its vertices are original ids). */
export type PlainGraph = Graph & { readonly keys?: never };

/**
 * Keys of RunSetup and `defaults`: everything else in run's options is a program parameter. A
 * Record, so a new engine option that is not listed here fails to compile (rather than being
 * taken for a parameter and refused).
 */
const SETUP_KEY_SET: Record<keyof RunSetup | 'defaults', true> = {
  topology: true, defaults: true, events: true, pullDivisor: true, forceMode: true, gpuShare: true, steal: true, partition: true, multiGpu: true, partitionSeed: true, partitionPages: true, ownership: true, preload: true, prestart: true, teams: true,
};
/** @internal (a test checks define.ts RESERVED_PARAMS against them) */
export const SETUP_KEYS: ReadonlySet<string> = new Set<string>(Object.keys(SETUP_KEY_SET));
/** Keys of RunControl: per run, on sessions too. */
const CONTROL_KEY_SET: Record<keyof RunControl, true> = { checkpoint: true, resume: true };
/** @internal */
export const CONTROL_KEYS: ReadonlySet<string> = new Set<string>(Object.keys(CONTROL_KEY_SET));

/** `graph` and `opts` of run() / openSession: a graph tessera made, an options object (else one line, not a TypeError). */
function checkArgs(fn: string, graph: unknown, opts: unknown): void {
  const g = graph as Partial<Graph> | null | undefined;
  if (g === null || typeof g !== 'object' || typeof g.numVertices !== 'number' || typeof g.out !== 'object' || g.out === null)
    throw new TesseraError(`${fn} takes a graph, and got ${graph === null || typeof graph !== 'object' ? String(graph) : 'an object that is not one'}`, {
      fix: 'give a graph from loadGraph, generate, fromGraphology, fromArrow or buildGraph',
    });
  checkObject(`${fn}'s options`, opts, '{ topology: "configs/1S.yaml" }');
}

/** `x` as an options or parameters object (null, an array or a primitive: one line). */
function checkObject(what: string, x: unknown, example: string): void {
  if (x === null || typeof x !== 'object' || Array.isArray(x)) throw new TesseraError(`${what} are ${Array.isArray(x) ? 'an array' : String(x)}`, { fix: `give an object, e.g. ${example}, or leave it out` });
}

/** Splits run's options into the program's parameters, the set-up and the run's checkpointing. */
export function splitOptions(opts: Readonly<Record<string, unknown>>): { params: Record<string, unknown>; setup: RunSetup; defaults: GraphDefaults | undefined; control: RunControl } {
  const params: Record<string, unknown> = {};
  const setup: Record<string, unknown> = {};
  const control: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(opts)) (SETUP_KEYS.has(k) ? setup : CONTROL_KEYS.has(k) ? control : params)[k] = v;
  const { defaults, ...rest } = setup;
  return { params, setup: rest as RunSetup, defaults: defaults as GraphDefaults | undefined, control: control as RunControl };
}

/** How the CLI drives a checkpointed run beyond RunControl. */
export interface RunDelivery {
  /** Recorded in each checkpoint (the CLI's flags, for `--resume DIR` alone). */
  extra?: Json;
  /** Says what a resumed run changed (topology), or that a program runs on fewer GPUs; default: a TesseraWarning. */
  notice?: (message: string) => void;
  /** Notices the caller found before the run (the CLI's before the load), said once its parameters are accepted. */
  pending?: string[];
  /** Called with the result before the checkpoint is removed (the CLI writes its outputs): if it throws, the checkpoint stays. */
  deliver?: (r: RunResult<number | string>) => Promise<void>;
}

const warn = (m: string): void => void process.emitWarning(m, 'TesseraWarning');

/** The checkpoint a run resumes from, checked against this graph, program and parameters. */
async function resumeFrom(control: RunControl, graph: Graph, prepared: { program: AnyProgram; params: unknown }): Promise<LoadedCheckpoint | undefined> {
  if (control.resume === undefined) return undefined;
  if (prepared.program.resumable !== true) throw notResumable(prepared.program.name, true);
  return loadCheckpoint(control.resume);
}

/**
 * The set-up with RAND's ranges, or the dealt pages of several GPUs (multiGpu 's'), filled in (the
 * engine takes them as `ownership`; the model's page choice decides them, so `tessera model`
 * predicts what runs).
 */
export async function withOwnership<S extends Omit<EngineOptions, 'preload'>>(graph: Graph, topology: Topology, setup: S): Promise<S> {
  const dealt = setup.multiGpu === 's' && topology.gpus.length > 1;
  if ((setup.partition !== 'rand' && !dealt) || setup.ownership !== undefined || topology.gpus.length === 0) return setup;
  const { modelOwnership } = await import('./model/partition.js');
  const share = gpuShareFor(graph, topology, setup.gpuShare);
  return {
    ...setup,
    ownership: modelOwnership(graph, topology, share, {
      strategy: setup.partition ?? 'high',
      multiGpu: dealt ? 's' : 'p',
      orientation: setup.partitionPages ?? 'in',
      seed: setup.partitionSeed ?? DEFAULT_PARTITION_SEED,
    }),
  };
}

/** Resolves a program reference and its parameters against a graph (original ids or node keys in). */
export function prepareRun(graph: Graph, program: ProgramRef | string, params: Readonly<Record<string, unknown>>, defaults?: GraphDefaults, style: ParamStyle = 'library'): { program: AnyProgram; params: unknown } {
  const def = typeof program === 'string' ? findProgram(program, style === 'library' ? 'program' : '--algo') : program;
  if (def === null || typeof def !== 'object' || (def as AnyProgram).defined !== true) {
    throw new TesseraError('run expects a program name or a definition from defineProgram', { fix: "pass e.g. 'pr', or defineProgram({ ... })" });
  }
  const vertexId = (v: unknown, key: string): number => vertexIdOf(graph, v, key);
  return { program: def as AnyProgram, params: resolveParams(def as AnyProgram, graph, params, vertexId, defaults, style) };
}

/**
 * The internal id of a vertex given as a parameter `key`: an original id, or a node key / name on
 * a graph with keys; otherwise one clear error naming the key.
 */
export function vertexIdOf(graph: Graph, v: unknown, key: string): number {
  if (isKeyedGraph(graph)) {
    const o = graph.keyIndex.get(String(v));
    if (o === undefined)
      throw new TesseraError(`node '${String(v)}' is not in the graph`, { key, fix: graph.writesKeys === true ? `name a vertex of ${graph.source} (names are matched exactly)` : 'name a node key of the graphology graph the tessera graph was built from' });
    return internalId(graph, o, `${key.replace(/^--/, '')} vertex`);
  }
  if (typeof v === 'string') throw new TesseraError(`${key} '${v}' is not an integer vertex id`, { key, fix: 'give an original vertex id (an integer), or read a graph whose ids are names (--names)' });
  if (typeof v !== 'number') throw new TesseraError(`${key} ${JSON.stringify(v)} is not a vertex id`, { key, fix: 'give an original vertex id (a number)' });
  return internalId(graph, v, `${key.replace(/^--/, '')} vertex`);
}

/**
 * A one-shot run of a program with GPU operators on real GPUs where NVRTC cannot load (no CUDA
 * toolkit): the run goes on the CPU sockets alone, and a warning says why the GPUs were skipped.
 * (Emulated GPUs compile operators with the host compiler: they stay.)
 */
function withoutUnusableGpus(topology: Topology, program: AnyProgram): Topology {
  if (program.operators === undefined || !topology.gpus.some((g) => !g.emulated)) return topology;
  const s = nvrtcStatus();
  if (s.ok) return topology;
  process.emitWarning(`program '${program.name}' runs on the CPU sockets only: its GPU operators need NVRTC, and ${s.reason ?? 'it does not load'} (install the CUDA toolkit's NVRTC, or set TESSERA_NVRTC to libnvrtc.so)`, 'TesseraWarning');
  return { ...topology, gpus: topology.gpus.filter((g) => g.emulated) };
}

/** The run's source for paths: the value of the program's first vertex parameter (an internal id). */
function sourceOf(prepared: { program: AnyProgram; params: unknown }): number | undefined {
  const key = Object.keys(prepared.program.params).find((k) => prepared.program.params[k]!.type === 'vertex');
  const v = key === undefined ? undefined : (prepared.params as Record<string, unknown> | undefined)?.[key];
  return typeof v === 'number' ? v : undefined;
}

/**
 * One value per vertex, read by vertex: `K` is `number` (original ids) for graphs from files of
 * ids and generators, `string` (node keys, names) for graphs from fromGraphology or read with
 * names (`number | string` when the type does not tell: loadGraph, fromArrow).
 *
 * Values: bfs depth in edges, -1 when unreachable; sssp distance, Infinity when unreachable;
 * pr rank; wcc / scc / cdlp / louvain label = an original id (`values`, `get`, `entries`; on a
 * keyed graph `graph.keys[label]` is the node key: for wcc the first node of the component in
 * graphology's node order); lcc coefficient; bc centrality. The outputs (`write`, `toArrow`,
 * `format`) name a label as they name vertices: on a graph read with names, by that name.
 *
 * A vertex that is not in the graph, or given as the wrong kind (a string on a graph of ids, a
 * number on one of names), is a TesseraError. `JSON.stringify(result)` gives its summary (toJSON).
 */
export class RunResult<K extends number | string = number, V extends Float64Array | Int32Array | Uint32Array = Float64Array | Int32Array | Uint32Array> {
  constructor(
    readonly graph: Graph,
    /** One value per internal vertex id (the program's output type: Int32Array depths, Float64Array ranks...). */
    readonly values: V,
    readonly kind: OutputKind,
    readonly report: RunReport,
    /** The run's source (internal id: the program's first vertex parameter), for paths. */
    private readonly source?: number,
  ) {}

  private tree: Int32Array | undefined;

  /**
   * Per internal id, the parent on a shortest path from the source (an internal id; the source:
   * itself; -1: unreachable), for programs whose output is a depth or a distance (bfs, sssp):
   * computed once, on demand, in one pass over the edges (engine/paths.ts).
   */
  parents(): Int32Array {
    if (this.tree !== undefined) return this.tree;
    if (!hasPaths(this.kind)) throw new TesseraError(`paths need a run whose output is a depth or a distance (bfs, sssp); this one gives '${this.kind}' values`, { fix: 'run bfs or sssp' });
    if (this.source === undefined) throw new TesseraError('paths need the run\'s source, and this program has no vertex parameter', { fix: 'give the program a parameter of type vertex' });
    return (this.tree = parentsOf(this.graph, this.values, this.kind, this.source));
  }

  /** The vertex before `vertex` on a shortest path from the source; undefined for the source and unreachable vertices. */
  parent(vertex: K): K | undefined {
    const v = this.internal(vertex);
    const p = this.parents()[v]!;
    return p < 0 || p === v ? undefined : this.external(p);
  }

  /** A shortest path from the source to `vertex`, both included (original ids or node keys); undefined when unreachable. */
  pathTo(vertex: K): K[] | undefined {
    const par = this.parents();
    let v = this.internal(vertex);
    if (par[v] === -1) return undefined;
    const path: K[] = [this.external(v)];
    for (; par[v] !== v; v = par[v]!) path.push(this.external(par[v]!));
    return path.reverse();
  }

  /** Original id (or node key) of an internal id. */
  private external(v: number): K {
    const o = this.graph.ids.toOriginal[v]!;
    return (isKeyedGraph(this.graph) ? this.graph.keys[o]! : o) as K;
  }

  /**
   * Value of a vertex: an original id, or a node key on a graph from fromGraphology (BFS: -1
   * when unreachable; SSSP: Infinity; a label: an original id, even on a graph of names). A
   * vertex not in the graph is a TesseraError.
   */
  get(vertex: K): number {
    return this.values[this.internal(vertex)]!;
  }

  /**
   * [vertex, value] pairs: ascending original id, or [key, value] in graphology's node order on
   * a graph from fromGraphology (`new Map(r.entries())` gives a Map by key).
   */
  *entries(): IterableIterator<[K, number]> {
    const g = this.graph;
    const { toOriginal, byOriginal } = g.ids;
    if (isKeyedGraph(g)) {
      // Original ids are 0..n-1: byOriginal[i] is the internal id of keys[i].
      for (let i = 0; i < byOriginal.length; i++) yield [g.keys[i]! as K, this.values[byOriginal[i]!]!];
    } else {
      for (let i = 0; i < byOriginal.length; i++) yield [toOriginal[byOriginal[i]!]! as K, this.values[byOriginal[i]!]!];
    }
  }

  /**
   * The value as the text output file writes it (BFS unreachable 9223372036854775807, SSSP
   * `infinity`; on a graph read with names a label is the name, quoted as a line quotes it).
   */
  format(vertex: K): string {
    return formatValue(this.kind, this.get(vertex), this.graph);
  }

  /**
   * What JSON.stringify writes of a result: the program, its output kind, the report's summary
   * (graph, topology name, supersteps, times, edges, TEPS, notes) and the number of values. Not
   * the values (one per vertex) nor the graph (its pages): those are `values` / `entries()` and
   * `write()`; `report` holds the per-superstep detail.
   */
  toJSON(): RunResultJson {
    const r = this.report;
    return {
      program: r.program,
      kind: this.kind,
      graph: r.graph,
      topology: r.topology.name,
      supersteps: r.supersteps,
      totalMs: r.totalMs,
      edgesProcessed: r.edgesProcessed,
      teps: r.teps,
      ...(r.loadMs !== undefined ? { loadMs: r.loadMs } : {}),
      ...(r.startMs !== undefined ? { startMs: r.startMs } : {}),
      notes: r.notes,
      valueCount: this.values.length,
    };
  }

  /**
   * Writes `id value` lines (ascending original id) atomically; with `parents`, `id value parent`
   * (the parent's original id, the source's own, -1 when unreachable: bfs, sssp). On a graph from
   * fromGraphology the ids are original ids, i.e. positions in `graph.keys` (keys may hold
   * spaces, ids never do); on a graph read with names, names (quoted when they hold a space, a
   * comma or a quote), labels and parents too.
   */
  write(file: string, opts: { parents?: boolean } = {}): Promise<void> {
    if (isArrowFile(file)) return this.toArrow(opts).then(tableBytes).then((b) => writeBytes(file, b));
    return writeResult(file, this.graph, this.values, this.kind, opts.parents === true ? this.parents() : undefined);
  }

  /**
   * The result as an Apache Arrow table, one row per vertex in ascending original id: `id`
   * (Uint32; on a graph with names or keys `name`, strings), `value` (Int32 depths, else Float64;
   * labels on a graph with names or keys: the names, strings as `name` is), and with `parents` a
   * `parent` column (bfs, sssp; -1 or null when unreachable). `write` makes an Arrow IPC file of
   * it when the file name ends in .arrow (also .arrows, .feather, .ipc).
   */
  toArrow(opts: { parents?: boolean } = {}): Promise<Table> {
    const g = this.graph;
    const keys = isKeyedGraph(g) ? g.keys : undefined;
    const parents = opts.parents === true ? this.parents() : undefined;
    return resultTable(g.ids.toOriginal, keys, this.values, g.ids.byOriginal, !(this.values instanceof Int32Array), parents, this.kind === 'label');
  }

  /**
   * Writes the result into a graphology graph as the node attribute `attribute` on every node
   * (graphology's `updateEachNodeAttributes`: other attributes are kept, one event in all), the
   * way graphology-metrics' `.assign` functions do. The values are those of `get` (BFS: -1 when
   * unreachable; SSSP: Infinity), or what `transform(value, key)` makes of them, e.g.
   * `(label) => graph.keys[label]` to store a wcc component as a node key.
   *
   * Only for graphs from fromGraphology. Every node of `target` must be in the tessera graph
   * (normally `target` is the graph it was built from); otherwise a TesseraError names the node
   * and nothing is written.
   */
  assign(this: RunResult<string, V>, target: GraphologyLike, attribute: string, transform?: (value: number, key: string) => unknown): void {
    const g = this.graph;
    if (!isKeyedGraph(g)) {
      throw new TesseraError(`assign writes into graphology graphs, and ${g.source} was not built from one`, {
        fix: 'build the tessera graph with fromGraphology(graph), or read the values with get() / entries()',
      });
    }
    const { byOriginal } = g.ids;
    const values = this.values;
    assignByKey(g, target, attribute, transform === undefined ? (o) => values[byOriginal[o]!]! : (o, key) => transform(values[byOriginal[o]!]!, key));
  }

  /** Internal id of a vertex (original id or node key); one TesseraError when there is none. */
  private internal(vertex: K): number {
    const g = this.graph;
    const { byOriginal } = g.ids;
    if (isKeyedGraph(g)) {
      // graphology turns a key given as a number into its string; so do we.
      const o = typeof vertex === 'string' || typeof vertex === 'number' ? g.keyIndex.get(String(vertex)) : undefined;
      if (o === undefined) throw this.notInGraph(vertex);
      return byOriginal[o]!;
    }
    const v = typeof vertex === 'number' ? this.byId(vertex) : undefined;
    if (v === undefined) throw this.notInGraph(vertex);
    return v;
  }

  /** Internal id of an original id on a graph of ids (binary search of the ascending original ids), if it is a vertex. */
  private byId(originalId: number): number | undefined {
    const { toOriginal, byOriginal } = this.graph.ids;
    let lo = 0;
    let hi = byOriginal.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (toOriginal[byOriginal[mid]!]! < originalId) lo = mid + 1;
      else hi = mid;
    }
    const v = byOriginal[lo];
    return v !== undefined && toOriginal[v] === originalId ? v : undefined;
  }

  /** Why `vertex` names no vertex: absent, or of the other kind (a string on a graph of ids, a number on one of names). */
  private notInGraph(vertex: unknown): TesseraError {
    const g = this.graph;
    const shown = typeof vertex === 'string' ? `'${vertex}'` : typeof vertex === 'number' ? String(vertex) : JSON.stringify(vertex) ?? String(vertex);
    if (isKeyedGraph(g)) {
      const what = g.writesKeys === true ? 'names' : 'node keys';
      const first = g.keys[0] === undefined ? '' : `, e.g. '${g.keys[0]}'`;
      if (typeof vertex !== 'string') return new TesseraError(`vertex ${shown} is not in the graph: the vertices of ${g.source} are ${what} (strings)`, { fix: `pass ${g.writesKeys === true ? 'a name' : 'a node key'}${first}` });
      // Worded as run() words a source that is not there (vertexIdOf).
      return new TesseraError(`${g.writesKeys === true ? 'vertex' : 'node'} ${shown} is not in the graph`, { fix: `name a vertex of ${g.source} (${what} are matched exactly)` });
    }
    const { toOriginal, byOriginal } = g.ids;
    const range = byOriginal.length === 0 ? 'it has no vertices' : `ids run from ${toOriginal[byOriginal[0]!]} to ${toOriginal[byOriginal[byOriginal.length - 1]!]}`;
    if (typeof vertex === 'number') return new TesseraError(`vertex ${vertex} is not in the graph`, { fix: `pass an original id that appears in ${g.source} (${range})` });
    // An id passed as a string (a parsed line, a form field): say which number to pass.
    const asId = typeof vertex === 'string' && /^\d+$/.test(vertex) ? Number(vertex) : undefined;
    return new TesseraError(`vertex ${shown} is not in the graph: the vertices of ${g.source} are original ids (numbers)`, {
      fix: asId !== undefined && this.byId(asId) !== undefined ? `pass ${asId}` : `pass an original id as a number (${range}); a graph read with names takes names`,
    });
  }
}

/** The summary JSON.stringify writes of a RunResult (RunResult.toJSON). */
export interface RunResultJson {
  program: string;
  kind: OutputKind;
  graph: RunReport['graph'];
  /** The topology's name. */
  topology: string;
  supersteps: number;
  totalMs: number;
  edgesProcessed: number;
  teps: number;
  loadMs?: number;
  startMs?: number;
  notes: RunReport['notes'];
  /** How many values the result holds (one per vertex). */
  valueCount: number;
}

// loadGraph's and fromArrow's graph type, and the key type of run's results on it (graphology.ts).
type MaybeKeyedGraph = import('./graphology.js').MaybeKeyedGraph;
type VertexOf<G extends Graph> = import('./graphology.js').VertexOf<G>;

/**
 * Runs one program on a graph with a fresh set of actors, and releases them afterwards (for
 * several runs on one graph, openSession keeps the actors warm). `program` is a built-in's name
 * or a definition from defineProgram; options are its parameters plus the set-up (topology,
 * engine options). On a graph from fromGraphology, vertex parameters are node keys and the
 * result is read by key; otherwise they are original ids.
 */
export function run<const P extends ProgramRef>(graph: KeyedGraph, program: P, ...opts: OptsArg<P, string>): Promise<RunResult<string, ResultValues<P>>>;
export function run<const P extends ProgramRef>(graph: PlainGraph, program: P, ...opts: OptsArg<P, number>): Promise<RunResult<number, ResultValues<P>>>;
/** A graph from loadGraph or fromArrow (names or ids, known when read): vertices as either. */
export function run<G extends MaybeKeyedGraph, const P extends ProgramRef>(graph: G, program: P, ...opts: OptsArg<P, VertexOf<G>>): Promise<RunResult<VertexOf<G>, ResultValues<P>>>;
export async function run(graph: Graph, program: ProgramRef, opts: Readonly<Record<string, unknown>> = {}): Promise<RunResult<number | string>> {
  checkArgs('run', graph, opts);
  const { params, setup, defaults, control } = splitOptions(opts);
  return runOnce(graph, program, params, setup, defaults, 'library', control);
}

/** run() with parameters and set-up apart (the CLI names parameters by flag in its errors). */
export async function runOnce(
  graph: Graph,
  program: ProgramRef | string,
  params: Readonly<Record<string, unknown>>,
  setup: RunSetup,
  defaults: GraphDefaults | undefined,
  style: ParamStyle,
  control: RunControl = {},
  delivery: RunDelivery = {},
): Promise<RunResult<number | string>> {
  const prepared = prepareRun(graph, program, params, defaults, style);
  if (control.checkpoint !== undefined && prepared.program.resumable !== true) throw notResumable(prepared.program.name, false);
  const resumed = await resumeFrom(control, graph, prepared);
  const notice = delivery.notice ?? warn;
  const shared = setup.multiGpu !== undefined || setup.ownership !== undefined;
  const resolved = withoutUnusableGpus(await resolveTopology(setup.topology), prepared.program);
  // A GPU the machine has (the topology detected here) stays idle on a small graph unless the set-up splits the work.
  const idle =
    typeof setup.topology !== 'object' && resolved.source === 'detected' && resolved.gpus.length > 0 && resumed === undefined && graph.numEdges < SMALL_GPU_EDGES &&
    setup.gpuShare === undefined && setup.partition === undefined && !shared;
  const small = idle ? idleGpusTopology(resolved, `a graph of under ${SMALL_GPU_EDGES / 2 ** 20}M edges`, 'gpuShare puts it to work; a session keeps the GPUs for its runs') : undefined;
  const sole = soleGpuTopology(small?.topology ?? resolved, prepared.program, shared);
  for (const m of [...(delivery.pending ?? []), small?.notice, sole.notice]) if (m !== undefined) notice(m);
  let topology = sole.topology;
  if (resumed !== undefined) checkIdentity(resumed, graph, prepared.program, prepared.params, topology);
  // RAND shuffles the pages the model does for this program: in-pages for pull programs, out-pages for push.
  const partitionPages = setup.partitionPages ?? (prepared.program.profile.mode === 'push' ? 'out' : 'in');
  const preload = preloaded(setup, runsAs(prepared.program, prepared.params, graph));
  let engine: Engine;
  const started = performance.now();
  try {
    engine = await Engine.create(graph, topology, await withOwnership(graph, topology, { ...setup, partitionPages, preload, runs: 'one' }));
  } catch (e) {
    // A resumed run whose GPUs are gone goes on on the CPU sockets (its state is all on the host).
    const key = e instanceof TesseraError ? e.details.key : undefined;
    if (resumed === undefined || key === undefined || !key.startsWith('gpus') || topology.gpus.length === 0) throw e;
    notice(`${(e as Error).message.replace(/ Fix: .*$/, '').replace(/ \(at [^)]*\)\.$/, '').replace(/\.$/, '')}; resuming on the CPU sockets only`);
    topology = { ...topology, gpus: [] };
    engine = await Engine.create(graph, topology, { ...setup, partitionPages, preload, runs: 'one', ownership: undefined, gpuShare: undefined, multiGpu: undefined });
  }
  const startMs = performance.now() - started;
  if (resumed !== undefined) {
    const moved = checkIdentity(resumed, graph, prepared.program, prepared.params, topology);
    if (moved !== undefined) notice(moved);
  }
  let ckpt: RunCheckpointing;
  let r: RunResult<number | string>;
  try {
    ckpt = await planCheckpoint(control, graph, prepared.program, prepared.params, topology, resumed, delivery.extra ?? null);
    const { values, report } = await engine.run(prepared.program, prepared.params, ckpt);
    // The same object the run-end event carried, the start added.
    report.startMs = startMs;
    r = new RunResult(graph, values, prepared.program.output, report, sourceOf(prepared));
  } finally {
    await engine.close();
  }
  await delivery.deliver?.(r);
  // The results are out: the checkpoint has served.
  await ckpt.writer?.remove();
  return r;
}

/** A session's set-up: the topology and engine options, fixed for its lifetime. */
export type SessionOptions = RunSetup;

/**
 * Actors started once for one graph and topology (workers warm, GPU pages resident), for many
 * runs: `const s = await openSession(graph, { topology: '1S' }); await s.run('bfs', { source: 1 });
 * ... await s.close();` (or `await using s = ...`). Runs on one session are sequential.
 */
export class Session<K extends number | string = number> {
  private closed = false;
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly graph: Graph,
    private readonly engine: Engine,
  ) {}

  /** @internal use openSession */
  static async open(graph: Graph, opts: SessionOptions = {}): Promise<Session<number | string>> {
    checkArgs('openSession', graph, opts);
    // A session's options are its set-up: a program's parameter here would be ignored by every run.
    const stray = Object.keys(opts).find((k) => !SETUP_KEYS.has(k) || k === 'defaults');
    if (stray !== undefined)
      throw new TesseraError(`openSession takes the set-up (topology and engine options), and '${stray}' is not one`, {
        key: stray,
        fix: `pass program parameters to session.run(program, { ${stray}: ... }); the set-up's keys: ${[...SETUP_KEYS].filter((k) => k !== 'defaults').join(', ')}`,
      });
    const topology = await resolveTopology(opts.topology);
    return new Session(graph, await Engine.create(graph, topology, await withOwnership(graph, topology, { ...opts, preload: preloaded(opts) })));
  }

  /** Runs a program (name or definition) with its parameters; vertices as original ids or node keys. */
  run<const P extends ProgramRef>(program: P, ...params: OptsArg<P, K>): Promise<RunResult<K, ResultValues<P>>>;
  async run(program: ProgramRef, params: Readonly<Record<string, unknown>> = {}): Promise<RunResult<number | string>> {
    if (this.closed) throw new TesseraError('this session is closed', { fix: 'open a new one with openSession(graph, options)' });
    const failed = this.engine.failed;
    if (failed !== undefined)
      throw new TesseraError(`this session's actors stopped when an earlier run failed (${splitFix(failed.message).problem.replace(/\.$/, '')})`, { fix: 'close it and open a new one with openSession(graph, options)' });
    checkObject("session.run's parameters", params, '{ source: 1 }');
    const { params: p, setup, defaults, control } = splitOptions(params);
    const extra = Object.keys(setup).filter((k) => setup[k as keyof RunSetup] !== undefined);
    if (extra.length > 0) throw new TesseraError(`a session's set-up is fixed when it opens, and this run gave ${extra.join(', ')}`, { key: extra[0], fix: 'pass them to openSession, or open another session' });
    const prepared = prepareRun(this.graph, program, p, defaults);
    if (control.checkpoint !== undefined && prepared.program.resumable !== true) throw notResumable(prepared.program.name, false);
    // One run at a time: the engine's actors serve one superstep stream.
    const go = this.queue.then(async () => {
      const resumed = await resumeFrom(control, this.graph, prepared);
      const topology = this.engine.topology;
      const moved = resumed !== undefined ? checkIdentity(resumed, this.graph, prepared.program, prepared.params, topology) : undefined;
      if (moved !== undefined) warn(moved);
      const ckpt = await planCheckpoint(control, this.graph, prepared.program, prepared.params, topology, resumed);
      const out = await this.engine.run(prepared.program, prepared.params, ckpt);
      await ckpt.writer?.remove();
      return out;
    });
    this.queue = go.catch(() => undefined);
    const { values, report } = await go;
    return new RunResult(this.graph, values, prepared.program.output, report, sourceOf(prepared));
  }

  /**
   * Hands a run's result back to the session: a later run writes into its array instead of fresh
   * memory (a query loop that is done with each result); with GPUs, one page-locked when the
   * session opened (a preloaded program's) keeps their read-backs direct. Its values must not be
   * read afterwards.
   */
  recycle(result: RunResult<K>): void {
    if (!this.engine.recycle(result.values))
      throw new TesseraError("recycle takes the result of one of this session's runs, once (and not every program's result is an array the engine can reuse)", {
        fix: 'pass a result of this session that you have not recycled yet, or drop it and let it be collected',
      });
  }

  /** Stops the actors (idempotent). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    await this.engine.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }
}

/** Opens a session on a graph: actors start now and stay until close(). */
export function openSession(graph: KeyedGraph, opts?: SessionOptions): Promise<Session<string>>;
export function openSession(graph: PlainGraph, opts?: SessionOptions): Promise<Session<number>>;
export function openSession<G extends MaybeKeyedGraph>(graph: G, opts?: SessionOptions): Promise<Session<VertexOf<G>>>;
export function openSession(graph: Graph, opts: SessionOptions = {}): Promise<Session<number | string>> {
  return Session.open(graph, opts);
}

// ---------------------------------------------------------------------------------------------
// generate

/** How a generated graph is stored (the `tessera generate ... --out g.tsr` flags). */
export interface GenerateBuildOptions {
  /** Store every edge both ways (`--undirected`). */
  undirected?: boolean;
  /** Target edges per page (`--page-edges`, default 2^20). */
  pageEdges?: number;
}

interface GenerateCommon extends GenerateBuildOptions {
  /** log2 of the vertex id space: ids 0..2^scale-1, every one a vertex (1..31). */
  scale: number;
  /** Edges generated per vertex id, before self-loops and duplicates are dropped (default 16). */
  edgeFactor?: number;
  /** Any integer >= 0 (default 1); same seed, same edges. */
  seed?: number;
  /** Weights k / 10^6, k uniform in 1..10^6, stored as float32 (default false). */
  weighted?: boolean;
}

/** `generate`'s options form: the fields of a generator spec plus how to store the graph. */
export type GenerateOptions =
  | (GenerateCommon & {
      /** RMAT / Kronecker with Graph500 parameters unless a, b, c are given (d = 1 - a - b - c). */
      kind: 'rmat';
      a?: number;
      b?: number;
      c?: number;
      /** Scramble vertex ids with a seeded bijection (default true). */
      scramble?: boolean;
    })
  | (GenerateCommon & {
      /** Erdos-Renyi G(n, m): n = 2^scale, m = edgeFactor * n. */
      kind: 'uniform';
    });

/**
 * Generates a synthetic graph in memory, as `tessera generate` does (same generators, same
 * edges: `generate('rmat:20')` is the graph `loadGraph('rmat:20')` and `tessera generate rmat
 * --scale 20 --out g.tsr` give). Takes a generator spec (`rmat:SCALE[:ef=K][:seed=N][:weighted]`,
 * `uniform:SCALE...`) or the same fields as options. Synchronous: large scales keep the caller
 * busy while the edges are generated and the pages built (helper threads do part of it). Bad
 * specs are TesseraErrors.
 */
export function generate(spec: string, opts?: GenerateBuildOptions): BuiltGraph;
export function generate(options: GenerateOptions): BuiltGraph;
export function generate(spec: string | GenerateOptions, opts?: GenerateBuildOptions): BuiltGraph {
  // Both arguments checked (an options object's second argument is refused, not ignored).
  const { spec: s, build } = generateArguments(spec, opts);
  // One team of helpers for the generator and the build (they boot once).
  return withTeam(specEdges(s), (team) => buildGraph(generateEdges(s, { team }), { pageEdges: build.pageEdges, ...(build.undirected ? { directed: false } : {}) }, { team }));
}
