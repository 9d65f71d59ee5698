/**
 * graphology interop: `fromGraphology(graph)` turns a graphology `Graph` into a tessera graph
 * whose results are read and written back by node key (RunResult.get(key), RunResult.assign).
 *
 *   const graph = fromGraphology(g);                       // g: a graphology Graph
 *   const pr = await run(graph, 'pr');
 *   pr.get('alice');                                       // rank of node 'alice'
 *   pr.assign(g, 'pagerank');                              // node attribute 'pagerank' on every node
 *
 * tessera never loads graphology: the graph is typed structurally (GraphologyLike, the few
 * members of graphology's AbstractGraph used here), so a graphology Graph, DirectedGraph,
 * UndirectedGraph or Multi* graph fits it, and nothing in the emitted JavaScript or declarations
 * refers to the graphology packages.
 */
import { TesseraError } from './errors.js';
import { buildGraph, type BuiltGraph } from './graph/build.js';
import { F64List, U32List } from './graph/chunked.js';
import type { Graph } from './graph/types.js';
import { MAX_ORIGINAL_ID } from './graph/types.js';
import { checkBoolean, checkInteger, checkOptions, describe } from './graph/options.js';

/** graphology's attribute bag (graphology-types `Attributes`, whose values are `any`). */
export type GraphologyAttributes = { [name: string]: any };

/**
 * The members of a graphology graph that tessera uses (a structural subset of graphology-types'
 * `AbstractGraph`). Every graphology graph class fits it.
 */
export interface GraphologyLike {
  /** Number of nodes. */
  readonly order: number;
  /** Number of edges. */
  readonly size: number;
  readonly type: 'mixed' | 'directed' | 'undirected';
  readonly multi: boolean;
  forEachNode(callback: (node: string, attributes: GraphologyAttributes) => void): void;
  forEachEdge(
    callback: (
      edge: string,
      attributes: GraphologyAttributes,
      source: string,
      target: string,
      sourceAttributes: GraphologyAttributes,
      targetAttributes: GraphologyAttributes,
      undirected: boolean,
    ) => void,
  ): void;
  updateEachNodeAttributes(
    updater: (node: string, attributes: GraphologyAttributes) => GraphologyAttributes,
    hints?: { attributes?: string[] },
  ): void;
}

/**
 * The edge attributes of a graphology graph type (`EdgeAttributes` of `Graph<N, E>`), read off
 * `getEdgeAttributes`; graphology's plain attribute bag for anything else.
 */
export type EdgeAttributesOf<G> = G extends { getEdgeAttributes(...args: never[]): infer E }
  ? E extends GraphologyAttributes
    ? E
    : GraphologyAttributes
  : GraphologyAttributes;

/** graphology-utils' `PartialEdgeMapper`: what graphology calls `getEdgeWeight` as a function. */
export type EdgeWeightGetter<E extends GraphologyAttributes = GraphologyAttributes> = (
  edge: string,
  attributes: E,
  source: string,
  target: string,
) => number;

export interface FromGraphologyOptions<E extends GraphologyAttributes = GraphologyAttributes> {
  /**
   * Edge weights, as graphology's own `getEdgeWeight` option (graphology-metrics,
   * graphology-shortest-path): an edge attribute name, a function of the edge, or null for an
   * unweighted graph. Default `'weight'`, and the graph is weighted only when at least one edge
   * carries that attribute. With an attribute name, an edge without the attribute weighs 1 (as
   * in graphology); a weight that is present must be a finite number (graphology would quietly
   * use 1 for NaN or a string; tessera refuses it, naming the edge). Negative weights are
   * accepted here; SSSP refuses them when it starts.
   */
  getEdgeWeight?: (keyof E & string) | EdgeWeightGetter<E> | null;
  /** Store every edge both ways, whatever the graph's type (like `loadGraph`'s `undirected`). */
  undirected?: boolean;
  /** Target edges per page (default 2^20). */
  pageEdges?: number;
}

/**
 * A tessera graph built from a graphology graph: node keys are original ids 0..n-1 in
 * graphology's node order, and the key table maps them back. `run` on a KeyedGraph takes node
 * keys (`source`, `sourceList`) and gives a `RunResult<string>` read by key.
 */
export interface KeyedGraph extends Graph {
  /** Node keys by original id: `keys[i]` is the key of original vertex i (graphology node order). */
  readonly keys: readonly string[];
  /** Original id of each node key (the inverse of `keys`). */
  readonly keyIndex: ReadonlyMap<string, number>;
  /** Output files name vertices by key (graphs read from files with names), not by original id. */
  readonly writesKeys?: boolean;
}

