/**
 * A .tsr written as its pages are made (the bounded-memory builder, build/external.ts): blobs go
 * to the temporary file in order, each at the next 4096-aligned offset, and the header, which
 * lists them, is written last at offset 16. The space before the first blob is reserved from an
 * upper bound of the header's size (page counts bounded before the pages exist), so the layout is
 * the one tsr.ts describes and the existing reader takes the file unchanged; only the padding
 * after the header may be longer than writeTsr's.
 *
 * Same atomic protocol as writeTsr: `path.tmp-<pid>`, tracked for removal on a signal, fsynced,
 * renamed into place; `abort` removes it.
 */
import { closeSync, fsyncSync, ftruncateSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { trackTemp, untrackTemp } from '../tmp-files.js';
import { arenaPageBytes } from './build/external-io.js';
import { IO_MAX, PREAMBLE, TSR_ALIGN, packr, tsrChecksum, type Columns, type OnDiskHeader } from './tsr-format.js';
import { emptyColumns, pageBytes, tsrHeader, tsrPreamble, writeError, type TsrMeta } from './tsr.js';
import { readTsrArray, readTsrHeader, readTsrPage } from './tsr-read.js';
import type { TsrHeader } from './tsr-format.js';
import type { Page, WeightType } from './types.js';

const alignUp = (x: number, a: number): number => Math.ceil(x / a) * a;

type ArrayName = keyof OnDiskHeader['arrays'];

/** Bytes a msgpack number takes at most (float64 / uint64). */
const NUMBER_MAX = 2 ** 52;

export class TsrStreamWriter {
  private readonly tmp: string;
  private fd: number | undefined;
  private at: number;
  private readonly tables: { out: Columns; in: Columns } = { out: emptyColumns(), in: emptyColumns() };
  private readonly arrays: Partial<OnDiskHeader['arrays']> = {};
  private readonly created = new Date().toISOString();
  /** Bytes of blobs written so far. */
  written = 0;

  /**
   * `maxPages`: upper bounds of the page counts per orientation, which size the header's space.
   * `meta` without numEdges and build (known at the end).
   */
  constructor(
    private readonly path: string,
    private readonly meta: Omit<TsrMeta, 'numEdges' | 'build'>,
    maxPages: { out: number; in: number },
  ) {
    this.at = alignUp(PREAMBLE + boundHeaderBytes(meta, this.created, maxPages), TSR_ALIGN);
    this.tmp = `${path}.tmp-${process.pid}`;
    trackTemp(this.tmp);
    try {
      this.fd = openSync(this.tmp, 'w');
    } catch (e) {
      untrackTemp(this.tmp);
      throw writeError(e, path);
    }
  }

  /** Appends page `p` to the out or in page table (pages in order). */
  addPage(orientation: 'out' | 'in', p: Page, wt: WeightType | undefined): void {
    const bytes = arenaPageBytes(p, wt) ?? pageBytes(p, wt);
    const c = this.tables[orientation];
    c.vBegin.push(p.vBegin);
    c.vEnd.push(p.vEnd);
    c.split.push(p.split ? 1 : 0);
    c.edges.push(p.edges);
    c.offset.push(this.at);
    c.length.push(bytes.byteLength);
    c.checksum.push(tsrChecksum(bytes));
    this.blob(bytes);
  }

  /** Number of pages added so far in one orientation. */
  pages(orientation: 'out' | 'in'): number {
    return this.tables[orientation].edges.length;
  }

  addArray(name: ArrayName, a: Uint32Array): void {
    const bytes = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    this.arrays[name] = [this.at, bytes.byteLength, tsrChecksum(bytes)];
    this.blob(bytes);
  }

  /** Writes the header, syncs and renames the file into place (`build`: the drop counts, when known). */
  finish(numEdges: number, build: { selfLoopsDropped: number; duplicatesDropped: number } | undefined): void {
    const pageTables: OnDiskHeader['pageTables'] = { out: this.tables.out };
    if (this.meta.directed) pageTables.in = this.tables.in;
    const fileBytes = this.end;
    const header = packr.pack(tsrHeader({ ...this.meta, numEdges, build }, this.created, pageTables, this.arrays as OnDiskHeader['arrays'], fileBytes));
    const room = this.firstBlob - PREAMBLE;
    if (header.byteLength > room) throw writeError(new Error(`the header needs ${header.byteLength} bytes, ${room} were reserved`), this.path);
    try {
      this.write(tsrPreamble(header), 0);
      this.write(header, PREAMBLE);
      ftruncateSync(this.fd!, fileBytes);
      fsyncSync(this.fd!);
      closeSync(this.fd!);
      this.fd = undefined;
      renameSync(this.tmp, this.path);
    } catch (e) {
      this.abort();
      throw writeError(e, this.path);
    }
    untrackTemp(this.tmp);
  }

  /** Closes and removes the partial file (idempotent). */
  abort(): void {
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {
        // already closed: the file is still removed below
      }
      this.fd = undefined;
    }
    rmSync(this.tmp, { force: true });
    untrackTemp(this.tmp);
  }

  private end = 0;
  private firstBlob = -1;

  private blob(bytes: Uint8Array): void {
    if (this.firstBlob < 0) this.firstBlob = this.at;
    try {
      this.write(bytes, this.at);
    } catch (e) {
      this.abort();
      throw writeError(e, this.path);
    }
    this.end = this.at + bytes.byteLength;
    this.at = alignUp(this.end, TSR_ALIGN);
    this.written += bytes.byteLength;
  }

  private write(bytes: Uint8Array, position: number): void {
    for (let off = 0; off < bytes.byteLength; ) {
      off += writeSync(this.fd!, bytes, off, Math.min(IO_MAX, bytes.byteLength - off), position + off);
    }
  }
}

