/**
 * Test-only Graph construction without the real builder (src/graph/build.ts), plus a small
 * Graphalytics (.v/.e/.properties/expected output) loader on top of it.
 *
 * tinyGraph: renumbering = identity order of the sorted original ids (internal id i = i-th
 * smallest original id), neighbour lists sorted, self-loops and repeated edges dropped (keeping
 * the smallest weight, like the builder), every array SharedArrayBuffer-backed, one page per
 * orientation unless `pageEdges` asks for several (then a vertex with more than pageEdges edges
 * spans consecutive split pages, as in pages.ts layoutPages).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Graph, Orientation, Page, PageSet } from '../../src/graph/types.js';
import { parseOutput, type GraphalyticsAlgorithm, type Output } from '../../src/programs/validate.js';
import { GRAPHALYTICS } from './paths.js';

export type TinyEdge = [number, number] | [number, number, number];

export interface TinyGraphOptions {
  directed?: boolean;
  /** Vertices that exist even without edges. */
  vertices?: number[];
  /** Store float64 weights (edges without a third element weigh 1). */
  weighted?: boolean;
  /** Cut pages at this many edges (default: one page per orientation). */
  pageEdges?: number;
  source?: string;
}

const align8 = (x: number): number => (x + 7) & ~7;

function sab32(n: number): Uint32Array {
  return new Uint32Array(new SharedArrayBuffer(4 * n));
}

function makePage(index: number, vBegin: number, vEnd: number, split: boolean, lists: Array<Array<[number, number]>>, from: number, to: number, weighted: boolean): Page {
  // lists[v] slice [from, to) for split pages; whole lists otherwise.
  const nv = vEnd - vBegin;
  let edges = 0;
  for (let v = vBegin; v < vEnd; v++) edges += split ? to - from : lists[v]!.length;
  const nbrOff = align8(4 * (nv + 1));
  const wOff = nbrOff + align8(4 * edges);
  const buffer = new SharedArrayBuffer(wOff + (weighted ? 8 * edges : 0));
  const offsets = new Uint32Array(buffer, 0, nv + 1);
  const nbrs = new Uint32Array(buffer, nbrOff, edges);
  const weights = weighted ? new Float64Array(buffer, wOff, edges) : undefined;
  let at = 0;
  for (let v = vBegin; v < vEnd; v++) {
    offsets[v - vBegin] = at;
    const l = split ? lists[v]!.slice(from, to) : lists[v]!;
    for (const [u, w] of l) {
      nbrs[at] = u;
      if (weights) weights[at] = w;
      at++;
    }
  }
  offsets[nv] = at;
  return { index, vBegin, vEnd, split, edges, offsets, nbrs, weights, buffer };
}

function pageSet(orientation: Orientation, lists: Array<Array<[number, number]>>, weighted: boolean, pageEdges: number): PageSet {
  const n = lists.length;
  const pages: Page[] = [];
  const firstPageOf = sab32(n);
  let begin = 0;
  let acc = 0;
  const close = (end: number): void => {
    if (end === begin) return;
    for (let v = begin; v < end; v++) firstPageOf[v] = pages.length;
    pages.push(makePage(pages.length, begin, end, false, lists, 0, 0, weighted));
    begin = end;
    acc = 0;
  };
  for (let v = 0; v < n; v++) {
    const d = lists[v]!.length;
    if (d > pageEdges) {
      close(v);
      firstPageOf[v] = pages.length;
      for (let from = 0; from < d; from += pageEdges) pages.push(makePage(pages.length, v, v + 1, true, lists, from, Math.min(d, from + pageEdges), weighted));
      begin = v + 1;
      continue;
    }
    if (acc + d > pageEdges || v - begin >= pageEdges) close(v);
    acc += d;
  }
  close(n);
  return { orientation, pages, firstPageOf };
}

