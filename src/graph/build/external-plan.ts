/**
 * What the bounded-memory builder (external.ts) may hold and needs on disk.
 *
 * Memory: the limit covers the whole process. From it go node as it stands when the build starts
 * (measured), a margin for the JS heap and the allocator (64 MiB and a tenth of the limit: freed
 * buffers stay resident in the allocator's heap for a while), and the per-vertex tables at their
 * largest (the counting tables while ids are chosen, then degrees, ids, cursors and bucket maps);
 * the rest is the edge budget. An out-bucket costs twice its edges (staging area and the pages
 * made from it) plus the scratch of its longest list, an in-bucket once; the write buffers of the
 * buckets take a quarter at most. A limit that cannot hold one longest list is refused with the
 * minimum that would.
 *
 * Disk: the raw run (every input edge), the out-runs (every stored arc), the in-runs (directed:
 * every kept arc) and the output, whose pages hold the arcs once per orientation. The raw run is
 * removed before the pages are written, the out-runs once they are, so the peak is the larger of
 * raw + out-runs and out-runs + in-runs + output.
 */
import { statSync } from 'node:fs';
import bytes from 'bytes-iec';
import { TesseraError } from '../../errors.js';
import type { WeightType } from '../types.js';
import { freeBytes } from './external-io.js';

/** Records per read of a run file. */
export const READ_RECORDS = 1 << 16;
/** Margin for the JS heap, code and the allocator's slack: a fixed part and a part of the limit. */
const SLACK = 64 << 20;
const SLACK_SHARE = 0.1;
/** Write buffers of the buckets at most, and at least. */
const WRITE_BUFFERS_MAX = 64 << 20;
const WRITE_BUFFERS_MIN = 4 << 20;

export interface MemoryPlan {
  limit: number;
  /** Resident bytes of the process when the build started. */
  base: number;
  /** Per-vertex tables at their largest. */
  vertexBytes: number;
  /** The smallest limit that works for this graph. */
  minimum: number;
  /** Raw arcs per out-bucket and kept arcs per in-bucket. */
  outBucketEdges: number;
  inBucketEdges: number;
  /** Bytes shared by the write buffers of the buckets. */
  writeBufferBytes: number;
}

export interface GraphShape {
  /** Counting keys (original ids or dense ranks). */
  keys: number;
  n: number;
  /** Listed vertices (a vertex file, or a generator's id space). */
  nv: number;
  directed: boolean;
  wt: WeightType | undefined;
  pageEdges: number;
  /** The longest raw list (out or in), at least pageEdges. */
  longest: number;
  /** Sparse ids: the largest (the bitmap and ranks span it); 0 when counting by original id. */
  sparseMax: number;
}

const wbytes = (wt: WeightType | undefined): number => (wt === undefined ? 0 : wt === 'float32' ? 4 : 8);
const recBytes = (wt: WeightType | undefined): number => 8 + (wt === 'float64' ? 8 : wbytes(wt));

export function size(b: number): string {
  return bytes.format(b, { mode: 'binary', decimalPlaces: 1, unitSeparator: ' ' }) ?? `${b} B`;
}

