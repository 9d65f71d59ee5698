/** Reading and verifying .tsr files (the format is described in tsr.ts). */
import { open, stat, type FileHandle } from 'node:fs/promises';
import { read as readCb } from 'node:fs';
import { TesseraError } from '../errors.js';
import { checkGraphFits, gib } from './memory.js';
import { pageByteLength, pageOver } from './pages.js';
import type { Graph, Orientation, Page, PageSet, WeightType } from './types.js';
import { IO_MAX, PREAMBLE, TSR_ALIGN, TSR_MAGIC, TSR_VERSION, packr, tsrChecksum, type TsrBlob, type TsrHeader, type TsrPageEntry, type TsrProgress } from './tsr-format.js';

/**
 * The fix for a file whose bytes are damaged (truncated, or a corrupt header, page or array):
 * nothing in the file can be trusted, so it is made again from its source.
 */
export function damagedFix(source?: string): string {
  const from = source !== undefined && source !== '' ? `; it was made from ${source}` : '';
  return `the file is damaged: convert the source graph again (tessera convert SOURCE --out FILE.tsr${from})`;
}

/** A path, an open FileHandle, or a numeric file descriptor. */
export type TsrSource = string | FileHandle | number;

function readFd(fd: number, buf: Uint8Array, off: number, len: number, pos: number): Promise<number> {
  return new Promise((resolve, reject) => readCb(fd, buf, off, len, pos, (err, n) => (err ? reject(err) : resolve(n))));
}

