/**
 * A vertex list (Graphalytics .v, or the vertices option of an edge list) lists every vertex of
 * the graph, each once: a vertex listed twice is refused at its second line, and an edge whose
 * endpoint is not listed at the edge's line. Graphalytics graphs and edge lists with a vertex
 * list share these checks, in memory and in the bounded-memory build.
 */
import path from 'node:path';
import { TesseraError } from '../../errors.js';
import { CHUNK, type U32List } from '../chunked.js';
import { lineOfRecord } from './lines.js';

/** The two files of a graph with a vertex list. */
export interface VertexListFiles {
  vertexFile: string;
  edgeFile: string;
}

export interface IdSet {
  has(id: number): boolean;
}

function toSortedArray(l: U32List): Uint32Array {
  const a = new Uint32Array(l.length);
  l.forEachChunk((c, k, base) => a.set(c.subarray(0, k), base));
  let sorted = true;
  for (let i = 1; i < a.length; i++) {
    if (a[i]! <= a[i - 1]!) {
      sorted = false;
      break;
    }
  }
  if (!sorted) a.sort();
  return a;
}

export function idSet(sorted: Uint32Array): IdSet {
  const n = sorted.length;
  const max = n > 0 ? sorted[n - 1]! : -1;
  if (max + 1 <= 8 * n + (1 << 24)) {
    const bits = new Uint32Array((max >>> 5) + 1);
    for (let i = 0; i < n; i++) bits[sorted[i]! >>> 5]! |= 1 << (sorted[i]! & 31);
    return { has: (id) => id <= max && (bits[id >>> 5]! & (1 << (id & 31))) !== 0 };
  }
  return {
    has: (id) => {
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (sorted[mid]! < id) lo = mid + 1;
        else hi = mid;
      }
      return lo < n && sorted[lo] === id;
    },
  };
}

/** Index among the first k edges of the first one with an endpoint outside `set` (-1: none). */
export function foreignIn(s: Uint32Array, d: Uint32Array, k: number, set: IdSet): number {
  for (let i = 0; i < k; i++) if (!set.has(s[i]!) || !set.has(d[i]!)) return i;
  return -1;
}

/** Index of the first edge with an endpoint outside `set`, and that endpoint; undefined if none. */
export function firstForeignEndpoint(src: U32List, dst: U32List, set: IdSet): { edge: number; id: number } | undefined {
  for (let c = 0; c < src.chunks.length; c++) {
    const s = src.chunks[c]!;
    const d = dst.chunks[c]!;
    const i = foreignIn(s, d, Math.min(CHUNK, src.length - c * CHUNK), set);
    if (i >= 0) return { edge: c * CHUNK + i, id: set.has(s[i]!) ? d[i]! : s[i]! };
  }
  return undefined;
}

/** The vertex file's vertices, sorted; refuses a vertex listed twice (naming its second line). */
export async function uniqueVertices(g: VertexListFiles, vertices: U32List): Promise<Uint32Array> {
  const sorted = toSortedArray(vertices);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i] === sorted[i - 1]) {
      const id = sorted[i]!;
      let seen = 0;
      let at = 0;
      for (let j = 0; j < vertices.length; j++) {
        if (vertices.get(j) === id && ++seen === 2) {
          at = j;
          break;
        }
      }
      throw new TesseraError(`vertex ${id} is listed twice`, { file: g.vertexFile, line: await lineOfRecord(g.vertexFile, at), fix: 'list each vertex once' });
    }
  }
  return sorted;
}

/** The error of edge `edge` (0-based), whose endpoint `id` the vertex file does not list. */
export async function foreignError(g: VertexListFiles, edge: number, id: number): Promise<TesseraError> {
  return new TesseraError(`edge endpoint ${id} is not a vertex of ${path.basename(g.vertexFile)}`, {
    file: g.edgeFile,
    line: await lineOfRecord(g.edgeFile, edge),
    fix: `add vertex ${id} to ${g.vertexFile}, or remove the edge`,
  });
}

/** Refuses a vertex listed twice and an edge with an endpoint the list lacks; returns the count of vertices. */
export async function checkVertexList(g: VertexListFiles, vertices: U32List, src: U32List, dst: U32List): Promise<{ count: number; set: IdSet }> {
  const sorted = await uniqueVertices(g, vertices);
  const set = idSet(sorted);
  const foreign = firstForeignEndpoint(src, dst, set);
  if (foreign !== undefined) throw await foreignError(g, foreign.edge, foreign.id);
  return { count: sorted.length, set };
}
