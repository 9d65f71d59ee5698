/**
 * Edge streams for the bounded-memory builder (external.ts): a generator spec block by block, or
 * a plain / SNAP edge list parsed block by block, the parser's lists drained every 2^20 edges.
 * Neither holds more than a chunk of edges; what they yield is what generateEdges and
 * readEdgeList would have put in their lists, in the same order.
 */
import { setImmediate as yieldTurn } from 'node:timers/promises';
import { CHUNK, type U32List } from '../chunked.js';
import { createGenerator, formatGeneratorSpec, generatedVertices, type GeneratorSpec } from '../generate/index.js';
import { emptyError, edgeListParser, readVertexFile, type EdgeListOptions, type EdgeParser } from '../readers/edgelist.js';
import { readLineBlocks } from '../readers/lines.js';
import { foreignError, foreignIn, idSet, uniqueVertices, type IdSet } from '../readers/vertex-list.js';
import type { WeightArray, WeightType } from '../types.js';

/** Receives k edges; the arrays are reused once it returns. */
const STOP = Symbol('stop');

export type EdgeSink = (src: Uint32Array, dst: Uint32Array, w: WeightArray | undefined, k: number) => void;

export interface EdgeStream {
  /** File path or generator spec, for reports and errors. */
  readonly source: string;
  /** Whether the input's edges are directed. */
  readonly directed: boolean;
  /** Edges expected (a generator's exact count), for the disk estimate; undefined: not known. */
  readonly expectedEdges: number | undefined;
  /** Largest vertex id when known before reading (generators). */
  readonly idSpace: number | undefined;
  /** The input's weights when known before reading ('none': unweighted; undefined: not known). */
  readonly weights: WeightType | 'none' | undefined;
  /** Explicit vertices (they exist even without edges), read by `vertices()`. */
  vertices(): Promise<U32List | undefined>;
  /** What `run` reports progress in: bytes of a file read, or edges generated. */
  readonly progressUnit: 'bytes' | 'edges';
  /** Streams every edge in input order; `progress(done, total)` in the stream's own unit. */
  run(sink: EdgeSink, progress?: (done: number, total: number) => void): Promise<void>;
}

/** A generator spec's edges, block by block (what generateEdges fills its chunks with). */
export function generatorStream(spec: GeneratorSpec): EdgeStream {
  const g = createGenerator(spec);
  return {
    source: formatGeneratorSpec(spec),
    directed: true,
    expectedEdges: g.numEdges,
    idSpace: g.numVertices,
    weights: spec.weighted ? 'float32' : 'none',
    progressUnit: 'edges',
    vertices: () => Promise.resolve(generatedVertices(spec)),
    async run(sink, progress) {
      const src = new Uint32Array(CHUNK);
      const dst = new Uint32Array(CHUNK);
      const w = spec.weighted ? new Float32Array(CHUNK) : undefined;
      let done = 0;
      for (let b = 0; b < g.numBlocks; b++) {
        const k = g.fill(b, src, dst, w);
        sink(src, dst, w, k);
        done += k;
        progress?.(done, g.numEdges);
        // Let progress bars draw and a Ctrl-C reach its handler.
        await yieldTurn();
      }
    },
  };
}

/**
 * A plain / SNAP edge list (readEdgeList's parsing and errors), in chunks of 2^20 edges. With a
 * vertex list, each chunk's endpoints are checked against it before they go on (it lists every
 * vertex, as a Graphalytics .v does).
 */
export function edgeListStream(
  file: string,
  opts: EdgeListOptions & { vertices?: string; expectedEdges?: number; expectedWeights?: WeightType | 'none' },
): EdgeStream {
  const vertexFile = opts.vertices;
  const files = { vertexFile: vertexFile ?? '', edgeFile: file };
  let known: Promise<{ list: U32List; set: IdSet }> | undefined;
  const listed = (): Promise<{ list: U32List; set: IdSet }> =>
    (known ??= (async () => {
      const list = await readVertexFile(vertexFile!);
      return { list, set: idSet(await uniqueVertices(files, list)) };
    })());
  return {
    source: file,
    directed: opts.directed ?? true,
    expectedEdges: opts.expectedEdges,
    idSpace: undefined,
    weights: opts.weighted === false ? 'none' : opts.weighted === true ? (opts.weightType ?? 'float64') : opts.expectedWeights,
    progressUnit: 'bytes',
    vertices: async () => (vertexFile === undefined ? undefined : (await listed()).list),
    async run(sink, progress) {
      const set = vertexFile === undefined ? undefined : (await listed()).set;
      const p = edgeListParser(file, opts);
      const only = set === undefined ? undefined : listedOnly(sink, set, STOP);
      const checked: EdgeSink = only?.sink ?? sink;
      let edges = 0;
      const drain = (): void => {
        const k = drainParser(p, checked);
        if (only === undefined) edges += k;
      };
      try {
        await readLineBlocks(
          file,
          (buf, start, end) => {
            p.block(buf, start, end);
            if (p.src.length >= CHUNK) drain();
          },
          { onProgress: progress, currentLine: () => p.line },
        );
        drain();
      } catch (e) {
        if (e !== STOP) throw e;
      }
      const foreign = only?.foreign();
      if (foreign !== undefined) throw await foreignError(files, foreign.edge, foreign.id);
      if (only !== undefined) edges = only.edges();
      if (edges === 0 && vertexFile === undefined) throw emptyError(file);
      known = undefined;
    },
  };
}

/**
 * `sink` for the chunks whose endpoints are all in `set` (a vertex file's ids): at the first edge
 * with one outside it, `foreign()` gives that edge's index and endpoint and the sink throws `stop`.
 */
export function listedOnly(sink: EdgeSink, set: IdSet, stop: unknown): { sink: EdgeSink; foreign: () => { edge: number; id: number } | undefined; edges: () => number } {
  let edges = 0;
  let found: { edge: number; id: number } | undefined;
  return {
    sink: (s, d, w, k) => {
      const i = foreignIn(s, d, k, set);
      if (i >= 0) {
        found = { edge: edges + i, id: set.has(s[i]!) ? d[i]! : s[i]! };
        throw stop;
      }
      sink(s, d, w, k);
      edges += k;
    },
    foreign: () => found,
    edges: () => edges,
  };
}

/** Hands the parser's edges so far to `sink` and empties its lists (chunks kept for reuse); returns their count. */
export function drainParser(p: EdgeParser, sink: EdgeSink): number {
  const m = p.src.length;
  for (let c = 0; c < p.src.chunks.length; c++) {
    sink(p.src.chunks[c]!, p.dst.chunks[c]!, p.weights?.chunks[c], Math.min(CHUNK, m - c * CHUNK));
  }
  p.src.recycle();
  p.dst.recycle();
  p.weights?.recycle();
  return m;
}
