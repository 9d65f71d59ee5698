/**
 * Graph text readers: one entry point that picks the format from the path.
 *
 * - `*.mtx`, `*.mtx.gz`                              -> Matrix Market (matrixmarket.ts)
 * - `*.e`, `*.v`, `*.properties` (+ `.gz`), or a directory holding them -> Graphalytics
 * - anything else                                    -> plain / SNAP edge list (edgelist.ts)
 *
 * All readers stream the file (gzip is decompressed on the fly) and return RawEdges in original
 * ids; buildGraph (../build.ts) renumbers them and builds the pages.
 */
import { stat } from 'node:fs/promises';
import { checkTextFits } from '../memory.js';
import { TesseraError } from '../../errors.js';
import type { RawEdges } from '../types.js';
import { readEdgeList, type EdgeListOptions } from './edgelist.js';
import { graphalyticsBase, readGraphalytics, type GraphalyticsProperties } from './graphalytics.js';
import { fsError } from './lines.js';
import { readMatrixMarket } from './matrixmarket.js';

export type { EdgeListOptions } from './edgelist.js';
export type { GraphalyticsOptions, GraphalyticsProperties, GraphalyticsResult } from './graphalytics.js';
export type { MatrixMarketOptions, MatrixMarketHeader } from './matrixmarket.js';
export type { ReadProgress, BlockSink, LineReadResult } from './lines.js';
export { readEdgeList, readVertexFile, EdgeParser } from './edgelist.js';
export { readGraphalytics, parseJavaProperties } from './graphalytics.js';
export { readMatrixMarket } from './matrixmarket.js';
export { readLineBlocks, readLines } from './lines.js';

export type GraphFormat = 'edgelist' | 'matrixmarket' | 'graphalytics';

export interface ReadGraphOptions extends EdgeListOptions {
  /**
   * Edge lists only: a vertex list file (one id per line, Graphalytics .v style) whose vertices
   * exist even without edges.
   */
  vertices?: string;
  /** Force a format instead of choosing by extension. */
  format?: GraphFormat;
}

export interface ReadGraphResult {
  raw: RawEdges;
  /** Graphalytics inputs: the parsed .properties (algorithm parameters). */
  properties?: GraphalyticsProperties;
}

/** The format readGraphFile would use for `file` (a directory means Graphalytics). */
export async function detectFormat(file: string): Promise<GraphFormat> {
  let isDir = false;
  try {
    isDir = (await stat(file)).isDirectory();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw fsError(e, file);
  }
  if (isDir) return 'graphalytics';
  let f = file.toLowerCase();
  if (f.endsWith('.gz')) f = f.slice(0, -3);
  if (f.endsWith('.mtx')) return 'matrixmarket';
  if (graphalyticsBase(file) !== undefined) return 'graphalytics';
  return 'edgelist';
}

/** The refusal of a vertex list for a format that lists its vertices itself. */
export function vertexListError(file: string, format: Exclude<GraphFormat, 'edgelist'>): TesseraError {
  return new TesseraError(`a vertex list applies to edge-list files only (this is a ${format === 'matrixmarket' ? 'Matrix Market' : 'Graphalytics'} graph, which lists its vertices itself)`, {
    file,
    key: 'vertices',
    fix: 'drop the vertices option',
  });
}

/** Reads a graph text file (format by extension, see the module comment). */
export async function readGraphFile(file: string, opts: ReadGraphOptions = {}): Promise<ReadGraphResult> {
  const format = opts.format ?? (await detectFormat(file));
  if (format === 'edgelist') await checkTextFits(file);
  const { vertices, format: _f, ...rest } = opts;
  if (vertices !== undefined && format !== 'edgelist') throw vertexListError(file, format);
  if (format === 'matrixmarket') return { raw: await readMatrixMarket(file, rest) };
  if (format === 'graphalytics') return readGraphalytics(file, rest);
  return { raw: await readEdgeList(file, { ...rest, vertices }) };
}
