/**
 * The program-definition API (`defineProgram`): one definition is the unit users write, as in
 * every seed (TOTEM's per-partition kernels with a message reduce, Garaph's gather/sum/apply,
 * Ligra's edgeMap functors). A definition names its typed parameters (defaults, bounds,
 * Graphalytics .properties keys), its vertex state (type, initial value, the reduce that combines
 * values from actors in other memories), its output, the model profile, the module of its CPU
 * kernels (workers import it by URL, so a program in the user's own file runs unchanged) and the
 * driver: the superstep loop over RunContext.edgeMap / vertexMap.
 *
 * The engine knows no program by name: it reads all of this from the definition.
 */
import { TesseraError } from '../errors.js';
import type { Graph } from '../graph/types.js';
import type { Mode, StateKind } from '../wire/frames.js';
import type { StateArray } from './kernel.js';
import type { RunContext } from './program.js';
import { checkOperators, REDUCES, STATE_KINDS, type GpuOperators, type ProgramOperators } from './operators.js';

// ---------------------------------------------------------------------------------------------
// parameters

interface ParamBase {
  /** One line for `--help` and errors. */
  description: string;
  /**
   * Graphalytics .properties key under the program's `graphalytics` name (e.g. 'source-vertex'
   * for `graph.X.bfs.source-vertex`): the value a Graphalytics graph carries when not given.
   */
  property?: string;
}

/** A vertex: an original id (or a node key on a graph from fromGraphology); the driver gets the internal id. */
export interface VertexParam extends ParamBase {
  type: 'vertex';
  required?: boolean;
}

/** A list of vertices (original ids or node keys), deduplicated; the driver gets internal ids. */
export interface VerticesParam extends ParamBase {
  type: 'vertices';
  required?: boolean;
}

/** An integer; `min`/`max` inclusive. */
export interface IntParam extends ParamBase {
  type: 'int';
  default?: number;
  required?: boolean;
  min?: number;
  max?: number;
  above?: number;
}

/** A number; `min`/`max` inclusive, `above` exclusive; Infinity only when `max` allows it. */
export interface NumberParam extends ParamBase {
  type: 'number';
  default?: number;
  required?: boolean;
  min?: number;
  max?: number;
  above?: number;
}

export type ParamSpec = VertexParam | VerticesParam | IntParam | NumberParam;
export type ParamSpecs = Record<string, ParamSpec>;

type IsRequired<S> = S extends { required: true } ? true : false;
type HasDefault<S> = S extends { default: number } ? true : false;

/** What the caller passes for one parameter: ids are numbers (original ids) or node keys. */
type InputOf<S, K> = S extends { type: 'vertex' } ? K : S extends { type: 'vertices' } ? readonly K[] | ArrayLike<number> : number;
/** What the driver gets for one parameter (internal ids). */
type ResolvedOf<S> = S extends { type: 'vertex' } ? number : S extends { type: 'vertices' } ? Uint32Array : number;

type RequiredKeys<P> = { [k in keyof P]: IsRequired<P[k]> extends true ? k : never }[keyof P];
type OptionalKeys<P> = Exclude<keyof P, RequiredKeys<P>>;

/** The parameters a caller passes: required ones required (a missing one is a compile error). */
export type InputParams<P extends ParamSpecs, K = number> = { [k in RequiredKeys<P>]: InputOf<P[k], K> } & {
  [k in OptionalKeys<P>]?: InputOf<P[k], K>;
};

/** The parameters the driver gets: validated, ids internal, defaults applied. */
export type ResolvedParams<P extends ParamSpecs> = {
  [k in keyof P]: IsRequired<P[k]> extends true ? ResolvedOf<P[k]> : HasDefault<P[k]> extends true ? ResolvedOf<P[k]> : ResolvedOf<P[k]> | undefined;
};

// ---------------------------------------------------------------------------------------------
// state and output