/** Reads exactly buf.byteLength bytes at `position`, or fails with a truncation error (`source`: what the file was made from). */
export async function readAt(h: FileHandle | number, buf: Uint8Array, position: number, file: string, source?: string): Promise<void> {
  let off = 0;
  while (off < buf.byteLength) {
    const len = Math.min(IO_MAX, buf.byteLength - off);
    const n = typeof h === 'number' ? await readFd(h, buf, off, len, position + off) : (await h.read(buf, off, len, position + off)).bytesRead;
    if (n === 0) {
      throw new TesseraError(`the file is truncated (it ends before byte ${position + buf.byteLength})`, {
        file,
        fix: damagedFix(source),
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
  const fix = damagedFix();
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
    // Name the first blob the cut reaches (blobs are laid out in this order).
    const blobs: Array<[string, TsrBlob]> = header.pages.out.map((e) => [`out page ${e.index}`, e]);
    if (header.directed) blobs.push(...header.pages.in.map((e): [string, TsrBlob] => [`in page ${e.index}`, e]));
    blobs.push(['array outDegree', header.arrays.outDegree]);
    if (header.directed) blobs.push(['array inDegree', header.arrays.inDegree]);
    blobs.push(['array toOriginal', header.arrays.toOriginal], ['array byOriginal', header.arrays.byOriginal]);
    const cut = blobs.find(([, b]) => b.offset + b.length > size);
    const lost = cut === undefined ? '' : ` (${cut[0]} and everything after it are cut off)`;
    throw new TesseraError(`the file is truncated: ${size} bytes, the header says ${header.fileBytes}${lost}`, { file, fix: damagedFix(header.source) });
  }
  return header;
}

function validateHeader(raw: unknown, file: string): TsrHeader {
  const bad = (what: string): TesseraError =>
    new TesseraError(`the header is corrupt: ${what}`, { file, fix: damagedFix() });
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
  /**
   * Check every blob's checksum and every page's structure: offsets from 0, never decreasing,
   * ending at the page's edge count; neighbour ids below numVertices (default true; it rides on
   * the checksum's pass). false: only where each page's offsets start and end.
   */
  verify?: boolean;
}

/** Reads a blob's bytes into its own SharedArrayBuffer (no checks). */
async function readBlobBytes(h: FileHandle | number, b: TsrBlob, file: string): Promise<SharedArrayBuffer> {
  const sab = new SharedArrayBuffer(b.length);
  await readAt(h, new Uint8Array(sab), b.offset, file);
  return sab;
}

function checksumProblem(sab: SharedArrayBuffer, b: TsrBlob): string | undefined {
  const got = tsrChecksum(new Uint8Array(sab));
  return got === b.checksum ? undefined : `checksum mismatch (bytes ${b.offset} to ${b.offset + b.length} changed after the file was written)`;
}

async function readBlob(h: FileHandle | number, b: TsrBlob, file: string, what: string, verify: boolean, source?: string): Promise<SharedArrayBuffer> {
  const sab = await readBlobBytes(h, b, file);
  const problem = verify ? checksumProblem(sab, b) : undefined;
  if (problem !== undefined) throw new TesseraError(`${what} is corrupt: ${problem}`, { file, fix: damagedFix(source) });
  return sab;
}

/** The vertex whose edge range holds page edge k (offsets already known to be monotone). */
function vertexOfEdge(p: Page, k: number): number {
  let lo = 0;
  let hi = p.vEnd - p.vBegin - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (p.offsets[mid]! <= k) lo = mid;
    else hi = mid - 1;
  }
  return p.vBegin + lo;
}

export function offsetsProblem(p: Pick<Page, 'offsets' | 'vBegin' | 'vEnd' | 'edges'>, monotone: boolean): string | undefined {
  const { offsets } = p;
  const nv = p.vEnd - p.vBegin;
  if (offsets[0] !== 0) return `its offsets start at ${offsets[0]}, not 0`;
  if (monotone) {
    for (let k = 0; k < nv; k++) {
      if (offsets[k]! > offsets[k + 1]!) return `its offsets decrease at vertex ${p.vBegin + k} (its edges start at ${offsets[k]} and end at ${offsets[k + 1]})`;
    }
  }
  if (offsets[nv] !== p.edges) return `its offsets end at ${offsets[nv]}, but the page holds ${p.edges} edges`;
  return undefined;
}

function neighbourProblem(p: Page, n: number): string | undefined {
  const { nbrs } = p;
  const m = p.edges;
  let k = 0;
  while (k < m && nbrs[k]! < n) k++;
  return k < m ? `vertex ${vertexOfEdge(p, k)} has neighbour id ${nbrs[k]} (edge ${k} of the page), not below the ${n} vertices` : undefined;
}

function weightProblem(p: Page): string | undefined {
  const w = p.weights;
  if (w === undefined) return undefined;
  for (let k = 0; k < p.edges; k++) {
    if (!Number.isFinite(w[k]!)) return `vertex ${vertexOfEdge(p, k)} has weight ${w[k]} (edge ${k} of the page), not a finite number`;
  }
  return undefined;
}

/**
 * What is wrong with a page's structure, or undefined when nothing is. `level` 'ends': where the
 * offsets start and end only (O(1)); 'read': also offsets never decreasing and every neighbour id
 * below n (what a verified read checks); 'full': also finite weights (verifyTsr).
 */
export function tsrPageProblem(p: Page, n: number, level: 'ends' | 'read' | 'full'): string | undefined {
  return (
    offsetsProblem(p, level !== 'ends') ??
    (level === 'ends' ? undefined : neighbourProblem(p, n)) ??
    (level === 'full' ? weightProblem(p) : undefined)
  );
}

/** Set by checksumAndRange: whether a word of its range may be >= its bound (false: none is). */
let outOfRange = false;

/**
 * tsrChecksum of a byte range, and (into outOfRange) whether any u32 word among words [from, to)
 * (from even) is >= n. The neighbour-id check rides on the checksum's pass over the page, branch
 * free (for n <= 2^31, a word a is below n exactly when neither a nor (n - 1) - a has its int32
 * sign bit set), costing a fraction of a second pass. The padding word after an odd count is
 * included (it is zero in files this module writes); a caller rescans before blaming an id.
 */
function checksumAndRange(bytes: Uint8Array, from: number, to: number, n: number): number {
  const n4 = bytes.byteLength >>> 2;
  if ((bytes.byteOffset & 3) !== 0 || (from & 1) !== 0 || n > 2 ** 31) {
    // Not a layout this module makes, or a huge n: the plain checksum, and the caller rescans.
    outOfRange = true;
    return tsrChecksum(bytes);
  }
  const w = new Int32Array(bytes.buffer, bytes.byteOffset, n4);
  const end = Math.min(to + (to & 1), n4 & ~1);
  const nm1 = n - 1;
  let h1 = 0x811c9dc5 ^ bytes.byteLength;
  let h2 = 0x01000193;
  let bad = 0;
  let i = 0;
  for (; i + 1 < from; i += 2) {
    h1 = Math.imul(h1 ^ w[i]!, 0x9e3779b1);
    h2 = Math.imul(h2 ^ w[i + 1]!, 0x85ebca77);
  }
  for (; i + 3 < end; i += 4) {
    const a = w[i]!;
    const b = w[i + 1]!;
    const c = w[i + 2]!;
    const d = w[i + 3]!;
    h1 = Math.imul(Math.imul(h1 ^ a, 0x9e3779b1) ^ c, 0x9e3779b1);
    h2 = Math.imul(Math.imul(h2 ^ b, 0x85ebca77) ^ d, 0x85ebca77);
    bad |= a | b | c | d | (nm1 - a) | (nm1 - b) | (nm1 - c) | (nm1 - d);
  }
  for (; i < end; i += 2) {
    const a = w[i]!;
    const b = w[i + 1]!;
    h1 = Math.imul(h1 ^ a, 0x9e3779b1);
    h2 = Math.imul(h2 ^ b, 0x85ebca77);
    bad |= a | b | (nm1 - a) | (nm1 - b);
  }
  for (; i + 1 < n4; i += 2) {
    h1 = Math.imul(h1 ^ w[i]!, 0x9e3779b1);
    h2 = Math.imul(h2 ^ w[i + 1]!, 0x85ebca77);
  }
  if (i < n4) h1 = Math.imul(h1 ^ w[i]!, 0x9e3779b1);
  for (let b = n4 * 4; b < bytes.byteLength; b++) h1 = Math.imul(h1 ^ bytes[b]!, 0x9e3779b1);
  outOfRange = bad < 0;
  let h = h1 ^ Math.imul(h2, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/**
 * A page over a blob's bytes, checked. With `verify`: offsets (from 0, never decreasing, ending at
 * the edge count), then neighbour ids below numVertices and the checksum in one pass ('full' adds
 * finite weights); a structural problem is reported before a checksum mismatch, as it says more.
 * Without: only where the offsets start and end. `sab` is unchecked bytes (the blob from `base`).
 */
export function pageFrom(sab: SharedArrayBuffer, e: TsrPageEntry, header: Pick<TsrHeader, 'numVertices' | 'weightType' | 'source'>, file: string, what: string, verify: boolean | 'full', base = 0): Page {
  const p = pageOver(sab, e.index, e.vBegin, e.vEnd, e.edges, e.split, header.weightType, base);
  const n = header.numVertices;
  let problem = offsetsProblem(p, verify !== false);
  if (problem === undefined && verify !== false) {
    const from = (p.nbrs.byteOffset - base) >>> 2;
    // The blob's own bytes: a page store's arena holds other pages around it (store.ts).
    const checksum = checksumAndRange(new Uint8Array(sab, base, e.length), from, from + e.edges, n);
    if (outOfRange) problem = neighbourProblem(p, n);
    if (problem === undefined && verify === 'full') problem = weightProblem(p);
    if (problem === undefined && checksum !== e.checksum) {
      problem = `checksum mismatch (bytes ${e.offset} to ${e.offset + e.length} changed after the file was written)`;
    }
  }
  if (problem !== undefined) {
    const range = e.vEnd - e.vBegin === 1 ? `vertex ${e.vBegin}` : `vertices ${e.vBegin} to ${e.vEnd - 1}`;
    throw new TesseraError(`${what} (${range}) is corrupt: ${problem}`, { file, fix: damagedFix(header.source) });
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
    return pageFrom(await readBlobBytes(h, e, file), e, header, file, `${orientation} page ${index}`, opts.verify ?? true);
  });
}

/** Reads one of the vertex arrays (degrees, id maps) into a SharedArrayBuffer-backed Uint32Array. */
export async function readTsrArray(
  src: TsrSource,
  header: TsrHeader,
  name: keyof TsrHeader['arrays'],
  opts: { verify?: boolean } = {},
): Promise<Uint32Array> {
  return withHandle(src, async (h, file) => new Uint32Array(await readBlob(h, header.arrays[name], file, `array ${name}`, opts.verify ?? true, header.source)));
}

/** Page reads kept in flight while one page is checked (readTsr). */
const READ_AHEAD = 4;

/** Reads a whole .tsr file back into a Graph (exact round trip of writeTsr). */
export async function readTsr(path: string, opts: TsrReadOptions = {}): Promise<Graph> {
  const verify = opts.verify ?? true;
  return withHandle(path, async (h, file) => {
    const header = await readHeaderFrom(h, file);
    // The file is read whole; per vertex the run's arrays come on top (memory.ts).
    checkGraphFits(header.numVertices, 0, { file, what: 'this .tsr', says: `holds ${header.numVertices} vertices and ${header.numEdges} edges in ${gib(header.fileBytes)}`, held: header.fileBytes });
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
    // Pages are read READ_AHEAD ahead of the one being checked (the reads run on libuv's
    // threads, the checks here); they are still checked and reported in file order.
    const entries: Array<[Orientation, TsrPageEntry]> = header.pages.out.map((e) => ['out', e]);
    if (header.directed) for (const e of header.pages.in) entries.push(['in', e]);
    const reads: Array<Promise<SharedArrayBuffer>> = [];
    const issue = (upTo: number): void => {
      for (let k = reads.length; k < Math.min(upTo, entries.length); k++) {
        const r = readBlobBytes(h, entries[k]![1], file);
        // Observed in order below; a failure ahead of a corrupt page must not go unhandled.
        r.catch(() => undefined);
        reads.push(r);
      }
    };
    const pagesOf: Record<Orientation, Page[]> = { out: [], in: [] };
    try {
      for (let k = 0; k < entries.length; k++) {
        issue(k + 1 + READ_AHEAD);
        const [o, e] = entries[k]!;
        pagesOf[o].push(pageFrom(await reads[k]!, e, header, file, `${o} page ${e.index}`, verify));
        tick(e.length);
      }
    } finally {
      await Promise.allSettled(reads);
    }
    const setOf = (o: Orientation): PageSet => {
      const pages = pagesOf[o];
      const firstPageOf = new Uint32Array(new SharedArrayBuffer(4 * n));
      for (let k = pages.length - 1; k >= 0; k--) firstPageOf.fill(k, pages[k]!.vBegin, pages[k]!.vEnd);
      return { orientation: o, pages, firstPageOf };
    };
    const arr = async (name: keyof TsrHeader['arrays']): Promise<Uint32Array> => {
      const a = new Uint32Array(await readBlob(h, header.arrays[name], file, `array ${name}`, verify, header.source));
      tick(a.byteLength);
      return a;
    };
    const out = setOf('out');
    const inSet = header.directed ? setOf('in') : out;
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

/**
 * Checks a whole .tsr file, one blob in memory at a time, and returns its header; the first
 * problem found is a TesseraError naming the file, the page (orientation and index) or array, and
 * what is wrong. Checked: the header (its checksum, counts, page tables), vertex ranges contiguous
 * across each page table (every vertex in a page; only the pieces of a split vertex share one),
 * every page's structure (offsets from 0, never decreasing, ending at its edge count; neighbour
 * ids below numVertices; finite weights) and checksum, the degree arrays against the edges the
 * pages hold (so their sum against the header's numEdges), and the id maps: byOriginal a
 * permutation of the vertices listing them in ascending order of toOriginal (so toOriginal holds
 * distinct ids). `tessera info` runs this unless given --no-verify.
 */
export async function verifyTsr(src: TsrSource, opts: TsrProgress = {}): Promise<TsrHeader> {
  return withHandle(src, async (h, file) => {
    const header = await readHeaderFrom(h, file);
    const n = header.numVertices;
    const fix = damagedFix(header.source);
    const fail = (what: string): TesseraError => new TesseraError(what, { file, fix });
    const sets: Orientation[] = header.directed ? ['out', 'in'] : ['out'];
    let total = 0;
    for (const o of sets) for (const e of header.pages[o]) total += e.length;
    total += (header.directed ? 4 : 3) * 4 * n;
    let done = 0;
    const tick = (b: number): void => {
      done += b;
      opts.onProgress?.(done, total);
    };

    // Page tables: vertex ranges contiguous from 0 to n (validateHeader has checked each range
    // lies in [0, n), that pages do not overlap, and that split pages hold one vertex).
    for (const o of sets) {
      const table = header.pages[o];
      if (table.length === 0 && n > 0) throw fail(`the header is corrupt: the ${o} page table is empty but the graph has ${n} vertices`);
      let next = 0;
      for (const e of table) {
        const prev = table[e.index - 1];
        const continues = prev !== undefined && e.split && prev.split && prev.vBegin === e.vBegin;
        if (!continues && e.vBegin !== next) {
          const after = e.index === 0 ? 'not at vertex 0' : `but the page before it ends at vertex ${next - 1}`;
          const lost = e.vBegin - next === 1 ? `vertex ${next} is` : `vertices ${next} to ${e.vBegin - 1} are`;
          throw fail(`the header is corrupt: ${o} page ${e.index} starts at vertex ${e.vBegin}, ${after} (${lost} in no page)`);
        }
        next = e.vEnd;
      }
      if (n > 0 && next !== n) throw fail(`the header is corrupt: the last ${o} page ends at vertex ${next - 1}, but the graph has ${n} vertices`);
    }

    // Arrays: their contents are checked first (a specific message), their checksums after.
    const readArray = async (name: keyof TsrHeader['arrays']): Promise<Uint32Array> => {
      const a = new Uint32Array(await readBlobBytes(h, header.arrays[name], file));
      tick(a.byteLength);
      return a;
    };
    const checksumOf = (name: keyof TsrHeader['arrays'], a: Uint32Array): void => {
      const problem = checksumProblem(a.buffer as SharedArrayBuffer, header.arrays[name]);
      if (problem !== undefined) throw fail(`array ${name} is corrupt: ${problem}`);
    };

    // Pages, then each orientation's degree array against the edges its pages hold.
    for (const o of sets) {
      const count = new Uint32Array(n);
      for (const e of header.pages[o]) {
        const p = pageFrom(await readBlobBytes(h, e, file), e, header, file, `${o} page ${e.index}`, 'full');
        for (let v = p.vBegin; v < p.vEnd; v++) count[v] += p.offsets[v - p.vBegin + 1]! - p.offsets[v - p.vBegin]!;
        tick(e.length);
      }
      const name = o === 'out' ? 'outDegree' : 'inDegree';
      const deg = await readArray(name);
      for (let v = 0; v < n; v++) {
        if (deg[v] !== count[v]) throw fail(`array ${name} is corrupt: it gives vertex ${v} ${deg[v]} edges, its ${o} pages hold ${count[v]}`);
      }
      checksumOf(name, deg);
    }

    // Id maps.
    const toOriginal = await readArray('toOriginal');
    const byOriginal = await readArray('byOriginal');
    const seen = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const v = byOriginal[i]!;
      if (v >= n) throw fail(`array byOriginal is corrupt: entry ${i} is ${v}, not below the ${n} vertices`);
      if (seen[v] !== 0) throw fail(`array byOriginal is corrupt: it lists vertex ${v} twice`);
      seen[v] = 1;
      if (i > 0 && toOriginal[byOriginal[i - 1]!]! >= toOriginal[v]!) {
        throw fail(
          `the id maps disagree: byOriginal lists vertex ${byOriginal[i - 1]} (original id ${toOriginal[byOriginal[i - 1]!]}) before vertex ${v} (original id ${toOriginal[v]}) at entry ${i}, not in ascending order of original id`,
        );
      }
    }
    checksumOf('toOriginal', toOriginal);
    checksumOf('byOriginal', byOriginal);
    return header;
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
