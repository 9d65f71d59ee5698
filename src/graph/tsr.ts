/**
 * `.tsr`: the tessera graph file. A built Graph, stored so that it loads with no parsing and no
 * rebuilding, and so that one page can be fetched alone (a GPU streamer reads single pages).
 *
 * Layout (little-endian):
 *
 *   0   "TSR1"                         magic
 *   4   u32 version                    (1)
 *   8   u32 H                          byte length of the header
 *   12  u32 checksum of the header bytes
 *   16  header                         msgpack map (see OnDiskHeader), plain msgpack (no records)
 *   ... zero padding to a multiple of 4096
 *   blobs, each starting at a multiple of 4096 (the gaps are zero):
 *     every page of the out page set, in order: its SharedArrayBuffer bytes verbatim
 *       [offsets u32 | nbrs u32 | weights f32/f64], 8-byte aligned parts (pages.ts layout)
 *     every page of the in page set (directed graphs only: an undirected graph stores its one
 *       page set once, and reading restores `in === out`, `inDegree === outDegree`)
 *     outDegree, inDegree (directed only), toOriginal, byOriginal: u32 x numVertices each
 *
 * The header holds counts, directedness, weight type, pageEdges, source, build stats, a page table
 * per orientation (columns: vBegin, vEnd, split, edges, offset, length, checksum) and the location
 * of every array (offset, length, checksum). `firstPageOf` is not stored: it follows from the page
 * table. Checksums are a 32-bit xor-multiply hash of each blob's u32 words (any change of a single
 * word is always detected); every file since version 1 carries them (header and every blob).
 *
 * Reads check (unless `verify: false`) each blob's checksum and each page's structure: offsets
 * from 0, never decreasing, ending at the page's edge count, and every neighbour id below
 * numVertices, so a damaged page is refused rather than giving wrong answers (the id check rides
 * on the checksum's pass over the page). `verify: false` checks only where a page's offsets
 * start and end.
 * `verifyTsr` checks the whole file (what `tessera info` does by default): the above plus finite
 * weights, vertex ranges contiguous across each page table, degree arrays against the pages and
 * the id maps (byOriginal a permutation ordering toOriginal ascending).
 *
 * Writes go to `path.tmp-<pid>`, are fsynced and renamed into place (atomic). Every problem with
 * a file is a TesseraError naming it.
 */
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { TesseraError } from '../errors.js';
import { trackTemp, untrackTemp } from '../tmp-files.js';
import { pageByteLength, pageOver } from './pages.js';
import type { Graph, Page, PageSet, WeightType } from './types.js';
import { IO_MAX, PREAMBLE, TSR_ALIGN, TSR_MAGIC, TSR_VERSION, packr, tsrChecksum, type Columns, type OnDiskHeader, type TsrHeader, type TsrProgress } from './tsr-format.js';

export { TSR_ALIGN, TSR_MAGIC, TSR_VERSION, tsrChecksum, type TsrBlob, type TsrHeader, type TsrPageEntry, type TsrProgress } from './tsr-format.js';
export {
  damagedFix,
  isTsrFile,
  readTsr,
  readTsrArray,
  readTsrHeader,
  readTsrPage,
  verifyTsr,
  type TsrReadOptions,
  type TsrSource,
} from './tsr-read.js';
export { tsrPageProblem } from './tsr-check.js';

// ---------------------------------------------------------------------------------------------
// write

const alignUp = (x: number, a: number): number => Math.ceil(x / a) * a;
const align8 = (x: number): number => (x + 7) & ~7;

