/**
 * What a graph will need in memory, estimated from counts a header or spec declares before
 * anything is allocated, so a file that declares billions of vertices is refused with the
 * estimate instead of ending in a heap crash. Per vertex: degrees, page offsets both ways, the
 * id maps and a result (~40 B); per edge: the raw lists while building and the pages (~20 B, as
 * measured by the builder: scale 26, ~1.07 G edges, in 24 GiB).
 */
import os from 'node:os';
import { TesseraError } from '../errors.js';

export const BYTES_PER_VERTEX = 40;
export const BYTES_PER_EDGE = 20;

export function graphBytes(vertices: number, edges: number): number {
  return vertices * BYTES_PER_VERTEX + edges * BYTES_PER_EDGE;
}

const gib = (b: number): string => `${(b / 2 ** 30).toFixed(1)} GiB`;

/** Throws a TesseraError (naming file and line) when the estimate exceeds 90% of this machine's memory. */
export function checkGraphFits(vertices: number, edges: number, where: { file?: string; line?: number; what: string }): void {
  const need = graphBytes(vertices, edges);
  const have = os.totalmem();
  if (need > 0.9 * have) {
    throw new TesseraError(`${where.what} declares ${vertices} vertices and ${edges} edges: about ${gib(need)}, more than this machine's ${gib(have)} of memory`, {
      file: where.file,
      line: where.line,
      fix: 'check the declared counts, or use a machine with more memory',
    });
  }
}
