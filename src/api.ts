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
import { Engine, type EngineOptions } from './engine/coordinator.js';
import type { OutputKind } from './engine/program.js';
import { formatValue, writeResult } from './engine/output.js';
import type { RunReport } from './engine/report.js';
import { TesseraError } from './errors.js';
import { buildGraph, type BuiltGraph } from './graph/build.js';
import { checkGeneratorSpec, DEFAULT_EDGE_FACTOR, DEFAULT_SEED, generateEdges, parseGeneratorSpec, type GeneratorSpec } from './graph/generate/index.js';
import type { Graph } from './graph/types.js';
import { assignByKey, isKeyedGraph, type GraphologyLike, type KeyedGraph } from './graphology.js';
import { algorithm, type AlgoDefaults, type AlgoOptions } from './programs/index.js';
import { loadTopology } from './topology/load.js';
import { programProfile } from './model/profile.js';
import type { Topology } from './topology/schema.js';

/** Algorithm names `run` knows (aliases included); any other name is a TesseraError. */
export const ALGO_NAMES = ['bfs', 'pr', 'pagerank', 'sssp', 'wcc', 'cdlp', 'lcc', 'bc', 'betweenness'] as const;
export type AlgoName = (typeof ALGO_NAMES)[number];

export interface RunOptions extends AlgoOptions, EngineOptions {
  /** A topology, a YAML path, or 'auto' (default: detect this machine). */
  topology?: Topology | string;
  /** Defaults from a Graphalytics .properties file (loadGraph returns them). */
  defaults?: AlgoDefaults;
}

/** `run` options on a graph from fromGraphology: vertices are named by node key. */
export interface KeyedRunOptions extends Omit<RunOptions, 'source' | 'sourceList' | 'defaults'> {
  /** bfs, sssp: source node key. */
  source?: string;
  /** bc: explicit source node keys; excludes `sources`. */
  sourceList?: readonly string[];
}

/** A graph that did not come from fromGraphology (its vertices are original ids). */
export type PlainGraph = Graph & { readonly keys?: never };

/**
 * One value per vertex, read by vertex: `K` is `number` (original ids) for graphs from files and
 * generators, `string` (node keys) for graphs from fromGraphology.
 *
 * Values: bfs depth in edges, -1 when unreachable; sssp distance, Infinity when unreachable;
 * pr rank; wcc / cdlp label = an original id (on a keyed graph, `graph.keys[label]` is the node
 * key: for wcc the first node of the component in graphology's node order); lcc coefficient;
 * bc centrality.
 */
export class RunResult<K extends number | string = number> {
  constructor(
    readonly graph: Graph,
    /** One value per internal vertex id. */
    readonly values: Float64Array | Int32Array | Uint32Array,
    readonly kind: OutputKind,
    readonly report: RunReport,
  ) {}

  /**
   * Value of a vertex: an original id, or a node key on a graph from fromGraphology (BFS: -1
   * when unreachable; SSSP: Infinity). A vertex not in the graph is a RangeError.
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

  /** The value as the output file writes it (BFS unreachable 9223372036854775807, SSSP `infinity`). */
  format(vertex: K): string {
    return formatValue(this.kind, this.get(vertex));
  }

  /**
   * Writes `id value` lines (ascending original id) atomically. On a graph from fromGraphology
   * the ids are original ids, i.e. positions in `graph.keys` (keys may hold spaces, ids never do).
   */
  write(file: string): Promise<void> {
    return writeResult(file, this.graph, this.values, this.kind);
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
  assign(this: RunResult<string>, target: GraphologyLike, attribute: string, transform?: (value: number, key: string) => unknown): void {
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

  /** Internal id of a vertex (original id or node key). */
  private internal(vertex: K): number {
    const g = this.graph;
    const { toOriginal, byOriginal } = g.ids;
    if (isKeyedGraph(g)) {
      // graphology turns a key given as a number into its string; so do we.
      const o = g.keyIndex.get(String(vertex));
      if (o === undefined) throw new RangeError(`node '${String(vertex)}' is not in the graph`);
      return byOriginal[o]!;
    }
    const originalId = vertex as number;
    let lo = 0;
    let hi = byOriginal.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (toOriginal[byOriginal[mid]!]! < originalId) lo = mid + 1;
      else hi = mid;
    }
    const v = byOriginal[lo];
    if (v === undefined || toOriginal[v] !== originalId) throw new RangeError(`vertex ${originalId} is not in the graph`);
    return v;
  }
}

/**
 * Runs one algorithm on a graph with a fresh set of actors, and releases them afterwards.
 * On a graph from fromGraphology, `source` / `sourceList` are node keys and the result is read
 * by key; otherwise they are original ids.
 */
export function run(graph: KeyedGraph, algo: AlgoName | (string & {}), opts?: KeyedRunOptions): Promise<RunResult<string>>;
export function run(graph: PlainGraph, algo: AlgoName | (string & {}), opts?: RunOptions): Promise<RunResult<number>>;
export async function run(graph: Graph, algo: string, opts: RunOptions | KeyedRunOptions = {}): Promise<RunResult<number | string>> {
  const entry = algorithm(algo);
  const o: RunOptions = isKeyedGraph(graph) ? byOriginalIds(graph, opts as KeyedRunOptions) : (opts as RunOptions);
  const params = entry.params(graph, o, o.defaults ?? {});
  const topology = typeof o.topology === 'object' ? o.topology : await loadTopology(o.topology);
  // RAND shuffles the pages the model does for this program: in-pages for pull programs, out-pages for push.
  const partitionPages = o.partitionPages ?? (programProfile(algo).mode === 'push' ? 'out' : 'in');
  const engine = await Engine.create(graph, topology, { ...o, partitionPages });
  try {
    const { values, report } = await engine.run(entry.program, params as never);
    return new RunResult(graph, values, entry.program.output, report);
  } finally {
    await engine.close();
  }
}

/** Keyed options with node keys replaced by original ids. */
function byOriginalIds(graph: KeyedGraph, opts: KeyedRunOptions): RunOptions {
  const id = (key: string, option: string): number => {
    const o = graph.keyIndex.get(String(key));
    if (o === undefined) {
      throw new TesseraError(`node '${String(key)}' is not in the graph`, { key: option, fix: 'name a node key of the graphology graph the tessera graph was built from' });
    }
    return o;
  };
  const { source, sourceList, ...rest } = opts;
  const out: RunOptions = rest;
  if (source !== undefined) out.source = id(source, 'source');
  if (sourceList !== undefined) out.sourceList = Array.from(sourceList, (k) => id(k, 'sourceList'));
  return out;
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
export function generate(spec: string | GenerateOptions, opts: GenerateBuildOptions = {}): BuiltGraph {
  let s: GeneratorSpec;
  let build: GenerateBuildOptions;
  if (typeof spec === 'string') {
    s = parseGeneratorSpec(spec);
    build = opts;
  } else if (typeof spec === 'object' && spec !== null) {
    const { undirected, pageEdges, ...g } = spec;
    s = checkGeneratorSpec({ ...g, edgeFactor: g.edgeFactor ?? DEFAULT_EDGE_FACTOR, seed: g.seed ?? DEFAULT_SEED, weighted: g.weighted ?? false });
    build = { undirected, pageEdges };
  } else {
    throw new TesseraError('generate expects a generator spec or options', { fix: "pass e.g. 'rmat:16' or { kind: 'rmat', scale: 16 }" });
  }
  return buildGraph(generateEdges(s), { pageEdges: build.pageEdges, ...(build.undirected ? { directed: false } : {}) });
}