/** The bytes of a page in the canonical layout (where its buffer holds it so, those bytes). */
export function pageBytes(p: Page, wt: WeightType | undefined): Uint8Array {
  const nv = p.vEnd - p.vBegin;
  const len = pageByteLength(nv, p.edges, wt);
  const base = p.offsets.byteOffset;
  const nbrOff = base + align8(4 * (nv + 1));
  const canonical =
    base + len <= p.buffer.byteLength &&
    p.offsets.length === nv + 1 &&
    p.nbrs.buffer === p.buffer &&
    p.nbrs.byteOffset === nbrOff &&
    p.nbrs.length === p.edges &&
    (wt === undefined || (p.weights?.buffer === p.buffer && p.weights.byteOffset === nbrOff + align8(4 * p.edges) && p.weights.length === p.edges));
  if (canonical) return new Uint8Array(p.buffer, base, len);
  // Copy into the canonical layout (pages not made by pages.ts).
  const q = pageOver(new SharedArrayBuffer(len), p.index, p.vBegin, p.vEnd, p.edges, p.split, wt);
  q.offsets.set(p.offsets.subarray(0, nv + 1));
  q.nbrs.set(p.nbrs.subarray(0, p.edges));
  if (wt !== undefined) {
    if (p.weights === undefined) throw new TesseraError(`page ${p.index} has no weights but the graph is weighted (${wt})`);
    q.weights!.set(p.weights.subarray(0, p.edges));
  }
  return new Uint8Array(q.buffer);
}