/**
 * How values of one state array from actors in other memories combine (TOTEM's message reduce,
 * applied after aggregation at the source): 'min' / 'max' / 'sum' / 'or', 'claim' (the first
 * value written wins over the unset value -1: BFS's depth), 'owner' (only the vertex's owner
 * writes it: pull programs, PageRank's ranks), 'none' (scratch no other actor reads).
 */
export type Reduce = 'min' | 'max' | 'sum' | 'or' | 'claim' | 'owner' | 'none';

export interface StateSpec {
  type: StateKind;
  /**
   * Initial value of every entry (default 0), or 'unset': a promise that the driver and kernels
   * write every entry before anything reads it, so the engine fills nothing (an array reused from
   * an earlier run keeps its values; re-filling three 268 MB arrays cost 15 ms a PageRank run).
   */
  init?: number | 'unset';
  reduce: Reduce;
  /** Entries (default: one per vertex). */
  length?: (graph: { numVertices: number; numEdges: number }) => number;
  /**
   * GPU operators may keep their device copy from one superstep to the next instead of uploading
   * it each time (docs/PROGRAMS.md, "Resident state"). A promise: the driver writes the array
   * itself only before its first edgeMap (vertexMap / vertexFilter writes the engine sees).
   * 'device' promises more: the driver neither reads nor writes the array between its first
   * edgeMap and the end of the run, so GPUs owning every vertex need not copy it back after each
   * superstep; the engine brings the host copy up to date before a vertexMap / vertexFilter or a
   * CPU-only superstep passes it, before a checkpoint, and when the run ends (docs/PROGRAMS.md,
   * "Resident state"). One entry per vertex.
   */
  resident?: boolean | 'device';
}
export type StateSpecs = Record<string, StateSpec>;

/**
 * An array the driver takes itself with `ctx.alloc(type, fill, length)` beyond its declared state
 * (a team's queues, say). Declared, an engine told it will run the program (EngineOptions.preload)
 * has it faulted in ahead in its pools, so the first run takes it as later runs do.
 */
export interface ScratchSpec {
  type: StateKind;
  /** Entries (default: one per vertex). */
  length?: (graph: { numVertices: number; numEdges: number }) => number;
  /** Taken only where the run may run a team (RunContext.teamwork): pools fill it ahead only there. */
  team?: boolean;
}

interface ArrayOfKind {
  f64: Float64Array;
  f32: Float32Array;
  i32: Int32Array;
  u32: Uint32Array;
  u8: Uint8Array;
}
/** Typed arrays for a state declaration: `{ depth: { type: 'i32', ... } }` -> `{ depth: Int32Array }`. */
export type StateArrays<S extends StateSpecs> = { [k in keyof S]: ArrayOfKind[S[k]['type']] };

/**
 * How result values are read and written: 'int' (counts), 'label' (an original vertex id, such as a
 * component's smallest: written as the vertex's name on a graph read with names), 'float',
 * 'depth' (-1 = unreached, written 9223372036854775807), 'distance' (Infinity written `infinity`).
 */
export type OutputKind = 'int' | 'label' | 'float' | 'depth' | 'distance';
/** The result array a program's output kind gives. */
export type ValuesOf<O extends OutputKind> = O extends 'float' | 'distance' ? Float64Array : O extends 'depth' ? Int32Array : Int32Array | Uint32Array;

/** A GAPBS kernel run on the same graph as a peer (`tessera bench --peer gapbs=DIR`). */
export interface GapbsCommand {
  binary: string;
  args: string[];
  note: string;
}

/**
 * Peers the benchmark harness can run with the same semantics on the same graph (graphs and ids
 * as the harness hands them over: internal ids, a GAPBS edge list with weights x `weightScale`).
 */
export interface ProgramPeers {
  gapbs?(p: { params: Readonly<Record<string, unknown>>; el: string; wel: string; source: number; meanWeight: number; weightScale: number; trials: number }): GapbsCommand | null;
  /** The GAPBS kernel reads the weighted edge list (the harness writes one). */
  gapbsWeighted?: boolean;
  graphology?: {
    /** What it runs, for the report. */
    what: string;
    /**
     * The timed call over a graphology graph whose nodes are the internal ids; what it returns
     * (e.g. louvain's modularity) is kept with the sample, beside tessera's report notes.
     */
    run(graph: unknown, source: number, params: Readonly<Record<string, unknown>>): () => void | Readonly<Record<string, number>>;
  };
}

