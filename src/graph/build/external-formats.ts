/**
 * Edge streams for the bounded-memory builder (external.ts) beyond edge lists and generators: a
 * Matrix Market file and a Graphalytics graph parsed block by block (their readers' parsing and
 * errors, the parser's lists drained every 2^20 edges), and a .tsr's out-pages read one at a time
 * (re-paging). None holds more than a chunk of edges (or one page); what each yields is what
 * readMatrixMarket, readGraphalytics and rawFromGraph would have put in their lists, in the same
 * order, with the same vertices, directedness and weights.
 */
import { CHUNK, U32List } from '../chunked.js';
import { estimateTextEdges } from '../memory.js';
import { emptyError, EdgeParser, readVertexFile, type EdgeListOptions } from '../readers/edgelist.js';
import {
  checkAnnounced,
  foreignError,
  foreignIn,
  graphalyticsDirected,
  graphalyticsInput,
  idSet,
  uniqueVertices,
  type GraphalyticsOptions,
  type IdSet,
} from '../readers/graphalytics.js';
import { readLineBlocks } from '../readers/lines.js';
import { checkNotEmpty, entryCountError, matrixMarketDirected, MatrixMarketScan, matrixVertices, readMatrixMarketHeader, type MatrixMarketOptions } from '../readers/matrixmarket.js';
import { readTsrArray, readTsrHeader, readTsrPage } from '../tsr-read.js';
import type { Page, WeightArray } from '../types.js';
import { drainParser, listedOnly, type EdgeSink, type EdgeStream } from './external-source.js';

type ReadOptions = Pick<EdgeListOptions, 'directed' | 'weighted' | 'weightType' | 'allowNegativeWeights'>;

/** Thrown from a block sink to stop reading; the cause is turned into its error after. */
const STOP = Symbol('stop');

/**
 * A Matrix Market file: its size line (read first) gives the vertices 1..rows and the entry count
 * exactly (the builder stores a symmetric matrix's entries both ways).
 */
export async function matrixMarketStream(file: string, opts: MatrixMarketOptions & ReadOptions = {}): Promise<EdgeStream> {
  const h = await readMatrixMarketHeader(file, opts);
  const directed = matrixMarketDirected(file, h, opts.directed);
  const weighted = h.field !== 'pattern' && opts.weighted !== false;
  return {
    source: file,
    directed,
    expectedEdges: h.entries,
    idSpace: undefined,
    weights: weighted ? (opts.weightType ?? 'float64') : 'none',
    progressUnit: 'bytes',
    vertices: () => Promise.resolve(matrixVertices(h.rows)),
    async run(sink, progress) {
      const scan = new MatrixMarketScan(file, { ...opts, checkFits: false });
      let found = 0;
      try {
        await readLineBlocks(
          file,
          (buf, start, end) => {
            scan.block(buf, start, end);
            const p = scan.parser;
            if (p === undefined || p.src.length < CHUNK) return;
            found += drainParser(p, sink);
            // More entries than announced: the disk was planned for the announced count.
            if (found > h.entries) throw STOP;
          },
          { onProgress: progress, currentLine: scan.currentLine },
        );
      } catch (e) {
        if (e !== STOP) throw e;
      }
      const { h: read, parser } = scan.done();
      if (found <= h.entries) found += drainParser(parser, sink);
      if (found !== read.entries) throw await entryCountError(file, read, found, parser.line);
      checkNotEmpty(file, read, found);
    },
  };
}

/**
 * A Graphalytics graph: directedness and weight column from its .properties, the vertices of its
 * .v file (checked once: unique), every edge endpoint checked against them as the edges pass. The
 * edges expected: meta.edges when declared, else estimated from the .e file's size.
 */