function bytesOf(a: Uint32Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

function checkGraph(g: Graph): void {
  const n = g.numVertices;
  const bad = (what: string): TesseraError => new TesseraError(`cannot write graph '${g.source}' as .tsr: ${what}`);
  if (!Number.isInteger(n) || n < 0 || n > 0xffffffff) throw bad(`numVertices ${n} is not a uint32`);
  for (const [name, a] of [
    ['outDegree', g.outDegree],
    ['inDegree', g.inDegree],
    ['ids.toOriginal', g.ids.toOriginal],
    ['ids.byOriginal', g.ids.byOriginal],
  ] as const) {
    if (a.length !== n) throw bad(`${name} has length ${a.length}, expected ${n}`);
  }
  if (!g.directed && (g.in !== g.out || g.inDegree !== g.outDegree)) {
    throw bad('an undirected graph must share its page set and degree array between in and out');
  }
}

/**
 * Writes `graph` to `path` as .tsr, atomically (temporary file, fsync, rename). The page
 * buffers are written verbatim.
 */
export async function writeTsr(graph: Graph, path: string, opts: TsrProgress = {}): Promise<void> {
  checkGraph(graph);
  const wt = graph.weightType;
  const sets: PageSet[] = graph.directed ? [graph.out, graph.in] : [graph.out];
  const arrays: Array<[keyof OnDiskHeader['arrays'], Uint32Array]> = [['outDegree', graph.outDegree]];
  if (graph.directed) arrays.push(['inDegree', graph.inDegree]);
  arrays.push(['toOriginal', graph.ids.toOriginal], ['byOriginal', graph.ids.byOriginal]);

  // Blob sizes and checksums first (checksums need one pass over the data; pages are small).
  const pageBlobs = sets.map((s) => s.pages.map((p) => pageBytes(p, wt)));
  const arrayBlobs = arrays.map(([, a]) => bytesOf(a));
  const allBlobs = [...pageBlobs.flat(), ...arrayBlobs];
  const checksums = allBlobs.map(tsrChecksum);
  const totalBlobBytes = allBlobs.reduce((s, b) => s + b.byteLength, 0);

  const build = (graph as { build?: { selfLoopsDropped: number; duplicatesDropped: number } }).build;
  const created = new Date().toISOString();
  // The header holds the blob offsets, which depend on the header's size: iterate to a fixpoint.
  let dataStart = TSR_ALIGN;
  let headerBytes: Uint8Array;
  let offsets: number[];
  let fileBytes: number;
  for (;;) {
    offsets = [];
    let at = dataStart;
    for (const b of allBlobs) {
      offsets.push(at);
      at = alignUp(at + b.byteLength, TSR_ALIGN);
    }
    const last = allBlobs.length - 1;
    fileBytes = last < 0 ? dataStart : offsets[last]! + allBlobs[last]!.byteLength;
    let k = 0;
    const pageTables: OnDiskHeader['pageTables'] = { out: emptyColumns() };
    sets.forEach((s, si) => {
      const cols = emptyColumns();
      for (const p of s.pages) {
        cols.vBegin.push(p.vBegin);
        cols.vEnd.push(p.vEnd);
        cols.split.push(p.split ? 1 : 0);
        cols.edges.push(p.edges);
        cols.offset.push(offsets[k]!);
        cols.length.push(allBlobs[k]!.byteLength);
        cols.checksum.push(checksums[k]!);
        k++;
      }
      if (si === 0) pageTables.out = cols;
      else pageTables.in = cols;
    });
    const arr = {} as OnDiskHeader['arrays'];
    for (const [name] of arrays) {
      arr[name] = [offsets[k]!, allBlobs[k]!.byteLength, checksums[k]!];
      k++;
    }
    headerBytes = packr.pack(tsrHeader({ ...graph, build }, created, pageTables, arr, fileBytes));
    const need = alignUp(PREAMBLE + headerBytes.byteLength, TSR_ALIGN);
    if (need === dataStart) break;
    dataStart = need;
  }

  const pre = tsrPreamble(headerBytes);

  const tmp = `${path}.tmp-${process.pid}`;
  let fh: FileHandle | undefined;
  trackTemp(tmp);
  try {
    fh = await open(tmp, 'w');
    await writeAt(fh, pre, 0);
    await writeAt(fh, headerBytes, PREAMBLE);
    let done = 0;
    for (let i = 0; i < allBlobs.length; i++) {
      await writeAt(fh, allBlobs[i]!, offsets[i]!);
      done += allBlobs[i]!.byteLength;
      opts.onProgress?.(done, totalBlobBytes);
    }
    await fh.truncate(fileBytes);
    await fh.sync();
    await fh.close();
    fh = undefined;
    await rename(tmp, path);
  } catch (e) {
    await fh?.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw writeError(e, path);
  } finally {
    untrackTemp(tmp);
  }
}

/** What a .tsr header says about the graph, besides where its blobs are. */
export type TsrMeta = Pick<TsrHeader, 'numVertices' | 'numEdges' | 'directed' | 'weightType' | 'pageEdges' | 'source' | 'build'>;

export function tsrHeader(g: TsrMeta, created: string, pageTables: OnDiskHeader['pageTables'], arrays: OnDiskHeader['arrays'], fileBytes: number): OnDiskHeader {
  const build = g.build;
  return {
    format: 'tessera-graph',
    version: TSR_VERSION,
    numVertices: g.numVertices,
    numEdges: g.numEdges,
    directed: g.directed,
    weightType: g.weightType ?? null,
    pageEdges: g.pageEdges,
    source: g.source,
    created,
    ...(build ? { build: { selfLoopsDropped: build.selfLoopsDropped, duplicatesDropped: build.duplicatesDropped } } : {}),
    align: TSR_ALIGN,
    pageTables,
    arrays,
    fileBytes,
  };
}

/** Magic, version, header length and header checksum. */
export function tsrPreamble(headerBytes: Uint8Array): Buffer {
  const pre = Buffer.alloc(PREAMBLE);
  pre.write(TSR_MAGIC, 0, 'latin1');
  pre.writeUInt32LE(TSR_VERSION, 4);
  pre.writeUInt32LE(headerBytes.byteLength, 8);
  pre.writeUInt32LE(tsrChecksum(headerBytes), 12);
  return pre;
}

/** A failed write of `path` as one line (TesseraErrors pass through). */
export function writeError(e: unknown, path: string): TesseraError {
  if (e instanceof TesseraError) return e;
  return new TesseraError(`cannot write: ${(e as Error).message}`, { file: path, fix: 'check that the directory exists, is writable and has free space' });
}

export function emptyColumns(): Columns {
  return { vBegin: [], vEnd: [], split: [], edges: [], offset: [], length: [], checksum: [] };
}

export async function writeAt(fh: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  let off = 0;
  while (off < bytes.byteLength) {
    const len = Math.min(IO_MAX, bytes.byteLength - off);
    const { bytesWritten } = await fh.write(bytes, off, len, position + off);
    off += bytesWritten;
  }
}