/** What the performance model needs to know (src/model: rates are calibrated, this is declared). */
export interface ModelProfile {
  /** The mode the bulk of the edges runs in (calibration and the partition's page orientation follow it). */
  mode: Mode;
  /** Bytes of state per vertex on a GPU: its arrays plus the frontier/next byte maps (the model's until a GPU calibration measures it). */
  stateBytesPerVertex: number;
  /** Full passes over the edges of a run with default parameters. */
  passes: number;
  /** 'pass': a run walks every edge each iteration; 'run': a traversal, timed as one pass. */
  unit: 'pass' | 'run';
  /** Every pass visits every owned vertex whatever its degree: a cost per vertex beside the cost per edge. */
  vertexTerm: boolean;
  /** Calibrate on weighted graphs (the program reads weights). */
  weighted?: boolean;
  /**
   * A top-down push from the `source` parameter, predicted level by level (TOTEM Eq. 2 per level:
   * each waits for its slowest element) when the run is forced to push.
   */
  levels?: boolean;
  /**
   * Parameters of the calibration runs (original ids; the graph is an RMAT graph whose original
   * id `graph.ids.toOriginal[0]` is the top hub). Default: the program's demoParams.
   */
  calibration?(graph: Graph): Readonly<Record<string, unknown>>;
}

// ---------------------------------------------------------------------------------------------
// the definition

/** The context a driver sees: the engine's RunContext plus its declared state, allocated and initialised. */
export type ProgramContext<S extends StateSpecs> = RunContext & { readonly state: StateArrays<S> };

export interface ProgramSpec<N extends string, P extends ParamSpecs, S extends StateSpecs, O extends OutputKind, R, A extends string = never> {
  name: N;
  /** Other names `run` and the CLI accept. */
  aliases?: readonly A[];
  /** One line: what it computes. */
  summary: string;
  /** The Graphalytics algorithm name its .properties keys live under (bfs, pr, sssp, cdlp...). */
  graphalytics?: string;
  params: P;
  state: S;
  /** Arrays the driver allocates itself on some path (ScratchSpec): filled ahead for preloaded programs. */
  scratch?: Readonly<Record<string, ScratchSpec>>;
  output: O;
  /**
   * The module of the CPU kernels (`new URL('./kernels.js', import.meta.url)`): its named exports
   * are CpuKernels, which edgeMap / vertexMap name. Workers import it by URL.
   */
  kernels: URL | string;
  /**
   * GPU operators (operators.ts): `{ source: new URL('./gpu.cu', import.meta.url), kernels: {...} }`,
   * CUDA C++ compiled at run time. Built-ins may instead give the module of their precompiled
   * GPU handlers (`new URL('./gpu.js', import.meta.url)`). A kernel with neither cannot run on a
   * GPU topology (a clear error says so).
   */
  gpu?: URL | string | GpuOperators;
  profile: ModelProfile;
  /** Cross-parameter rules and derived parameters (runs after each parameter is validated). */
  prepare?(params: ResolvedParams<P>, graph: Graph): R;
  /**
   * The serial reference (plain loops, internal ids in and out): tests, `tessera demo` and
   * gpu-check compare every run with it.
   */
  reference?(graph: Graph, params: R): ArrayLike<number>;
  /**
   * Per-graph work of a first run that an engine told it will run the program
   * (EngineOptions.preload) does while it starts instead (sssp: its weight check, which it keeps
   * per graph). An error is left to the run, which meets it again.
   */
  warm?(graph: Graph): void;
  /** Peers the benchmark harness compares with (GAPBS, graphology). */
  peers?: ProgramPeers;
  /** Parameters for a run on any graph (the demo, gpu-check, the benchmark's defaults): original ids. */
  demoParams?(graph: Graph): Readonly<Record<string, unknown>>;
  /**
   * The driver supports checkpoints: it calls `ctx.checkpoint(carry)` at its safe points and starts
   * from `ctx.resume()` when that gives a carry (docs/PROGRAMS.md, "Checkpoints"). A run asked to
   * checkpoint a program without it is refused.
   */
  resumable?: boolean;
  /**
   * The program's fast GPU path needs one GPU owning every vertex (`ctx.soleGpu`: a device loop in
   * one call); on several GPUs it takes its superstep path, far slower (sssp on two H200s ~48x,
   * bc ~185x). `run()` and the CLI then run it on the topology's first GPU alone, with a notice,
   * unless the set-up names how the GPUs share the work (multiGpu, ownership).
   */
  soleGpu?: boolean;
  /**
   * false: the program's GPU kernels read no edge weights (traversals, labels, counts), so a GPU
   * may hold a weighted graph's pages without them: about half the bytes each page sends over the
   * link (an engine's preload of its pages, a page streamed in a run). Default true (user
   * programs' operators are handed each edge's weight).
   */
  readsWeights?: boolean;
  /**
   * Hands a run with these parameters to another program of the same output kind (pr: `weighted`
   * or `tolerance` make it networkx's PageRank, which ppr computes); undefined: this program runs.
   */
  delegate?(params: R, graph: Graph): { program: AnyProgram; params: unknown } | undefined;
  /** The driver: runs to completion and returns one value per internal vertex id. */
  run(ctx: ProgramContext<S>, params: R): Promise<ValuesOf<O>>;
}

