/** Reading and verifying .tsr files (the format is described in tsr.ts). */
import { open, stat, type FileHandle } from 'node:fs/promises';
import { read as readCb } from 'node:fs';
import { TesseraError } from '../errors.js';
import { availableParallelism } from 'node:os';
import { checkGraphFits, gib } from './memory.js';
import { pageByteLength, pageOver } from './pages.js';
import type { Graph, Orientation, Page, PageSet, WeightType } from './types.js';
import { nativeTsrLoad, nativeTsrStop } from '../../actors/gpu/native-host.js';
import { firstPages } from './first-pages.js';
import { OFFSETS_BAD, OUT_OF_RANGE, checkBlobs, neighbourProblem, offsetsProblem, weightProblem, type BlobToCheck } from './tsr-check.js';
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

function checksumProblem(sab: SharedArrayBuffer, b: TsrBlob, got = checkBlobs([{ bytes: new Uint8Array(sab), nv: -1, from: 0, to: 0 }], 0)[0]!): string | undefined {
  return got === b.checksum ? undefined : `checksum mismatch (bytes ${b.offset} to ${b.offset + b.length} changed after the file was written)`;
}

async function readBlob(h: FileHandle | number, b: TsrBlob, file: string, what: string, verify: boolean, source?: string): Promise<SharedArrayBuffer> {
  const sab = await readBlobBytes(h, b, file);
  const problem = verify ? checksumProblem(sab, b) : undefined;
  if (problem !== undefined) throw new TesseraError(`${what} is corrupt: ${problem}`, { file, fix: damagedFix(source) });
  return sab;
}

/** What checkBlobs needs of a page's blob (from `base` of its buffer). */
function pageToCheck(sab: SharedArrayBuffer, e: TsrPageEntry, base: number): BlobToCheck {
  const nv = e.vEnd - e.vBegin;
  // The ids' words follow the offsets, 8-byte aligned (pages.ts).
  const from = (((4 * (nv + 1) + 7) & ~7) >>> 2);
  // The blob's own bytes: a page store's arena holds other pages around it (store.ts).
  return { bytes: new Uint8Array(sab, base, e.length), nv, from, to: from + e.edges };
}

/**
 * A page over a blob's bytes, checked. With `verify`: offsets (from 0, never decreasing, ending at
 * the edge count), then neighbour ids below numVertices and the checksum in one pass ('full' adds
 * finite weights); a structural problem is reported before a checksum mismatch, as it says more.
 * Without: only where the offsets start and end. `sab` is unchecked bytes (the blob from `base`);
 * `checked`: its checksum and flags from checkBlobs already (readTsr checks many at once).
 */