export async function graphalyticsStream(p: string, opts: GraphalyticsOptions = {}): Promise<EdgeStream> {
  const g = await graphalyticsInput(p, opts);
  const directed = graphalyticsDirected(g, opts.directed);
  const wt = opts.weightType ?? 'float64';
  const est = g.props?.metaEdges === undefined ? await estimateTextEdges(g.edgeFile) : undefined;
  const cfg = g.parser;
  // Columns declared (or forced): weighted by the weight column; else the first line tells.
  const weights = cfg.extra !== 'auto' ? ((cfg.weightCol ?? -1) >= 0 ? wt : 'none') : est === undefined ? undefined : est.fields >= 3 ? wt : 'none';
  let known: Promise<{ list: U32List; count: number; set: IdSet }> | undefined;
  const vertices = (): Promise<{ list: U32List; count: number; set: IdSet }> =>
    (known ??= (async () => {
      const list = await readVertexFile(g.vertexFile, { extraColumns: g.vertexColumns });
      const sorted = await uniqueVertices(g, list);
      return { list, count: sorted.length, set: idSet(sorted) };
    })());
  return {
    source: g.edgeFile,
    directed,
    expectedEdges: g.props?.metaEdges ?? est?.edges,
    idSpace: undefined,
    weights,
    progressUnit: 'bytes',
    vertices: async () => (await vertices()).list,
    async run(sink, progress) {
      const { count, set } = await vertices();
      const parser = new EdgeParser(cfg);
      // Each chunk's endpoints against the .v file's set before it goes on.
      const only = listedOnly(sink, set, STOP);
      const checked = only.sink;
      try {
        await readLineBlocks(
          g.edgeFile,
          (buf, start, end) => {
            parser.block(buf, start, end);
            if (parser.src.length >= CHUNK) drainParser(parser, checked);
          },
          { onProgress: progress, currentLine: () => parser.line },
        );
        drainParser(parser, checked);
      } catch (e) {
        if (e !== STOP) throw e;
      }
      const foreign = only.foreign();
      if (foreign !== undefined) throw await foreignError(g, foreign.edge, foreign.id);
      const edges = only.edges();
      if (edges === 0 && count === 0) throw emptyError(g.edgeFile);
      checkAnnounced(g, count, edges, set);
      known = undefined;
    },
  };
}

/**
 * A .tsr's out-pages, one at a time (the next read while one is turned into edges), as raw edges
 * in original ids: each vertex's list in page order, the vertices listed in internal-id order,
 * what rawFromGraph gives the in-memory re-paging. Counts are the header's, exactly.
 */
export async function tsrStream(file: string): Promise<EdgeStream> {
  const h = await readTsrHeader(file);
  const wt = h.weightType;
  let orig: Uint32Array | undefined;
  const toOriginal = async (): Promise<Uint32Array> => (orig ??= await readTsrArray(file, h, 'toOriginal'));
  return {
    // The graph's own source, as the in-memory re-paging records it.
    source: h.source,
    directed: h.directed,
    expectedEdges: h.numEdges,
    idSpace: undefined,
    weights: wt ?? 'none',
    progressUnit: 'bytes',
    async vertices() {
      const a = await toOriginal();
      const list = new U32List();
      for (let v = 0; v < a.length; v++) list.push(a[v]!);
      return list;
    },
    async run(sink, progress) {
      const ids = await toOriginal();
      const table = h.pages.out;
      let total = 0;
      for (const e of table) total += e.length;
      const src = new Uint32Array(CHUNK);
      const dst = new Uint32Array(CHUNK);
      const w: WeightArray | undefined = wt === undefined ? undefined : wt === 'float32' ? new Float32Array(CHUNK) : new Float64Array(CHUNK);
      let k = 0;
      let done = 0;
      let next: Promise<Page> | undefined;
      const read = (i: number): Promise<Page> | undefined => {
        if (i >= table.length) return undefined;
        // By path: an error names the file (a page is 2^20 edges by default, an open is nothing).
        const r = readTsrPage(file, h, 'out', i);
        // Awaited in order below; a failure ahead of a failing sink must not go unhandled.
        r.catch(() => undefined);
        return r;
      };
      try {
        next = read(0);
        for (let i = 0; i < table.length; i++) {
          const p = await next!;
          next = read(i + 1);
          const { offsets, nbrs, weights } = p;
          for (let v = p.vBegin; v < p.vEnd; v++) {
            const a = ids[v]!;
            for (let e = offsets[v - p.vBegin]!; e < offsets[v - p.vBegin + 1]!; e++) {
              src[k] = a;
              dst[k] = ids[nbrs[e]!]!;
              if (w !== undefined) w[k] = weights![e]!;
              if (++k === CHUNK) {
                sink(src, dst, w, k);
                k = 0;
              }
            }
          }
          done += table[i]!.length;
          progress?.(done, total);
        }
        if (k > 0) sink(src, dst, w, k);
      } finally {
        await next?.catch(() => undefined);
      }
      orig = undefined;
    },
  };
}