/**
 * Header bytes at most: the header with empty page tables and every other number at its widest,
 * plus each page table column's entries at their widest (9 bytes) and its array's length prefix
 * grown to the widest (5 bytes).
 */
function boundHeaderBytes(meta: Omit<TsrMeta, 'numEdges' | 'build'>, created: string, maxPages: { out: number; in: number }): number {
  const triple: [number, number, number] = [NUMBER_MAX, NUMBER_MAX, NUMBER_MAX];
  const header = tsrHeader(
    { ...meta, numVertices: NUMBER_MAX, numEdges: NUMBER_MAX, pageEdges: NUMBER_MAX, build: { selfLoopsDropped: NUMBER_MAX, duplicatesDropped: NUMBER_MAX } },
    created,
    { out: emptyColumns(), in: emptyColumns() },
    { outDegree: triple, inDegree: triple, toOriginal: triple, byOriginal: triple },
    NUMBER_MAX,
  );
  const columns = Object.keys(emptyColumns()).length;
  return packr.pack(header).byteLength + 2 * columns * 5 + columns * 9 * (maxPages.out + maxPages.in);
}

/**
 * Pages planPages (pages.ts) can cut from `edges` edges over `vertices` vertices, at most: a
 * hub's split pages are fewer than 2 x its edges / pageEdges; a page closed because the next list
 * would overflow it holds, with that list, more than pageEdges edges (each edge counted at most
 * twice that way); a page closed at pageEdges vertices holds that many; plus the last page.
 */
export function maxPlannedPages(vertices: number, edges: number, pageEdges: number): number {
  return Math.floor((4 * edges) / pageEdges) + Math.floor(vertices / pageEdges) + 2;
}

/**
 * Copies a .tsr page by page, each checked as readTsr checks it (a .tsr converted with nothing to
 * change: its pages, degrees, id maps and drop counts as they are, one page in memory at a time).
 * `onProgress`: bytes of blobs copied, of all.
 */
export async function copyTsr(input: string, out: string, onProgress?: (done: number, total: number) => void): Promise<TsrHeader> {
  const h = await readTsrHeader(input);
  const sets = h.directed ? (['out', 'in'] as const) : (['out'] as const);
  const arrays = h.directed ? (['outDegree', 'inDegree', 'toOriginal', 'byOriginal'] as const) : (['outDegree', 'toOriginal', 'byOriginal'] as const);
  let total = arrays.length * 4 * h.numVertices;
  for (const o of sets) for (const e of h.pages[o]) total += e.length;
  const w = new TsrStreamWriter(out, h, { out: h.pages.out.length, in: h.directed ? h.pages.in.length : 0 });
  try {
    // Read by path, so that an error names the file.
    for (const o of sets) {
      for (const e of h.pages[o]) {
        w.addPage(o, await readTsrPage(input, h, o, e.index), h.weightType);
        onProgress?.(w.written, total);
      }
    }
    for (const a of arrays) {
      w.addArray(a, await readTsrArray(input, h, a));
      onProgress?.(w.written, total);
    }
    w.finish(h.numEdges, h.build);
    return h;
  } catch (e) {
    w.abort();
    throw e;
  }
}