/** A program: the definition as defineProgram checked it (what run, sessions and the engine take). */
export interface Program<N extends string = string, P extends ParamSpecs = ParamSpecs, S extends StateSpecs = StateSpecs, O extends OutputKind = OutputKind, R = unknown, A extends string = string>
  extends Readonly<ProgramSpec<N, P, S, O, R, A>> {
  readonly kernels: string;
  /** The module of precompiled GPU handlers (built-ins)... */
  readonly gpu?: string;
  /** ...or the GPU operators, checked, with their source text. */
  readonly operators?: ProgramOperators;
  /** Marks a checked definition. */
  readonly defined: true;
}

/** Any program, whatever its parameters (for lists and lookups). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyProgram = Program<string, any, any, OutputKind, any, string>;

/** The program a run of `program` with `params` runs: the one it hands over to (delegate), else itself (what an engine preloads for it). */
export function runsAs(program: AnyProgram, params: unknown, graph: Graph): AnyProgram {
  return program.delegate?.(params, graph)?.program ?? program;
}

const NAME = /^[a-z][a-z0-9-]*$/;
/**
 * Names run() takes from its options for the run's set-up and checkpointing (api.ts SETUP_KEY_SET,
 * CONTROL_KEY_SET; a test keeps the lists equal): a parameter of one of these names would never
 * reach the program.
 */
export const RESERVED_PARAMS: ReadonlySet<string> = new Set([
  'topology', 'defaults', 'events', 'pullDivisor', 'forceMode', 'gpuShare', 'steal', 'partition', 'multiGpu', 'partitionSeed', 'partitionPages', 'ownership', 'preload', 'prestart', 'teams',
  'checkpoint', 'resume',
]);
const OUTPUTS = new Set<OutputKind>(['int', 'label', 'float', 'depth', 'distance']);
const PARAM_TYPES = new Set(['vertex', 'vertices', 'int', 'number']);

function bad(name: string, what: string, fix: string): never {
  throw new TesseraError(`program '${name}': ${what}`, { fix });
}