/**
 * A graph that may be read by name or by original id, known only when it is read: what
 * loadGraph and fromArrow give (an edge list or table of names gives a KeyedGraph, of integers
 * a plain graph). `run` on it takes and gives either (`RunResult<number | string>`);
 * `isKeyedGraph(g)` tells which, and narrows it to one or the other.
 */
export type MaybeKeyedGraph = KeyedGraph | (Graph & { readonly keys?: never });

/** How `run` names a graph's vertices: node keys or names (string), original ids (number), either for a MaybeKeyedGraph. */
export type VertexOf<G extends Graph> = G extends KeyedGraph ? string : number;

/** True when `g` was built by fromGraphology (its results are read by node key). */
export function isKeyedGraph(g: Graph): g is KeyedGraph {
  const k = g as Partial<KeyedGraph>;
  return Array.isArray(k.keys) && k.keyIndex instanceof Map;
}

const SOURCE = 'graphology graph';

/**
 * Builds a tessera graph from a graphology graph.
 *
 * - Node keys (strings; graphology turns a key given as a number into its string) become
 *   original ids 0..n-1 in graphology's node order; isolated nodes are vertices too.
 * - A `directed` graph gives a directed tessera graph, an `undirected` one an undirected graph.
 *   A `mixed` graph gives a directed graph in which each undirected edge is stored both ways
 *   (so out-edge programs follow it in either direction, as graphology's `outbound` traversals
 *   do). `undirected: true` makes every edge undirected.
 * - Like every tessera graph: self-loops are dropped, and parallel edges (multi graphs, or a
 *   directed edge beside an undirected one) become one edge that keeps the smallest weight.
 *   (Programs follow Graphalytics semantics; graphology's PageRank, for one, counts self-loops
 *   and parallel edges.)
 * - Bad input (not a graphology graph, a non-finite weight, an empty graph) is a TesseraError.
 *
 * The graph is copied: later changes to the graphology graph do not reach it. `build` on the
 * result counts the self-loops and parallel edges dropped.
 */
export function fromGraphology<G extends GraphologyLike>(graph: G, opts: FromGraphologyOptions<EdgeAttributesOf<G>> = {}): KeyedGraph & BuiltGraph {
  checkGraphology(graph);
  checkFromGraphologyOptions(opts);
  const n = graph.order;
  if (n > MAX_ORIGINAL_ID + 1) {
    throw new TesseraError(`the graph has ${n} nodes, more than tessera's ${MAX_ORIGINAL_ID + 1}`, { file: SOURCE });
  }
  const keys: string[] = new Array<string>(n);
  const keyIndex = new Map<string, number>();
  const vertices = new U32List();
  let i = 0;
  graph.forEachNode((key) => {
    keys[i] = key;
    keyIndex.set(key, i);
    vertices.push(i++);
  });

  const getter = opts.getEdgeWeight === undefined ? 'weight' : opts.getEdgeWeight;
  const directed = graph.type !== 'undirected' && opts.undirected !== true;
  const src = new U32List();
  const dst = new U32List();
  // Created at the first weight seen (earlier edges weigh 1), so an unweighted graph costs none.
  let weights: F64List | undefined;
  const weightOf =
    getter === null
      ? undefined
      : typeof getter === 'function'
        ? (edge: string, attrs: GraphologyAttributes, s: string, t: string): number =>
            checkWeight(edge, (getter as EdgeWeightGetter)(edge, attrs, s, t), 'getEdgeWeight returned')
        : (edge: string, attrs: GraphologyAttributes): number | undefined => {
            const x: unknown = attrs[getter];
            return x === undefined ? undefined : checkWeight(edge, x, `attribute '${getter}' is`);
          };

  graph.forEachEdge((edge, attrs, source, target, _sa, _ta, undirected) => {
    const s = keyIndex.get(source)!;
    const t = keyIndex.get(target)!;
    const w = weightOf?.(edge, attrs, source, target);
    if (w !== undefined && weights === undefined) {
      weights = new F64List();
      for (let e = 0; e < src.length; e++) weights.push(1);
    }
    src.push(s);
    dst.push(t);
    weights?.push(w ?? 1);
    // Mixed graphs: an undirected edge is both arcs of the directed graph.
    if (directed && undirected) {
      src.push(t);
      dst.push(s);
      weights?.push(w ?? 1);
    }
  });

  if (weights === undefined && graph.size > 0 && typeof getter === 'string' && opts.getEdgeWeight !== undefined) {
    throw new TesseraError(`no edge has the weight attribute '${getter}'`, {
      file: SOURCE,
      key: 'getEdgeWeight',
      fix: 'name an edge attribute the graph has, or pass getEdgeWeight: null for an unweighted graph',
    });
  }
  // A weight function makes a weighted graph even without edges.
  if (weights === undefined && typeof getter === 'function') weights = new F64List();
  const built = buildGraph(
    { src, dst, weights, vertices, directed, weightType: weights ? 'float64' : undefined, source: SOURCE },
    { pageEdges: opts.pageEdges },
  );
  return Object.assign(built, { keys: keys as readonly string[], keyIndex: keyIndex as ReadonlyMap<string, number> });
}