export function pageFrom(sab: SharedArrayBuffer, e: TsrPageEntry, header: Pick<TsrHeader, 'numVertices' | 'weightType' | 'source'>, file: string, what: string, verify: boolean | 'full', base = 0, checked?: { checksum: number; flags: number }): Page {
  const p = pageOver(sab, e.index, e.vBegin, e.vEnd, e.edges, e.split, header.weightType, base);
  const n = header.numVertices;
  let problem: string | undefined;
  if (verify === false) problem = offsetsProblem(p, false);
  else {
    let c = checked;
    if (c === undefined) {
      const r = checkBlobs([pageToCheck(sab, e, base)], n);
      c = { checksum: r[0]!, flags: r[1]! };
    }
    if ((c.flags & OFFSETS_BAD) !== 0) problem = offsetsProblem(p, true);
    if (problem === undefined && (c.flags & OUT_OF_RANGE) !== 0) problem = neighbourProblem(p, n);
    if (problem === undefined && verify === 'full') problem = weightProblem(p);
    if (problem === undefined && c.checksum !== e.checksum) {
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

/** One of readTsr's blobs: a page or an array. */
type Item = { blob: TsrBlob; page?: [Orientation, TsrPageEntry]; array?: keyof TsrHeader['arrays'] };

function toCheck(it: Item, sab: SharedArrayBuffer, base = 0): BlobToCheck {
  return it.page !== undefined ? pageToCheck(sab, it.page[1], base) : { bytes: new Uint8Array(sab), nv: -1, from: 0, to: 0 };
}

/** A blob read (from `base` of its buffer), with (when verified) its checksum and checkBlobs flags. */
type ReadBlob = { sab: SharedArrayBuffer; base: number; checksum: number; flags: number };

/** Where a read batch's pages start in its one buffer: at 4 KiB boundaries, so no two share an OS page (a GPU page-locks each alone). */
const PAGE_ALIGN = 4096;

/** Blob reads kept in flight on libuv's threads (readBlobs without the addon). */
const READ_AHEAD = Math.max(8, 2 * availableParallelism());
/**
 * Bytes of one tsrLoad call (readBlobs with the addon; two are in flight). The next call starts
 * only when this thread gets to it, which the CLI's module compiles delay during a load: large
 * calls leave fewer turns to wait for (bench/results/h200-2026-11-29-cli-exit). At most `blobs`
 * blobs a call. (Tests lower both to read a small file in several calls.)
 */
export const LOAD_RUN = { bytes: 1 << 30, blobs: 256 };
let stopAtExit = false;

/**
 * readTsr's blobs read and (with `verify`) checked, yielded in file order. With the addon, runs
 * of blobs are read and checked on its threads (tsrLoad), two runs in flight; a blob it could not
 * read whole is read again here, for the error readAt gives. Without, libuv's threads read
 * READ_AHEAD blobs ahead while those read already are checked.
 */
async function* readBlobs(h: FileHandle | number, file: string, items: readonly Item[], n: number, verify: boolean): AsyncGenerator<ReadBlob> {
  const load = nativeTsrLoad();
  if (load !== undefined) {
    // Node waits for its thread pool's work at exit (a refused run exits during its load): the
    // reads in flight stop then at their next chunk.
    if (!stopAtExit) (stopAtExit = true), process.once('exit', () => nativeTsrStop()?.());
    const fd = typeof h === 'number' ? h : h.fd;
    const maxBlobs = Math.max(1, LOAD_RUN.blobs);
    let next = 0;
    const start = () => {
      const k = next;
      let bytes = 0;
      while (next < items.length && (next === k || (bytes < LOAD_RUN.bytes && next - k < maxBlobs))) bytes += items[next++]!.blob.length;
      const run = items.slice(k, next);
      // The batch's pages in one buffer, huge pages asked for it whole (one page's own buffer of a
      // few MiB got them for about half its bytes: the 2 MiB pages wholly inside it); the vertex
      // arrays in their own.
      let arenaBytes = 0;
      const bases = run.map((it) => {
        if (it.page === undefined) return 0;
        const at = arenaBytes;
        arenaBytes += Math.ceil(it.blob.length / PAGE_ALIGN) * PAGE_ALIGN;
        return at;
      });
      const arena = arenaBytes > 0 ? new SharedArrayBuffer(arenaBytes) : undefined;
      const sabs = run.map((it) => (it.page !== undefined ? arena! : new SharedArrayBuffer(it.blob.length)));
      const spec = new Float64Array(3 * run.length);
      const positions = new Float64Array(run.length);
      run.forEach((it, i) => {
        const c = toCheck(it, sabs[i]!, bases[i]);
        spec.set([c.nv, c.from, c.to], 3 * i);
        positions[i] = it.blob.offset;
      });
      const out = new Uint32Array(3 * run.length);
      const done = load(fd, run.map((it, i) => new Uint8Array(sabs[i]!, bases[i], it.blob.length)), positions, spec, n, verify, out, arena !== undefined ? new Uint8Array(arena) : undefined);
      done.catch(() => undefined);
      return { run, sabs, bases, out, done };
    };
    const inFlight = [start()];
    try {
      while (inFlight.length > 0) {
        if (next < items.length) inFlight.push(start());
        const { run, sabs, bases, out, done } = inFlight[0]!;
        await done;
        for (let i = 0; i < run.length; i++) {
          const sab = sabs[i]!;
          const base = bases[i]!;
          if (out[3 * i + 2] !== 0) {
            await readAt(h, new Uint8Array(sab, base, run[i]!.blob.length), run[i]!.blob.offset, file);
            const c = verify ? checkBlobs([toCheck(run[i]!, sab, base)], n) : [0, 0];
            yield { sab, base, checksum: c[0]!, flags: c[1]! };
          } else yield { sab, base, checksum: out[3 * i]!, flags: out[3 * i + 1]! };
        }
        inFlight.shift();
      }
    } finally {
      // The file stays open till no read of it is left.
      await Promise.allSettled(inFlight.map((r) => r.done));
    }
    return;
  }
  const reads: Array<Promise<SharedArrayBuffer>> = [];
  const ready: Array<SharedArrayBuffer | undefined> = [];
  const issue = (upTo: number): void => {
    for (let k = reads.length; k < Math.min(upTo, items.length); k++) {
      const r = readBlobBytes(h, items[k]!.blob, file);
      // Observed in order below; a failure ahead of a corrupt page must not go unhandled.
      r.then((sab) => (ready[k] = sab), () => undefined);
      reads.push(r);
    }
  };
  try {
    for (let k = 0; k < items.length; ) {
      issue(k + READ_AHEAD);
      const batch = [await reads[k]!];
      for (let j = k + 1; j < reads.length && ready[j] !== undefined; j++) batch.push(ready[j]!);
      const checks = verify ? checkBlobs(batch.map((sab, i) => toCheck(items[k + i]!, sab)), n) : undefined;
      for (let i = 0; i < batch.length; i++) yield { sab: batch[i]!, base: 0, checksum: checks?.[2 * i] ?? 0, flags: checks?.[2 * i + 1] ?? 0 };
      k += batch.length;
    }
  } finally {
    await Promise.allSettled(reads);
  }
}

/** Reads a whole .tsr file back into a Graph (exact round trip of writeTsr). */
export async function readTsr(path: string, opts: TsrReadOptions = {}): Promise<Graph> {
  const verify = opts.verify ?? true;
  return withHandle(path, async (h, file) => {
    const header = await readHeaderFrom(h, file);
    // The file is read whole; per vertex the run's arrays come on top (memory.ts).
    checkGraphFits(header.numVertices, 0, { file, what: 'this .tsr', says: `holds ${header.numVertices} vertices and ${header.numEdges} edges in ${gib(header.fileBytes)}`, held: header.fileBytes });
    const n = header.numVertices;
    const wt = header.weightType;
    // Every blob in file order: the pages, then the arrays.
    const arrayNames: Array<keyof TsrHeader['arrays']> = header.directed ? ['outDegree', 'inDegree', 'toOriginal', 'byOriginal'] : ['outDegree', 'toOriginal', 'byOriginal'];
    const items: Item[] = header.pages.out.map((e): Item => ({ blob: e, page: ['out', e] }));
    if (header.directed) for (const e of header.pages.in) items.push({ blob: e, page: ['in', e] });
    for (const name of arrayNames) items.push({ blob: header.arrays[name], array: name });
    let total = 0;
    for (const it of items) total += it.blob.length;
    let done = 0;
    const pagesOf: Record<Orientation, Page[]> = { out: [], in: [] };
    const arrays: Partial<Record<keyof TsrHeader['arrays'], Uint32Array>> = {};
    let k = 0;
    for await (const { sab, base, checksum, flags } of readBlobs(h, file, items, n, verify)) {
      const it = items[k++]!;
      if (it.page !== undefined) {
        const [o, e] = it.page;
        pagesOf[o].push(pageFrom(sab, e, header, file, `${o} page ${e.index}`, verify, base, { checksum, flags }));
      } else {
        const problem = verify ? checksumProblem(sab, it.blob, checksum) : undefined;
        if (problem !== undefined) throw new TesseraError(`array ${it.array} is corrupt: ${problem}`, { file, fix: damagedFix(header.source) });
        arrays[it.array!] = new Uint32Array(sab);
      }
      done += it.blob.length;
      opts.onProgress?.(done, total);
    }
    const setOf = (o: Orientation): PageSet => {
      const pages = pagesOf[o];
      return { orientation: o, pages, firstPageOf: firstPages(pages, n) };
    };
    const out = setOf('out');
    const inSet = header.directed ? setOf('in') : out;
    const outDegree = arrays.outDegree!;
    const inDegree = header.directed ? arrays.inDegree! : outDegree;
    const toOriginal = arrays.toOriginal!;
    const byOriginal = arrays.byOriginal!;
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