/**
 * Checks a program definition and returns it as a Program. Mistakes in the definition are
 * TesseraErrors naming the program and the field.
 *
 *   export const hits = defineProgram({
 *     name: 'hits', summary: '...', params: { iterations: { type: 'int', default: 20, min: 0, description: '...' } },
 *     state: { hub: { type: 'f64', init: 1, reduce: 'owner' }, ... }, output: 'float',
 *     kernels: new URL('./kernels.js', import.meta.url), profile: { ... },
 *     async run(ctx, { iterations }) { ... return ctx.state.hub; },
 *   });
 */
export function defineProgram<const N extends string, const P extends ParamSpecs, const S extends StateSpecs, const O extends OutputKind, R = ResolvedParams<P>, const A extends string = never>(
  spec: ProgramSpec<N, P, S, O, R, A>,
): Program<N, P, S, O, R, A> {
  const name = spec.name;
  if (typeof name !== 'string' || !NAME.test(name)) bad(String(name), 'the name must be lower-case letters, digits and dashes', "name it e.g. 'kcore'");
  for (const a of spec.aliases ?? []) if (!NAME.test(a)) bad(name, `alias '${a}' must be lower-case letters, digits and dashes`, 'rename the alias');
  if (!OUTPUTS.has(spec.output)) bad(name, `output '${String(spec.output)}' is not one of ${[...OUTPUTS].join(', ')}`, "use e.g. output: 'float'");
  if (typeof spec.run !== 'function') bad(name, 'run (the driver) is missing', 'give run(ctx, params), the superstep loop over ctx.edgeMap');
  for (const [k, p] of Object.entries(spec.params ?? {})) {
    if (RESERVED_PARAMS.has(k)) bad(name, `parameter '${k}' has a name run() takes for the run's set-up`, `rename it (run's own options: ${[...RESERVED_PARAMS].join(', ')})`);
    if (!PARAM_TYPES.has(p?.type)) bad(name, `parameter '${k}' has type '${String(p?.type)}'`, 'use vertex, vertices, int or number');
    if ('default' in p && p.default !== undefined) checkValue(name, k, p, p.default, 'its default');
  }
  for (const [k, s] of Object.entries(spec.state ?? {})) {
    if (!STATE_KINDS.has(s?.type)) bad(name, `state '${k}' has type '${String(s?.type)}'`, 'use f64, f32, i32, u32 or u8');
    if (!REDUCES.has(s.reduce)) bad(name, `state '${k}' has reduce '${String(s.reduce)}'`, `use one of ${[...REDUCES].join(', ')}`);
    if (s.resident !== undefined && typeof s.resident !== 'boolean' && s.resident !== 'device') bad(name, `state '${k}' has resident '${String(s.resident)}'`, "give resident: true, resident: 'device' or leave it out");
    if (s.resident === 'device' && s.length !== undefined) bad(name, `state '${k}' is resident: 'device' and has its own length`, "give 'device' to arrays of one entry per vertex only (resident: true keeps the others)");
    if (s.init !== undefined && s.init !== 'unset' && typeof s.init !== 'number') bad(name, `state '${k}' has init '${String(s.init)}'`, "give a number, or 'unset' when every entry is written before it is read");
  }
  for (const [k, s] of Object.entries(spec.scratch ?? {})) {
    if (!STATE_KINDS.has(s?.type)) bad(name, `scratch '${k}' has type '${String(s?.type)}'`, 'use f64, f32, i32, u32 or u8');
    if (s.length !== undefined && typeof s.length !== 'function') bad(name, `scratch '${k}' has a length that is not a function`, 'give length: (graph) => entries, or leave it out (one per vertex)');
  }
  const kernels = spec.kernels instanceof URL ? spec.kernels.href : String(spec.kernels);
  const ops = spec.gpu !== undefined && typeof spec.gpu === 'object' && !(spec.gpu instanceof URL) ? checkOperators(name, spec.gpu, spec.state ?? {}) : undefined;
  const gpu = spec.gpu === undefined || ops !== undefined ? undefined : spec.gpu instanceof URL ? spec.gpu.href : String(spec.gpu);
  const resident = Object.keys(spec.state ?? {}).find((k) => spec.state[k]!.resident === true || spec.state[k]!.resident === 'device');
  if (resident !== undefined && spec.gpu === undefined) bad(name, `state '${resident}' is resident, but the program has no GPU side to keep it`, `remove resident from state '${resident}' (or give gpu: { source, kernels })`);
  if (gpu !== undefined && !/^(file|data):/.test(gpu)) bad(name, `gpu '${gpu}' is not a module URL`, "give new URL('./gpu.js', import.meta.url)");
  if (!/^(file|data):/.test(kernels)) bad(name, `kernels '${kernels}' is not a module URL`, "give new URL('./kernels.js', import.meta.url)");
  const p = spec.profile;
  if (p === undefined || (p.mode !== 'push' && p.mode !== 'pull') || !(p.passes > 0) || !(p.stateBytesPerVertex >= 0) || (p.unit !== 'pass' && p.unit !== 'run'))
    bad(name, 'profile needs mode (push|pull), stateBytesPerVertex, passes > 0, unit (pass|run) and vertexTerm', 'see docs/PROGRAMS.md');
  const { gpu: _url, ...rest } = spec;
  return Object.freeze({ ...rest, params: spec.params ?? ({} as P), state: spec.state ?? ({} as S), kernels, ...(gpu !== undefined ? { gpu } : {}), ...(ops !== undefined ? { operators: ops } : {}), defined: true as const });
}