function checkGraphology(graph: unknown): asserts graph is GraphologyLike {
  const g = graph as Partial<GraphologyLike> | null;
  const ok =
    typeof g === 'object' &&
    g !== null &&
    typeof g.forEachNode === 'function' &&
    typeof g.forEachEdge === 'function' &&
    Number.isInteger(g.order) &&
    Number.isInteger(g.size) &&
    (g.type === 'mixed' || g.type === 'directed' || g.type === 'undirected');
  if (!ok) {
    throw new TesseraError('fromGraphology expects a graphology graph', {
      fix: "pass an instance of graphology's Graph (or DirectedGraph, UndirectedGraph, MultiGraph...)",
    });
  }
}

/** The options of the types FromGraphologyOptions says, every key a known one. */
function checkFromGraphologyOptions(opts: unknown): void {
  const what = 'fromGraphology options';
  const o = checkOptions(opts, what, ['getEdgeWeight', 'undirected', 'pageEdges']);
  const w = o.getEdgeWeight;
  if (w !== undefined && w !== null && typeof w !== 'function' && (typeof w !== 'string' || w === '')) {
    throw new TesseraError(`${what}: getEdgeWeight must be an edge attribute name, a function or null, got ${describe(w)}`, {
      key: 'getEdgeWeight',
      fix: "pass e.g. getEdgeWeight: 'weight', (edge, attributes) => attributes.cost, or null for an unweighted graph",
    });
  }
  checkBoolean(o, 'undirected', what);
  checkInteger(o, 'pageEdges', what, 1, 0x7fffffff, 'use e.g. 1048576, or leave it out');
}

function checkWeight(edge: string, x: unknown, what: string): number {
  if (typeof x === 'number' && Number.isFinite(x)) return x;
  const shown = typeof x === 'string' ? `'${x}'` : typeof x === 'number' || x === null ? String(x) : typeof x;
  throw new TesseraError(`edge '${edge}': ${what} ${shown}, not a finite number`, {
    file: SOURCE,
    key: 'getEdgeWeight',
    fix: 'give every edge a finite numeric weight, or pass getEdgeWeight: null for an unweighted graph',
  });
}

/**
 * Writes one value per node into `target`'s node attribute `attribute` (graphology's
 * `updateEachNodeAttributes`, one event for the whole update). Every node of `target` must be a
 * node of `graph`; otherwise nothing is written and a TesseraError says which node is missing.
 * `valueOf(originalId)` gives the value of original vertex `originalId`.
 */
export function assignByKey(
  graph: KeyedGraph,
  target: GraphologyLike,
  attribute: string,
  valueOf: (originalId: number, key: string) => unknown,
): void {
  checkGraphology(target);
  if (typeof attribute !== 'string' || attribute === '') {
    throw new TesseraError(`the attribute name ${JSON.stringify(attribute)} is not a non-empty string`, { key: 'attribute', fix: "name the node attribute to write, e.g. 'pagerank'" });
  }
  const { keys, keyIndex } = graph;
  // First pass: find every node's original id (graphology's order is usually ours, so the Map is
  // rarely needed), and refuse before writing anything.
  const ids = new Uint32Array(target.order);
  let i = 0;
  let missing: string | undefined;
  target.forEachNode((key) => {
    if (missing !== undefined) return;
    const o = i < keys.length && keys[i] === key ? i : keyIndex.get(key);
    if (o === undefined) missing = key;
    else ids[i++] = o;
  });
  if (missing !== undefined) {
    throw new TesseraError(`node '${missing}' of the target graph is not in the tessera graph`, {
      key: 'assign',
      fix: 'write back into the graphology graph the tessera graph was built from (nodes added since are not in it; rebuild with fromGraphology)',
    });
  }
  i = 0;
  target.updateEachNodeAttributes(
    (key, attributes) => {
      let o = ids[i++]!;
      // Same order as forEachNode in graphology; checked all the same.
      if (keys[o] !== key) o = keyIndex.get(key)!;
      attributes[attribute] = valueOf(o, key);
      return attributes;
    },
    { attributes: [attribute] },
  );
}