/** The memory plan for `limit`; throws (one line, with the minimum) when it is too small. */
export function memoryPlan(limit: number, base: number, g: GraphShape): MemoryPlan {
  const sparse = g.sparseMax > 0 ? 8 * ((g.sparseMax >>> 5) + 1) + 4 * g.keys : 0;
  const idsPhase = g.keys * ((g.directed ? 10 : 5) + 8 + (g.nv > 0 ? 1 : 0)) + g.n * 24 + 4 * g.nv + sparse;
  const later = 4 * g.keys + 40 * g.n + sparse;
  const vertexBytes = Math.max(idsPhase, later);
  const e = 4 + wbytes(g.wt);
  const read = READ_RECORDS * (recBytes(g.wt) + 8);
  const scratch = e * (g.pageEdges + 2 * g.longest);
  const edgeMin = 2 * e * g.longest + scratch + read + WRITE_BUFFERS_MIN;
  const minimum = Math.ceil((base + SLACK + vertexBytes + edgeMin) / (1 - SLACK_SHARE) / 2 ** 20) * 2 ** 20;
  if (limit < minimum) {
    throw new TesseraError(
      `--host-memory ${size(limit)} is too small for this graph: it needs at least ${size(minimum)} (node ${size(base)}, per-vertex tables ${size(vertexBytes)}, the longest list and buffers ${size(minimum - base - vertexBytes)})`,
      { fix: `give --host-memory ${Math.ceil(minimum / 2 ** 20)}MiB or more` },
    );
  }
  const edgeBytes = limit * (1 - SLACK_SHARE) - base - SLACK - vertexBytes;
  const writeBufferBytes = Math.max(WRITE_BUFFERS_MIN, Math.min(WRITE_BUFFERS_MAX, Math.floor(edgeBytes / 4)));
  const cap = 2 ** 31;
  const outBucketEdges = Math.min(cap, Math.floor((edgeBytes - writeBufferBytes - read - scratch) / (2 * e)));
  const inBucketEdges = Math.min(cap, Math.floor((edgeBytes - read - e * g.pageEdges) / e));
  return { limit, base, vertexBytes, minimum, outBucketEdges, inBucketEdges, writeBufferBytes };
}

export interface DiskNeed {
  /** The raw run, the out-runs, the in-runs (bytes). */
  raw: number;
  outRuns: number;
  inRuns: number;
  /** The output file, about. */
  output: number;
  /** Run files at their peak. */
  runs: number;
}

/** Disk bytes for m input edges over at most n vertices. */
export function diskNeed(m: number, n: number, directed: boolean, wt: WeightType | undefined, pageEdges: number): DiskNeed {
  const rec = recBytes(wt);
  const arcs = directed ? m : 2 * m;
  const raw = m * rec;
  const outRuns = arcs * rec;
  const inRuns = directed ? m * rec : 0;
  const sets = directed ? 2 : 1;
  const pages = Math.ceil(arcs / pageEdges) + Math.ceil(n / pageEdges) + 1;
  const output = sets * (arcs * (4 + wbytes(wt)) + 4 * (n + pages) + 4096 * pages) + (directed ? 16 : 12) * n + (64 << 10);
  return { raw, outRuns, inRuns, output, runs: Math.max(raw + outRuns, outRuns + inRuns) };
}

/**
 * Refuses (one line naming the directory, the need and the free space) when the runs and the
 * output do not fit. `rawWritten`: the raw run is already on disk (its space is no longer free).
 */
export function checkDisk(need: DiskNeed, dirs: { tmpDir: string; outDir: string }, rawWritten: boolean, free: (dir: string) => number = freeBytes): void {
  const less = rawWritten ? need.raw : 0;
  const same = dirs.tmpDir === dirs.outDir || device(dirs.tmpDir) === device(dirs.outDir);
  const check = (dir: string, bytesNeeded: number, what: string, fix: string): void => {
    const have = free(dir);
    if (bytesNeeded > have) {
      throw new TesseraError(`not enough disk space in ${dir}: the conversion needs about ${size(bytesNeeded)} there (${what}), ${size(have)} is free`, { fix });
    }
  };
  const runsFix = 'free space there, or put the temporary runs on another disk with --tmp-dir DIR';
  if (same) {
    const peak = Math.max(need.raw + need.outRuns, need.outRuns + need.inRuns + need.output) - less;
    check(dirs.tmpDir, peak, `temporary runs ${size(need.runs)}, output ${size(need.output)}`, runsFix);
  } else {
    check(dirs.tmpDir, need.runs - less, 'temporary runs', runsFix);
    check(dirs.outDir, need.output, 'the output file', 'free space there, or write the output to another disk');
  }
}

function device(dir: string): number {
  try {
    return statSync(dir).dev;
  } catch {
    return -1;
  }
}