/** A Graph from an edge list in original ids (see the file comment). */
export function tinyGraph(edges: TinyEdge[], opts: TinyGraphOptions = {}): Graph {
  const directed = opts.directed ?? true;
  const weighted = opts.weighted ?? false;
  const pageEdges = opts.pageEdges ?? Number.MAX_SAFE_INTEGER;
  const idSet = new Set<number>(opts.vertices ?? []);
  for (const [s, d] of edges) (idSet.add(s), idSet.add(d));
  const orig = [...idSet].sort((a, b) => a - b);
  const n = orig.length;
  const toInternal = new Map<number, number>();
  orig.forEach((o, i) => toInternal.set(o, i));
  // Best (smallest) weight per arc, self-loops dropped.
  const outM: Array<Map<number, number>> = Array.from({ length: n }, () => new Map());
  const inM: Array<Map<number, number>> = Array.from({ length: n }, () => new Map());
  const add = (a: number, b: number, w: number): void => {
    if (a === b) return;
    const cur = outM[a]!.get(b);
    if (cur === undefined || w < cur) {
      outM[a]!.set(b, w);
      inM[b]!.set(a, w);
    }
  };
  for (const [s, d, w] of edges) {
    const a = toInternal.get(s)!;
    const b = toInternal.get(d)!;
    add(a, b, w ?? 1);
    if (!directed) add(b, a, w ?? 1);
  }
  const sortList = (m: Map<number, number>): Array<[number, number]> => [...m].sort((x, y) => x[0] - y[0]);
  const outLists = outM.map(sortList);
  const out = pageSet('out', outLists, weighted, pageEdges);
  const outDegree = sab32(n);
  outLists.forEach((l, v) => (outDegree[v] = l.length));
  let inn = out;
  let inDegree = outDegree;
  if (directed) {
    const inLists = inM.map(sortList);
    inn = pageSet('in', inLists, weighted, pageEdges);
    inDegree = sab32(n);
    inLists.forEach((l, v) => (inDegree[v] = l.length));
  }
  const toOriginal = sab32(n);
  const byOriginal = sab32(n);
  for (let i = 0; i < n; i++) {
    toOriginal[i] = orig[i]!;
    byOriginal[i] = i;
  }
  let numEdges = 0;
  for (const l of outLists) numEdges += l.length;
  return {
    numVertices: n,
    numEdges,
    directed,
    weightType: weighted ? 'float64' : undefined,
    out,
    in: inn,
    outDegree,
    inDegree,
    ids: { toOriginal, byOriginal },
    pageEdges: opts.pageEdges ?? 1 << 20,
    source: opts.source ?? 'tiny-graph',
  };
}

/** Internal id of an original id in a tinyGraph (binary search over the identity-sorted map). */
export function internalOf(g: Graph, original: number): number {
  const t = g.ids.toOriginal;
  let lo = 0;
  let hi = t.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t[mid]! < original) lo = mid + 1;
    else hi = mid;
  }
  if (lo >= t.length || t[lo] !== original) throw new Error(`vertex ${original} is not in the graph`);
  return lo;
}

export interface GraphalyticsCase {
  name: string;
  dir: string;
  directed: boolean;
  /** Properties with the `graph.<name>.` prefix removed. */
  props: Map<string, string>;
  edges: TinyEdge[];
  vertices: number[];
  weighted: boolean;
  /** Algorithms with an expected output file. */
  algorithms: GraphalyticsAlgorithm[];
  expected(algo: GraphalyticsAlgorithm): Output;
  graph(opts?: { pageEdges?: number }): Graph;
}

const ALGOS: GraphalyticsAlgorithm[] = ['BFS', 'CDLP', 'LCC', 'PR', 'SSSP', 'WCC'];

/** Loads one Graphalytics graph folder (GRAPHALYTICS/<name>) with simple code (tests only). */
export function loadGraphalytics(name: string): GraphalyticsCase {
  const dir = path.join(GRAPHALYTICS, name);
  const props = new Map<string, string>();
  const prefix = `graph.${name}.`;
  for (const raw of readFileSync(path.join(dir, `${name}.properties`), 'utf8').split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    const key = line.slice(0, eq).trim();
    if (key.startsWith(prefix)) props.set(key.slice(prefix.length), line.slice(eq + 1).trim());
  }
  const directed = props.get('directed') === 'true';
  const weighted = (props.get('edge-properties.names') ?? '').split(',').map((s) => s.trim()).includes('weight');
  const lines = (f: string): string[][] =>
    readFileSync(path.join(dir, f), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => l.trim().split(/\s+/));
  const vertices = lines(props.get('vertex-file') ?? `${name}.v`).map((p) => Number(p[0]));
  const edges: TinyEdge[] = lines(props.get('edge-file') ?? `${name}.e`).map((p) =>
    weighted ? [Number(p[0]), Number(p[1]), Number(p[2])] : [Number(p[0]), Number(p[1])],
  );
  const available = new Set(readdirSync(dir));
  const algorithms = ALGOS.filter((a) => available.has(`${name}-${a}`));
  return {
    name,
    dir,
    directed,
    props,
    edges,
    vertices,
    weighted,
    algorithms,
    expected: (algo) => {
      const f = path.join(dir, `${name}-${algo}`);
      return parseOutput(readFileSync(f, 'utf8'), f);
    },
    graph: (o = {}) => tinyGraph(edges, { directed, vertices, weighted, pageEdges: o.pageEdges, source: dir }),
  };
}

/** The Graphalytics graph folders (everything but matching-examples). */
export const GRAPHALYTICS_GRAPHS = [
  'example-directed',
  'example-undirected',
  'test-bfs-directed',
  'test-bfs-undirected',
  'test-cdlp-directed',
  'test-cdlp-undirected',
  'test-lcc-directed',
  'test-lcc-undirected',
  'test-pr-directed',
  'test-pr-undirected',
  'test-sssp-directed',
  'test-sssp-undirected',
  'test-wcc-directed',
  'test-wcc-undirected',
];