// ---------------------------------------------------------------------------------------------
// resolving parameters

/** Graphalytics `.properties` values by key (`bfs.source-vertex` -> 6), as loadGraph returns them. */
export type GraphDefaults = Readonly<Record<string, number>>;

/**
 * How a caller names a parameter in errors: the key (library), `--kebab-case` (command line), or
 * a function (the CLI: a flag where it has one, else `--param key`).
 */
export type ParamStyle = 'cli' | 'library' | ((key: string) => string);

function labeller(style: ParamStyle): (key: string) => string {
  return typeof style === 'function' ? style : style === 'cli' ? flagOf : (k) => k;
}

export function flagOf(key: string): string {
  return '--' + key.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
}

function checkValue(program: string, key: string, p: IntParam | NumberParam, x: unknown, what: string, style: ParamStyle = 'library'): number {
  const label = labeller(style)(key);
  const fixOf = (): string => {
    const parts: string[] = [];
    if (p.min !== undefined) parts.push(`>= ${p.min}`);
    if (p.above !== undefined) parts.push(`> ${p.above}`);
    if (p.max !== undefined) parts.push(`<= ${p.max}`);
    return `give ${label} ${p.type === 'int' ? 'an integer' : 'a number'}${parts.length ? ' ' + parts.join(' and ') : ''}${p.default !== undefined ? ` (default ${p.default})` : ''}`;
  };
  if (typeof x !== 'number' || Number.isNaN(x)) throw new TesseraError(`${program}: ${label} ${what === 'value' ? '' : what + ' '}${String(x)} is not a number`, { key: label, fix: fixOf() });
  const ok =
    (p.type !== 'int' || Number.isSafeInteger(x)) &&
    (p.min === undefined || x >= p.min) &&
    (p.max === undefined || x <= p.max) &&
    (p.above === undefined || x > p.above) &&
    (Number.isFinite(x) || p.max === Infinity);
  if (!ok) throw new TesseraError(`${program}: ${label} ${String(x)} is out of range`, { key: label, fix: fixOf() });
  return x;
}

/**
 * Refuses a parameter the program does not take, naming the ones it takes (resolveParams' first
 * check; the CLI makes it before loading the graph as well).
 */
export function checkParamNames(program: { name: string; params: ParamSpecs }, input: Readonly<Record<string, unknown>>, style: ParamStyle = 'library'): void {
  const label = labeller(style);
  const keys = Object.keys(program.params);
  const takes = keys.length === 0 ? `${program.name} takes no parameters` : `${program.name} takes ${keys.map(label).join(', ')}`;
  for (const k of Object.keys(input)) {
    if (input[k] !== undefined && !(k in program.params)) throw new TesseraError(`${program.name} has no parameter ${label(k)}`, { key: label(k), fix: `remove it (${takes})` });
  }
}

