/** The .tsr format's constants, types and checksum, shared by the writer (tsr.ts) and the reader (tsr-read.ts). */
// The subpath: msgpackr's main entry also loads its stream classes and looks for its optional native
// string extractor, ~30 ms of every thread's start (the main one and each socket worker's).
import { Packr } from 'msgpackr/pack';
import type { WeightType } from './types.js';

export const TSR_MAGIC = 'TSR1';
export const TSR_VERSION = 1;
/** Alignment of every blob (a page can be read with O_DIRECT or mapped). */
export const TSR_ALIGN = 4096;
export const PREAMBLE = 16;

export const packr = new Packr({ useRecords: false, int64AsType: 'number', mapsAsObjects: true });

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

export type Columns = { vBegin: number[]; vEnd: number[]; split: number[]; edges: number[]; offset: number[]; length: number[]; checksum: number[] };
type BlobTriple = [number, number, number];

/** What the header map holds on disk. */
export interface OnDiskHeader {
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

/** Largest single read/write call (Node rejects lengths >= 2 GiB). */
export const IO_MAX = 1 << 30;
