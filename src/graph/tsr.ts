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
 * word is always detected); reads check them unless `verify: false`.
 *
 * Writes go to `path.tmp-<pid>`, are fsynced and renamed into place (atomic). Every problem with
 * a file is a TesseraError naming it.
 */
import { open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { read as readCb } from 'node:fs';
import { Packr } from 'msgpackr';
import { TesseraError } from '../errors.js';
import { trackTemp, untrackTemp } from '../tmp-files.js';
import { pageByteLength, pageOver } from './pages.js';
import type { Graph, Orientation, Page, PageSet, WeightType } from './types.js';

export const TSR_MAGIC = 'TSR1';
export const TSR_VERSION = 1;
/** Alignment of every blob (a page can be read with O_DIRECT or mapped). */
export const TSR_ALIGN = 4096;
const PREAMBLE = 16;

const packr = new Packr({ useRecords: false, int64AsType: 'number', mapsAsObjects: true });

/** Location of one blob in the file. */
export interface TsrBlob {
  /** Byte offset (a multiple of 4096). */
  offset: number;
  /** Byte length. */
  length: number;
  /** tsrChecksum of the blob's bytes. */
  checksum: number;
}

export interface TsrPageEntry extends TsrBlob {
  index: number;
  vBegin: number;
  vEnd: number;
  split: boolean;
  edges: number;
}

/** The parsed header: everything about the graph but its arrays. */
export interface TsrHeader {
  /** The file it was read from. */
  file: string;
  version: number;
  numVertices: number;
  numEdges: number;
  directed: boolean;
  weightType?: WeightType;
  pageEdges: number;
  source: string;
  /** ISO time the file was written. */
  created: string;
  /** Build statistics, when the graph carried them (buildGraph's `build`). */
  build?: { selfLoopsDropped: number; duplicatesDropped: number };
  /** Page tables; for undirected graphs `in` is the same array as `out`. */
  pages: { out: TsrPageEntry[]; in: TsrPageEntry[] };
  /** Array locations; for undirected graphs `inDegree` is the same blob as `outDegree`. */
  arrays: { outDegree: TsrBlob; inDegree: TsrBlob; toOriginal: TsrBlob; byOriginal: TsrBlob };
  /** Total file size the header announces. */
  fileBytes: number;
}

type Columns = { vBegin: number[]; vEnd: number[]; split: number[]; edges: number[]; offset: number[]; length: number[]; checksum: number[] };
type BlobTriple = [number, number, number];

/** What the header map holds on disk. */
interface OnDiskHeader {
  format: 'tessera-graph';
  version: number;
  numVertices: number;
  numEdges: number;
  directed: boolean;
  weightType: WeightType | null;
  pageEdges: number;
  source: string;
  created: string;
  build?: { selfLoopsDropped: number; duplicatesDropped: number };
  align: number;
  pageTables: { out: Columns; in?: Columns };
  arrays: { outDegree: BlobTriple; inDegree?: BlobTriple; toOriginal: BlobTriple; byOriginal: BlobTriple };
  fileBytes: number;
}

export interface TsrProgress {
  /** Called with bytes done and total bytes of blobs. */
  onProgress?: (done: number, total: number) => void;
}

// ---------------------------------------------------------------------------------------------
// checksum

/**
 * 32-bit hash of a byte range (length a multiple of 4 for the fast path): h = (h ^ word) * odd,
 * two interleaved lanes. Each step is a bijection of h, so a change in any one word always
 * changes the result.
 */
export function tsrChecksum(bytes: Uint8Array): number {
  const n4 = bytes.byteLength >>> 2;
  let h1 = 0x811c9dc5 ^ bytes.byteLength;
  let h2 = 0x01000193;
  if ((bytes.byteOffset & 3) === 0) {
    const w = new Int32Array(bytes.buffer, bytes.byteOffset, n4);
    let i = 0;
    for (; i + 1 < n4; i += 2) {
      h1 = Math.imul(h1 ^ w[i]!, 0x9e3779b1);
      h2 = Math.imul(h2 ^ w[i + 1]!, 0x85ebca77);
    }
    if (i < n4) h1 = Math.imul(h1 ^ w[i]!, 0x9e3779b1);
  } else {
    for (let i = 0; i < n4; i++) {
      const b = 4 * i;
      const word = bytes[b]! | (bytes[b + 1]! << 8) | (bytes[b + 2]! << 16) | (bytes[b + 3]! << 24);
      if ((i & 1) === 0) h1 = Math.imul(h1 ^ word, 0x9e3779b1);
      else h2 = Math.imul(h2 ^ word, 0x85ebca77);
    }
  }
  for (let b = n4 * 4; b < bytes.byteLength; b++) h1 = Math.imul(h1 ^ bytes[b]!, 0x9e3779b1);
  let h = h1 ^ Math.imul(h2, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

// ---------------------------------------------------------------------------------------------
// write

const alignUp = (x: number, a: number): number => Math.ceil(x / a) * a;
const align8 = (x: number): number => (x + 7) & ~7;

/** The bytes of a page in the canonical layout (its buffer itself when it already is one). */
function pageBytes(p: Page, wt: WeightType | undefined): Uint8Array {
  const nv = p.vEnd - p.vBegin;
  const len = pageByteLength(nv, p.edges, wt);
  const nbrOff = align8(4 * (nv + 1));
  const canonical =
    p.buffer.byteLength === len &&
    p.offsets.byteOffset === 0 &&
    p.offsets.length === nv + 1 &&
    p.nbrs.buffer === p.buffer &&
    p.nbrs.byteOffset === nbrOff &&
    p.nbrs.length === p.edges &&
    (wt === undefined || (p.weights?.buffer === p.buffer && p.weights.byteOffset === nbrOff + align8(4 * p.edges) && p.weights.length === p.edges));
  if (canonical) return new Uint8Array(p.buffer);
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
    const header: OnDiskHeader = {
      format: 'tessera-graph',
      version: TSR_VERSION,
      numVertices: graph.numVertices,
      numEdges: graph.numEdges,
      directed: graph.directed,
      weightType: wt ?? null,
      pageEdges: graph.pageEdges,
      source: graph.source,
      created,
      ...(build ? { build: { selfLoopsDropped: build.selfLoopsDropped, duplicatesDropped: build.duplicatesDropped } } : {}),
      align: TSR_ALIGN,
      pageTables,
      arrays: arr,
      fileBytes,
    };
    headerBytes = packr.pack(header);
    const need = alignUp(PREAMBLE + headerBytes.byteLength, TSR_ALIGN);
    if (need === dataStart) break;
    dataStart = need;
  }

  const pre = Buffer.alloc(PREAMBLE);
  pre.write(TSR_MAGIC, 0, 'latin1');
  pre.writeUInt32LE(TSR_VERSION, 4);
  pre.writeUInt32LE(headerBytes.byteLength, 8);
  pre.writeUInt32LE(tsrChecksum(headerBytes), 12);

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
    if (e instanceof TesseraError) throw e;
    throw new TesseraError(`cannot write: ${(e as Error).message}`, { file: path, fix: 'check that the directory exists, is writable and has free space' });
  } finally {
    untrackTemp(tmp);
  }
}

function emptyColumns(): Columns {
  return { vBegin: [], vEnd: [], split: [], edges: [], offset: [], length: [], checksum: [] };
}

/** Largest single read/write call (Node rejects lengths >= 2 GiB). */
const IO_MAX = 1 << 30;

async function writeAt(fh: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  let off = 0;
  while (off < bytes.byteLength) {
    const len = Math.min(IO_MAX, bytes.byteLength - off);
    const { bytesWritten } = await fh.write(bytes, off, len, position + off);
    off += bytesWritten;
  }
}

// ---------------------------------------------------------------------------------------------
// read

/** A path, an open FileHandle, or a numeric file descriptor. */
export type TsrSource = string | FileHandle | number;

function readFd(fd: number, buf: Uint8Array, off: number, len: number, pos: number): Promise<number> {
  return new Promise((resolve, reject) => readCb(fd, buf, off, len, pos, (err, n) => (err ? reject(err) : resolve(n))));
}

/** Reads exactly buf.byteLength bytes at `position`, or fails with a truncation error. */
async function readAt(h: FileHandle | number, buf: Uint8Array, position: number, file: string): Promise<void> {
  let off = 0;
  while (off < buf.byteLength) {
    const len = Math.min(IO_MAX, buf.byteLength - off);
    const n = typeof h === 'number' ? await readFd(h, buf, off, len, position + off) : (await h.read(buf, off, len, position + off)).bytesRead;
    if (n === 0) {
      throw new TesseraError(`the file is truncated (it ends before byte ${position + buf.byteLength})`, {
        file,
        fix: 'write it again (tessera convert INPUT --out FILE.tsr)',
      });
    }
    off += n;
  }
}

async function withHandle<T>(src: TsrSource, fn: (h: FileHandle | number, file: string) => Promise<T>): Promise<T> {
  if (typeof src !== 'string') return fn(src, typeof src === 'number' ? `fd ${src}` : `fd ${src.fd}`);
  let fh: FileHandle;
  try {
    fh = await open(src, 'r');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new TesseraError(code === 'ENOENT' ? 'no such file' : `cannot open: ${(e as Error).message}`, {
      file: src,
      fix: code === 'ENOENT' ? 'check the path' : 'check the permissions',
    });
  }
  try {
    return await fn(fh, src);
  } finally {
    await fh.close().catch(() => undefined);
  }
}

async function fileSize(h: FileHandle | number, file: string): Promise<number> {
  try {
    if (typeof h === 'number') {
      const { fstat } = await import('node:fs');
      return await new Promise((resolve, reject) => fstat(h, (err, st) => (err ? reject(err) : resolve(st.size))));
    }
    return (await h.stat()).size;
  } catch (e) {
    throw new TesseraError(`cannot stat: ${(e as Error).message}`, { file });
  }
}

/** Reads and validates the preamble and header of a .tsr file. */
export async function readTsrHeader(src: TsrSource): Promise<TsrHeader> {
  return withHandle(src, (h, file) => readHeaderFrom(h, file));
}

async function readHeaderFrom(h: FileHandle | number, file: string): Promise<TsrHeader> {
  const size = await fileSize(h, file);
  const fix = 'write it again (tessera convert INPUT --out FILE.tsr)';
  if (size < PREAMBLE) {
    throw new TesseraError(`not a tessera graph file: only ${size} bytes`, { file, fix: size === 0 ? 'the file is empty; ' + fix : fix });
  }
  const pre = Buffer.alloc(PREAMBLE);
  await readAt(h, pre, 0, file);
  const magic = pre.toString('latin1', 0, 4);
  if (magic !== TSR_MAGIC) {
    throw new TesseraError(`not a tessera graph file (it starts with ${JSON.stringify(magic)}, not "${TSR_MAGIC}")`, {
      file,
      fix: 'give a .tsr file written by tessera, or convert the graph first (tessera convert IN --out OUT.tsr)',
    });
  }
  const version = pre.readUInt32LE(4);
  if (version !== TSR_VERSION) {
    throw new TesseraError(`unsupported .tsr version ${version} (this tessera reads version ${TSR_VERSION})`, {
      file,
      fix: 'convert the graph again with this tessera',
    });
  }
  const hlen = pre.readUInt32LE(8);
  if (PREAMBLE + hlen > size) {
    throw new TesseraError(`the file is truncated: its header needs ${PREAMBLE + hlen} bytes, the file has ${size}`, { file, fix });
  }
  const hbytes = Buffer.alloc(hlen);
  await readAt(h, hbytes, PREAMBLE, file);
  if (tsrChecksum(hbytes) !== pre.readUInt32LE(12)) {
    throw new TesseraError('the header is corrupt (checksum mismatch)', { file, fix });
  }
  let raw: unknown;
  try {
    raw = packr.unpack(hbytes);
  } catch (e) {
    throw new TesseraError(`the header is corrupt (${(e as Error).message})`, { file, fix });
  }
  const header = validateHeader(raw, file);
  if (size < header.fileBytes) {
    throw new TesseraError(`the file is truncated: ${size} bytes, the header says ${header.fileBytes}`, { file, fix });
  }
  return header;
}

function validateHeader(raw: unknown, file: string): TsrHeader {
  const bad = (what: string): TesseraError =>
    new TesseraError(`the header is corrupt: ${what}`, { file, fix: 'write it again (tessera convert INPUT --out FILE.tsr)' });
  const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  const uint = (x: unknown, what: string): number => {
    if (typeof x !== 'number' || !Number.isSafeInteger(x) || x < 0) throw bad(`${what} is not a non-negative integer`);
    return x;
  };
  if (!isObj(raw) || raw.format !== 'tessera-graph') throw bad('not a tessera-graph header');
  const n = uint(raw.numVertices, 'numVertices');
  if (n > 0xffffffff) throw bad('numVertices exceeds 2^32');
  const numEdges = uint(raw.numEdges, 'numEdges');
  if (typeof raw.directed !== 'boolean') throw bad('directed is not a boolean');
  const directed = raw.directed;
  const wtRaw = raw.weightType;
  if (wtRaw !== null && wtRaw !== undefined && wtRaw !== 'float32' && wtRaw !== 'float64') throw bad(`unknown weight type ${JSON.stringify(wtRaw)}`);
  const wt = (wtRaw ?? undefined) as WeightType | undefined;
  const pageEdges = uint(raw.pageEdges, 'pageEdges');
  const fileBytes = uint(raw.fileBytes, 'fileBytes');
  const source = typeof raw.source === 'string' ? raw.source : file;
  const created = typeof raw.created === 'string' ? raw.created : '';

  const blob = (off: unknown, len: unknown, ck: unknown, what: string): TsrBlob => {
    const b = { offset: uint(off, `${what} offset`), length: uint(len, `${what} length`), checksum: uint(ck, `${what} checksum`) };
    if (b.offset % TSR_ALIGN !== 0 || b.offset < TSR_ALIGN) throw bad(`${what} offset ${b.offset} is not 4096-aligned`);
    if (b.offset + b.length > fileBytes) throw bad(`${what} ends past the end of the file`);
    return b;
  };
  const table = (cols: unknown, o: Orientation): TsrPageEntry[] => {
    if (!isObj(cols)) throw bad(`page table '${o}' is missing`);
    const names = ['vBegin', 'vEnd', 'split', 'edges', 'offset', 'length', 'checksum'] as const;
    const c = {} as Record<(typeof names)[number], unknown[]>;
    for (const k of names) {
      const v = cols[k];
      if (!Array.isArray(v)) throw bad(`page table '${o}' has no column ${k}`);
      c[k] = v;
    }
    const count = c.vBegin.length;
    for (const k of names) if (c[k].length !== count) throw bad(`page table '${o}' columns differ in length`);
    const out: TsrPageEntry[] = [];
    let sum = 0;
    for (let i = 0; i < count; i++) {
      const what = `${o} page ${i}`;
      const e: TsrPageEntry = {
        index: i,
        vBegin: uint(c.vBegin[i], `${what} vBegin`),
        vEnd: uint(c.vEnd[i], `${what} vEnd`),
        split: c.split[i] === 1 || c.split[i] === true,
        edges: uint(c.edges[i], `${what} edges`),
        ...blob(c.offset[i], c.length[i], c.checksum[i], what),
      };
      if (!(e.vBegin < e.vEnd && e.vEnd <= n)) throw bad(`${what} covers vertices [${e.vBegin}, ${e.vEnd}) outside [0, ${n})`);
      const prev = out[i - 1];
      // Pages follow each other; only the pieces of one split vertex share it.
      if (prev !== undefined && e.vBegin < prev.vEnd && !(e.split && prev.split && prev.vBegin === e.vBegin)) {
        throw bad(`${what} overlaps the page before it`);
      }
      if (e.split && e.vEnd !== e.vBegin + 1) throw bad(`${what} is split but holds ${e.vEnd - e.vBegin} vertices`);
      const expect = pageByteLength(e.vEnd - e.vBegin, e.edges, wt);
      if (e.length !== expect) throw bad(`${what} is ${e.length} bytes, expected ${expect}`);
      sum += e.edges;
      out.push(e);
    }
    if (sum !== numEdges) throw bad(`page table '${o}' holds ${sum} edges, the header says ${numEdges}`);
    return out;
  };
  const pt = raw.pageTables;
  if (!isObj(pt)) throw bad('page tables are missing');
  const outPages = table(pt.out, 'out');
  const inPages = directed ? table(pt.in, 'in') : outPages;
  const arr = raw.arrays;
  if (!isObj(arr)) throw bad('array table is missing');
  const arrayBlob = (name: string): TsrBlob => {
    const t = arr[name];
    if (!Array.isArray(t) || t.length !== 3) throw bad(`array ${name} is missing`);
    const b = blob(t[0], t[1], t[2], `array ${name}`);
    if (b.length !== 4 * n) throw bad(`array ${name} is ${b.length} bytes, expected ${4 * n}`);
    return b;
  };
  const outDegree = arrayBlob('outDegree');
  const inDegree = directed ? arrayBlob('inDegree') : outDegree;
  let build: TsrHeader['build'];
  if (isObj(raw.build)) {
    build = { selfLoopsDropped: uint(raw.build.selfLoopsDropped, 'build.selfLoopsDropped'), duplicatesDropped: uint(raw.build.duplicatesDropped, 'build.duplicatesDropped') };
  }
  return {
    file,
    version: TSR_VERSION,
    numVertices: n,
    numEdges,
    directed,
    weightType: wt,
    pageEdges,
    source,
    created,
    build,
    pages: { out: outPages, in: inPages },
    arrays: { outDegree, inDegree, toOriginal: arrayBlob('toOriginal'), byOriginal: arrayBlob('byOriginal') },
    fileBytes,
  };
}

export interface TsrReadOptions extends TsrProgress {
  /** Check every blob's checksum and every page's offsets (default true). */
  verify?: boolean;
}

async function readBlob(h: FileHandle | number, b: TsrBlob, file: string, what: string, verify: boolean): Promise<SharedArrayBuffer> {
  const sab = new SharedArrayBuffer(b.length);
  const bytes = new Uint8Array(sab);
  await readAt(h, bytes, b.offset, file);
  if (verify && tsrChecksum(bytes) !== b.checksum) {
    throw new TesseraError(`${what} is corrupt (checksum mismatch at byte ${b.offset})`, { file, fix: 'write it again (tessera convert INPUT --out FILE.tsr)' });
  }
  return sab;
}

function pageFrom(sab: SharedArrayBuffer, e: TsrPageEntry, wt: WeightType | undefined, file: string, what: string, verify: boolean): Page {
  const p = pageOver(sab, e.index, e.vBegin, e.vEnd, e.edges, e.split, wt);
  const nv = e.vEnd - e.vBegin;
  if (p.offsets[0] !== 0 || p.offsets[nv] !== e.edges) {
    throw new TesseraError(`${what} is corrupt (offsets run from ${p.offsets[0]} to ${p.offsets[nv]}, expected 0 to ${e.edges})`, { file });
  }
  if (verify) {
    for (let k = 0; k < nv; k++) {
      if (p.offsets[k]! > p.offsets[k + 1]!) throw new TesseraError(`${what} is corrupt (offsets decrease at vertex ${e.vBegin + k})`, { file });
    }
  }
  return p;
}

/**
 * Reads one page (orientation 'in' of an undirected graph reads the shared 'out' page) into its
 * own SharedArrayBuffer, without touching the rest of the file. `src` may be a path or an open
 * file (FileHandle or fd), so a streamer can keep one file open.
 */
export async function readTsrPage(src: TsrSource, header: TsrHeader, orientation: Orientation, index: number, opts: { verify?: boolean } = {}): Promise<Page> {
  const table = orientation === 'out' ? header.pages.out : header.pages.in;
  const e = table[index];
  if (e === undefined) {
    throw new TesseraError(`page ${index} does not exist (the ${orientation} page set has ${table.length} pages)`, { file: header.file });
  }
  return withHandle(src, async (h, file) => {
    const what = `${orientation} page ${index}`;
    const sab = await readBlob(h, e, file, what, opts.verify ?? true);
    return pageFrom(sab, e, header.weightType, file, what, opts.verify ?? true);
  });
}

/** Reads one of the vertex arrays (degrees, id maps) into a SharedArrayBuffer-backed Uint32Array. */
export async function readTsrArray(
  src: TsrSource,
  header: TsrHeader,
  name: keyof TsrHeader['arrays'],
  opts: { verify?: boolean } = {},
): Promise<Uint32Array> {
  return withHandle(src, async (h, file) => new Uint32Array(await readBlob(h, header.arrays[name], file, `array ${name}`, opts.verify ?? true)));
}

/** Reads a whole .tsr file back into a Graph (exact round trip of writeTsr). */
export async function readTsr(path: string, opts: TsrReadOptions = {}): Promise<Graph> {
  const verify = opts.verify ?? true;
  return withHandle(path, async (h, file) => {
    const header = await readHeaderFrom(h, file);
    const n = header.numVertices;
    const wt = header.weightType;
    let total = 0;
    for (const e of header.pages.out) total += e.length;
    if (header.directed) for (const e of header.pages.in) total += e.length;
    total += (header.directed ? 4 : 3) * 4 * n;
    let done = 0;
    const tick = (b: number): void => {
      done += b;
      opts.onProgress?.(done, total);
    };
    const readSet = async (o: Orientation): Promise<PageSet> => {
      const entries = o === 'out' ? header.pages.out : header.pages.in;
      const pages: Page[] = [];
      for (const e of entries) {
        const what = `${o} page ${e.index}`;
        pages.push(pageFrom(await readBlob(h, e, file, what, verify), e, wt, file, what, verify));
        tick(e.length);
      }
      const firstPageOf = new Uint32Array(new SharedArrayBuffer(4 * n));
      for (let k = pages.length - 1; k >= 0; k--) for (let v = pages[k]!.vBegin; v < pages[k]!.vEnd; v++) firstPageOf[v] = k;
      return { orientation: o, pages, firstPageOf };
    };
    const arr = async (name: keyof TsrHeader['arrays']): Promise<Uint32Array> => {
      const a = new Uint32Array(await readBlob(h, header.arrays[name], file, `array ${name}`, verify));
      tick(a.byteLength);
      return a;
    };
    const out = await readSet('out');
    const inSet = header.directed ? await readSet('in') : out;
    const outDegree = await arr('outDegree');
    const inDegree = header.directed ? await arr('inDegree') : outDegree;
    const toOriginal = await arr('toOriginal');
    const byOriginal = await arr('byOriginal');
    const g: Graph = {
      numVertices: n,
      numEdges: header.numEdges,
      directed: header.directed,
      weightType: wt,
      out,
      in: inSet,
      outDegree,
      inDegree,
      ids: { toOriginal, byOriginal },
      pageEdges: header.pageEdges,
      source: header.source,
    };
    return g;
  });
}

/** True when the file starts with the .tsr magic (cheap sniffing for loaders). */
export async function isTsrFile(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    const fh = await open(path, 'r');
    try {
      const b = Buffer.alloc(4);
      const { bytesRead } = await fh.read(b, 0, 4, 0);
      return bytesRead === 4 && b.toString('latin1') === TSR_MAGIC;
    } finally {
      await fh.close();
    }
  } catch {
    return false;
  }
}
