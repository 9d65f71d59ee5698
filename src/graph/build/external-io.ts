/**
 * Run files of the bounded-memory builder (external.ts): edges as fixed-size records
 * [src u32, dst u32, weight f32 | pad u32 + weight f64], appended to one file in blocks, each
 * block belonging to one bucket. Every bucket has a write buffer of its own; the index of the
 * blocks (offset and count by bucket) stays in memory, so a bucket is read back in the order it
 * was written with positional reads, and one file (one descriptor) holds any number of buckets.
 * The file is tracked (tmp-files.ts) from creation to removal.
 */
import { closeSync, openSync, readSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { TesseraError } from '../../errors.js';
import { trackTemp, untrackTemp } from '../../tmp-files.js';
import { allocPage, pageByteLength, pageOver, type PageAlloc } from '../pages.js';
import type { Page, WeightType } from '../types.js';

/** u32 words of one record. */
export function recordWords(wt: WeightType | undefined): number {
  return wt === undefined ? 2 : wt === 'float32' ? 3 : 4;
}

/** A block of records viewed three ways (over one ArrayBuffer). */
export interface RecordBlock {
  u32: Uint32Array;
  /** Weights at word 2 (float32) or at float64 index 2i + 1 (float64). */
  f32: Float32Array | undefined;
  f64: Float64Array | undefined;
  words: number;
}

/** A block of `records` records, over `buf` from byte `at` (a buffer of its own by default). */
export function recordBlock(records: number, wt: WeightType | undefined, buf?: ArrayBuffer, at = 0): RecordBlock {
  const words = recordWords(wt);
  const n = Math.max(1, records);
  const b = buf ?? new ArrayBuffer(4 * words * n);
  return {
    u32: new Uint32Array(b, at, words * n),
    f32: wt === 'float32' ? new Float32Array(b, at, words * n) : undefined,
    f64: wt === 'float64' ? new Float64Array(b, at, (words * n) / 2) : undefined,
    words,
  };
}

/** The bytes of a block. */
const bytesOf = (b: RecordBlock): Uint8Array => new Uint8Array(b.u32.buffer, b.u32.byteOffset, b.u32.byteLength);

/** Weight of record i of a block. */
export function weightAt(b: RecordBlock, i: number): number {
  return b.f64 !== undefined ? b.f64[2 * i + 1]! : b.f32![3 * i + 2]!;
}

function fileError(e: unknown, file: string, doing: string): TesseraError {
  return new TesseraError(`cannot ${doing} a temporary run file: ${(e as Error).message}`, {
    file,
    fix: 'check free space and permissions there, or choose another directory with --tmp-dir',
  });
}

export class RunFile {
  private fd: number;
  private pos = 0;
  private bufs: RecordBlock[];
  private readonly fill: Uint32Array;
  /** Blocks by bucket: [offset, records, offset, records, ...]. */
  private readonly index: number[][];
  private readonly words: number;
  /** Records written (flushed or not). */
  records = 0;

  constructor(
    readonly file: string,
    readonly wt: WeightType | undefined,
    buckets: number,
    /** Records per block (the write buffer of each bucket). */
    readonly blockRecords: number,
  ) {
    this.words = recordWords(wt);
    // One buffer for all the write buffers: large enough that the allocator maps it apart and
    // returns it whole when it is dropped (buffers of a few MiB each would stay resident).
    const per = 4 * this.words * Math.max(1, blockRecords);
    const all = new ArrayBuffer(per * buckets);
    this.bufs = Array.from({ length: buckets }, (_, b) => recordBlock(blockRecords, wt, all, b * per));
    this.fill = new Uint32Array(buckets);
    this.index = Array.from({ length: buckets }, () => []);
    trackTemp(file);
    try {
      this.fd = openSync(file, 'w+');
    } catch (e) {
      untrackTemp(file);
      throw fileError(e, file, 'create');
    }
  }

  /** Appends one record to bucket b. */
  put(b: number, src: number, dst: number, w: number): void {
    const blk = this.bufs[b]!;
    const i = this.fill[b]!;
    const o = i * this.words;
    blk.u32[o] = src;
    blk.u32[o + 1] = dst;
    if (blk.f32 !== undefined) blk.f32[o + 2] = w;
    else if (blk.f64 !== undefined) blk.f64[2 * i + 1] = w;
    this.records++;
    if (i + 1 === this.blockRecords) this.flush(b, i + 1);
    else this.fill[b] = i + 1;
  }

  /** Writes every partly filled buffer and drops the buffers (the file is then only read). */
  finish(): void {
    for (let b = 0; b < this.bufs.length; b++) if (this.fill[b]! > 0) this.flush(b, this.fill[b]!);
    this.bufs = [];
  }

  /** Records of bucket b. */
  count(b: number): number {
    let n = 0;
    const ix = this.index[b]!;
    for (let k = 1; k < ix.length; k += 2) n += ix[k]!;
    return n;
  }

  /** Reads bucket b in order through `into`; yields the records of each read. */
  *blocks(b: number, into: RecordBlock): Generator<number> {
    const ix = this.index[b]!;
    const bytes = bytesOf(into);
    const per = 4 * this.words;
    const cap = Math.floor(bytes.byteLength / per);
    for (let k = 0; k < ix.length; k += 2) {
      let off = ix[k]!;
      let left = ix[k + 1]!;
      while (left > 0) {
        const n = Math.min(left, cap);
        this.readAt(bytes, n * per, off);
        yield n;
        off += n * per;
        left -= n;
      }
    }
  }

  /** Closes and removes the file (idempotent). */
  remove(): void {
    if (this.fd >= 0) {
      try {
        closeSync(this.fd);
      } catch {
        // already closed
      }
      this.fd = -1;
    }
    rmSync(this.file, { force: true });
    untrackTemp(this.file);
  }

  private flush(b: number, n: number): void {
    const len = n * 4 * this.words;
    const bytes = bytesOf(this.bufs[b]!).subarray(0, len);
    try {
      for (let off = 0; off < len; ) off += writeSync(this.fd, bytes, off, len - off, this.pos + off);
    } catch (e) {
      throw fileError(e, this.file, 'write');
    }
    this.index[b]!.push(this.pos, n);
    this.pos += len;
    this.fill[b] = 0;
  }

  private readAt(bytes: Uint8Array, len: number, position: number): void {
    try {
      for (let off = 0; off < len; ) {
        const got = readSync(this.fd, bytes, off, len - off, position + off);
        if (got === 0) throw new Error('unexpected end of file');
        off += got;
      }
    } catch (e) {
      throw fileError(e, this.file, 'read');
    }
  }
}

// ---------------------------------------------------------------------------------------------
// pages

const align8 = (x: number): number => (x + 7) & ~7;

/**
 * Pages carved in turn out of one buffer that is reused once they are written: a bounded build
 * allocates no page buffers of its own, whose churn the allocator would keep as resident memory
 * (freed blocks of a few MiB stay in its heap). Sized from the page plan; a page beyond it gets a
 * buffer of its own.
 */
export class PageArena {
  private readonly buf: SharedArrayBuffer;
  private at = 0;
  constructor(bytes: number) {
    this.buf = new SharedArrayBuffer(Math.max(8, bytes));
  }

  readonly alloc: PageAlloc = (index, vBegin, vEnd, edges, split, wt) => {
    const len = pageByteLength(vEnd - vBegin, edges, wt);
    const base = this.at;
    if (base + len > this.buf.byteLength) return allocPage(index, vBegin, vEnd, edges, split, wt);
    // The alignment gaps are stored too: they must read as zero, as in a fresh buffer.
    new Uint8Array(this.buf, base, len).fill(0);
    this.at = align8(base + len);
    return pageOver(this.buf, index, vBegin, vEnd, edges, split, wt, base);
  };

  /** Every page carved so far is written: start again at the beginning. */
  reset(): void {
    this.at = 0;
  }
}

/** Bytes the arena needs for planned pages [i0, i1) (a hub's re-cut pages fit the same room). */
export function arenaBytes(vBegin: number[], vEnd: number[], edges: number[], i0: number, i1: number, wt: WeightType | undefined): number {
  let b = 0;
  for (let i = i0; i < i1; i++) b += align8(pageByteLength(vEnd[i]! - vBegin[i]!, edges[i]!, wt)) + 8;
  return b;
}

/** A page's bytes as a .tsr stores them, when it lies in an arena (else undefined). */
export function arenaPageBytes(p: Page, wt: WeightType | undefined): Uint8Array | undefined {
  const base = p.offsets.byteOffset;
  if (base === 0) return undefined;
  return new Uint8Array(p.buffer, base, pageByteLength(p.vEnd - p.vBegin, p.edges, wt));
}

// ---------------------------------------------------------------------------------------------
// disk space

/** Free bytes for an unprivileged user in `dir` (fs.statfs). */
export function freeBytes(dir: string): number {
  // Tests stand a figure in for the disk's (filling a disk to test the refusal is no option).
  const fake = process.env.TESSERA_TEST_DISK_FREE;
  if (fake !== undefined && fake !== '') return Number(fake);
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new TesseraError(`the directory ${dir} does not exist`, { fix: 'create it, or name another one (--out, --tmp-dir)' });
    throw new TesseraError(`cannot tell the free space of ${dir}: ${(e as Error).message}`, { fix: 'check the directory (--out, --tmp-dir)' });
  }
}