/** The error of a required parameter that is missing (resolveParams; the CLI's check before the read). */
function missingParam(name: string, key: string, p: { description: string }, style: ParamStyle): TesseraError {
  const label = labeller(style);
  return new TesseraError(`${name} needs ${label(key)} (${p.description})`, { key: label(key), fix: `add ${style === 'library' ? `${key}: ...` : `${label(key)} VALUE`}` });
}

/**
 * Refuses a missing required parameter before the graph is read, where the graph cannot supply
 * it: `fromGraph` false (only Graphalytics files carry defaults, a .tsr or a generator spec none).
 */
export function checkRequiredParams(program: { name: string; params: ParamSpecs; graphalytics?: string }, input: Readonly<Record<string, unknown>>, fromGraph: boolean, style: ParamStyle = 'library'): void {
  for (const [k, p] of Object.entries(program.params)) {
    if (input[k] !== undefined || !p.required || ('default' in p && p.default !== undefined)) continue;
    if (fromGraph && p.property !== undefined && program.graphalytics !== undefined) continue;
    throw missingParam(program.name, k, p, style);
  }
}

/**
 * Validates a caller's parameters against the definition: unknown keys are refused (naming the
 * ones the program takes), required ones must be there (or in the graph's Graphalytics
 * defaults), numbers are checked against their bounds and vertices mapped to internal ids by
 * `vertexId` (original id or node key -> internal id, throwing for a vertex not in the graph).
 * Then the definition's `prepare` runs.
 */
export function resolveParams<R>(
  program: Program<string, ParamSpecs, StateSpecs, OutputKind, R, string>,
  graph: Graph,
  input: Readonly<Record<string, unknown>>,
  vertexId: (v: unknown, key: string) => number,
  defaults: GraphDefaults = {},
  style: ParamStyle = 'library',
): R {
  const name = program.name;
  const specs = program.params;
  const label = labeller(style);
  checkParamNames(program, input, style);
  const out: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(specs)) {
    let x = input[k];
    if (x === undefined && p.property !== undefined && program.graphalytics !== undefined) x = defaults[`${program.graphalytics}.${p.property}`];
    if (x === undefined) {
      if ('default' in p && p.default !== undefined) x = p.default;
      else if (p.required) {
        throw missingParam(name, k, p, style);
      } else {
        out[k] = undefined;
        continue;
      }
    }
    if (p.type === 'vertex') out[k] = vertexId(x, label(k));
    else if (p.type === 'vertices') {
      const list = x as ArrayLike<unknown>;
      if (list === null || typeof list !== 'object' || typeof list.length !== 'number') throw new TesseraError(`${name}: ${label(k)} is not a list of vertices`, { key: label(k), fix: 'give an array of vertex ids' });
      if (list.length === 0) throw new TesseraError(`${name}: ${label(k)} is empty`, { key: label(k), fix: 'list at least one vertex' });
      const seen = new Set<number>();
      const ids: number[] = [];
      for (let i = 0; i < list.length; i++) {
        const v = vertexId(list[i], label(k));
        if (!seen.has(v)) (seen.add(v), ids.push(v));
      }
      out[k] = Uint32Array.from(ids);
    } else out[k] = checkValue(name, k, p, x, 'value', style);
  }
  const resolved = out as ResolvedParams<ParamSpecs>;
  return program.prepare !== undefined ? program.prepare(resolved, graph) : (resolved as R);
}

/** Allocates and initialises a program's declared state for one run. */
export function allocState<S extends StateSpecs>(specs: S, ctx: Pick<RunContext, 'alloc' | 'graph'>): StateArrays<S> {
  const out: Record<string, StateArray> = {};
  for (const [k, s] of Object.entries(specs)) out[k] = ctx.alloc(s.type, s.init ?? 0, s.length?.(ctx.graph));
  return out as StateArrays<S>;
}
