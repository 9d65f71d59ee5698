/**
 * What a graph will need in memory, estimated from counts a header or spec declares before
 * anything is allocated, so a file that declares billions of vertices is refused with the
 * estimate instead of ending in a heap crash. Per vertex: degrees, page offsets both ways, the
 * id maps and a result (~40 B); per edge: the raw lists while building and the pages (~20 B, as
 * measured by the builder: scale 26, ~1.07 G edges, in 24 GiB).
 */
import os from 'node:os';
import { open } from 'node:fs/promises';
import { TesseraError } from '../errors.js';

export const BYTES_PER_VERTEX = 40;
export const BYTES_PER_EDGE = 20;

export function graphBytes(vertices: number, edges: number): number {
  return vertices * BYTES_PER_VERTEX + edges * BYTES_PER_EDGE;
}

export const gib = (b: number): string => `${(b / 2 ** 30).toFixed(1)} GiB`;

/**
 * Throws a TesseraError (naming file and line) when the estimate exceeds 90% of this machine's
 * memory. `held`: bytes of the input that stay in memory while the graph is built (an Arrow table).
 */
export function checkGraphFits(vertices: number, edges: number, where: { file?: string; line?: number; what: string; held?: number; says?: string; fix?: string }): void {
  const need = graphBytes(vertices, edges) + (where.held ?? 0);
  const have = os.totalmem();
  if (need > 0.9 * have) {
    const says = where.says ?? `declares ${vertices} vertices and ${edges} edges`;
    throw new TesseraError(`${where.what} ${says}: about ${gib(need)}, more than this machine's ${gib(have)} of memory`, {
      file: where.file,
      line: where.line,
      fix: where.fix ?? 'check the declared counts, or use a machine with more memory',
    });
  }
}

/** Bytes of a text edge list sampled for its mean line length (checkTextFits). */
const SAMPLE_BYTES = 1 << 16;

/**
 * A plain-text edge list's edges estimated from its size and the mean length of its first lines
 * (comments left out), checked like a declared count (vertices taken as many as edges, the most a
 * list of pairs usually has). Files under twice the sample, and gzipped ones (their ratio is not
 * known before inflating them), are not estimated.
 */
export async function checkTextFits(file: string): Promise<void> {
  const est = await estimateTextEdges(file);
  if (est === undefined) return;
  const { edges, size, lineBytes } = est;
  checkGraphFits(edges, edges, {
    file,
    what: `at ${lineBytes.toFixed(1)} bytes a line, this ${gib(size)} edge list`,
    says: `holds about ${Math.round(edges)} edges (and at most as many vertices)`,
    fix: 'use a machine with more memory, or split the graph',
  });
}

/**
 * The edges of a plain-text edge list, estimated as checkTextFits does (undefined: not estimated),
 * and the fields of its first data line.
 */
export async function estimateTextEdges(file: string): Promise<{ edges: number; size: number; lineBytes: number; fields: number } | undefined> {
  if (file.toLowerCase().endsWith('.gz')) return undefined;
  let size = 0;
  const buf = Buffer.alloc(SAMPLE_BYTES);
  let got = 0;
  try {
    const fh = await open(file, 'r');
    try {
      size = (await fh.stat()).size;
      if (size < 2 * SAMPLE_BYTES) return undefined;
      got = (await fh.read(buf, 0, SAMPLE_BYTES, 0)).bytesRead;
    } finally {
      await fh.close();
    }
  } catch {
    return undefined; // the reader says what is wrong with the file
  }
  const text = buf.subarray(0, got).toString('latin1');
  const lines = text.split('\n').slice(0, -1); // the last one may be cut
  const data = lines.filter((l) => l.trim() !== '' && !/^\s*[#%]/.test(l));
  if (data.length === 0) return undefined;
  const bytes = lines.reduce((a, l) => a + l.length + 1, 0);
  const fields = data[0]!.trim().split(/[\s,]+/).length;
  return { edges: (size * data.length) / bytes, size, lineBytes: bytes / lines.length, fields };
}
