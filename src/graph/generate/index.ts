/**
 * Synthetic graphs: RMAT (Graph500) and uniform G(n, m), in memory as RawEdges or streamed to an
 * edge-list text file. Both are deterministic by seed: edges are generated in blocks of 2^20, each
 * from its own random stream (seed, block), so the result never depends on how the work is cut.
 */
import { open, rename, unlink } from 'node:fs/promises';
import os from 'node:os';
import { TesseraError } from '../../errors.js';
import { CHUNK, F32List, U32List } from '../chunked.js';
import type { RawEdges } from '../types.js';
import { BLOCK, RmatGenerator } from './rmat.js';
import { UniformGenerator } from './uniform.js';
import { formatGeneratorSpec, parseGeneratorSpec, specEdges, type GeneratorSpec } from './spec.js';

export {
  parseGeneratorSpec,
  isGeneratorSpec,
  formatGeneratorSpec,
  checkGeneratorSpec,
  specEdges,
  GRAPH500,
  DEFAULT_EDGE_FACTOR,
  DEFAULT_SEED,
  MAX_SCALE,
  type GeneratorSpec,
  type GeneratorKind,
} from './spec.js';
export { RmatGenerator, rmatAliasTable, BLOCK, LEVELS_PER_WORD, type AliasTable } from './rmat.js';
export { UniformGenerator } from './uniform.js';
export { Xoshiro128, BitPermutation, mix32, streamState } from './rng.js';

/** What both generators offer: block-wise, deterministic filling. */
export interface EdgeGenerator {
  readonly spec: GeneratorSpec;
  /** 2^scale: the id space (ids that get no edge do not become vertices after buildGraph). */
  readonly numVertices: number;
  /** edgeFactor * 2^scale. */
  readonly numEdges: number;
  readonly numBlocks: number;
  blockEdges(b: number): number;
  fill(b: number, src: Uint32Array, dst: Uint32Array, w?: Float32Array): number;
}

export type Progress = (done: number, total: number) => void;

function toSpec(spec: GeneratorSpec | string): GeneratorSpec {
  return typeof spec === 'string' ? parseGeneratorSpec(spec) : spec;
}

export function createGenerator(spec: GeneratorSpec | string): EdgeGenerator {
  const s = toSpec(spec);
  return s.kind === 'rmat' ? new RmatGenerator(s) : new UniformGenerator(s);
}

if (CHUNK !== BLOCK) throw new Error('generator blocks must match edge-list chunks');

/**
 * Generates the whole edge list in memory (directed: true; weightType float32 when weighted).
 * Each block is written straight into a chunk of the lists. Needs 8 bytes per edge (12 weighted).
 */
export function generateEdges(spec: GeneratorSpec | string, opts: { onProgress?: Progress } = {}): RawEdges {
  const s = toSpec(spec);
  const g = createGenerator(s);
  const m = g.numEdges;
  const bytes = m * (s.weighted ? 12 : 8);
  if (bytes > 0.9 * os.totalmem()) {
    throw new TesseraError(
      `${formatGeneratorSpec(s)} needs ${(bytes / 2 ** 30).toFixed(1)} GiB for its ${m} edges, more than this machine's ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB of memory`,
      { fix: 'use a smaller scale or edge factor, or generate to a .el file (tessera generate rmat --scale S --out g.el)' },
    );
  }
  const src = new U32List();
  const dst = new U32List();
  const weights = s.weighted ? new F32List() : undefined;
  for (let b = 0; b < g.numBlocks; b++) {
    const k = g.blockEdges(b);
    if (k === CHUNK) {
      // Full block: generate in place into a new chunk (the list's own growth state stays valid:
      // after full chunks its next push opens a new chunk).
      const sc = new Uint32Array(CHUNK);
      const dc = new Uint32Array(CHUNK);
      const wc = weights ? new Float32Array(CHUNK) : undefined;
      g.fill(b, sc, dc, wc);
      src.chunks.push(sc);
      dst.chunks.push(dc);
      src.length += CHUNK;
      dst.length += CHUNK;
      if (weights && wc) {
        weights.chunks.push(wc);
        weights.length += CHUNK;
      }
    } else {
      // The last, partial block goes through push() so the lists stay appendable.
      const sc = new Uint32Array(k);
      const dc = new Uint32Array(k);
      const wc = weights ? new Float32Array(k) : undefined;
      g.fill(b, sc, dc, wc);
      for (let i = 0; i < k; i++) {
        src.push(sc[i]!);
        dst.push(dc[i]!);
      }
      if (weights && wc) for (let i = 0; i < k; i++) weights.push(wc[i]!);
    }
    opts.onProgress?.(b * BLOCK + k, m);
  }
  // Every id in [0, 2^scale) is a vertex, with or without edges (Graph500 and GAPBS count them
  // all), so a source id below 2^scale is always valid and the vertex count is 2^scale.
  const vertices = new U32List();
  for (let v = 0, n = 2 ** s.scale; v < n; v++) vertices.push(v);
  return { src, dst, weights, vertices, directed: true, weightType: weights ? 'float32' : undefined, source: formatGeneratorSpec(s) };
}

/** Calls fn(src, dst, w, count, firstEdge) for each block in order; the arrays are reused. */
export function forEachBlock(
  spec: GeneratorSpec | string,
  fn: (src: Uint32Array, dst: Uint32Array, w: Float32Array | undefined, count: number, firstEdge: number) => void,
): void {
  const g = createGenerator(spec);
  const src = new Uint32Array(BLOCK);
  const dst = new Uint32Array(BLOCK);
  const w = g.spec.weighted ? new Float32Array(BLOCK) : undefined;
  for (let b = 0; b < g.numBlocks; b++) fn(src, dst, w, g.fill(b, src, dst, w), b * BLOCK);
}

const PAIRS = new Uint8Array(200);
for (let i = 0; i < 100; i++) {
  PAIRS[2 * i] = 48 + Math.floor(i / 10);
  PAIRS[2 * i + 1] = 48 + (i % 10);
}

function digits(x: number): number {
  if (x < 100000) return x < 100 ? (x < 10 ? 1 : 2) : x < 1000 ? 3 : x < 10000 ? 4 : 5;
  return x < 10000000 ? (x < 1000000 ? 6 : 7) : x < 100000000 ? 8 : x < 1000000000 ? 9 : 10;
}

/** Writes `x` (a uint32) in decimal at buf[pos..], two digits at a time; returns the end. */
export function putU32(buf: Uint8Array, pos: number, x: number): number {
  const n = digits(x);
  let p = pos + n;
  while (x >= 100) {
    const q = (x / 100) >>> 0;
    const r = (x - q * 100) << 1;
    buf[--p] = PAIRS[r + 1]!;
    buf[--p] = PAIRS[r]!;
    x = q;
  }
  if (x >= 10) {
    buf[--p] = PAIRS[(x << 1) + 1]!;
    buf[--p] = PAIRS[x << 1]!;
  } else buf[--p] = 48 + x;
  return pos + n;
}

/**
 * Writes a generated weight (a float32 near k / 10^6, 1 <= k <= 10^6) as its exact six-decimal
 * text ("0.000123", "0.5", "1"); returns the end. Parsing that text and rounding to float32 gives
 * the same float32 back.
 */
export function putWeight(buf: Uint8Array, pos: number, w: number): number {
  const k = Math.round(w * 1e6);
  if (k >= 1000000) {
    buf[pos] = 49; // "1"
    return pos + 1;
  }
  buf[pos] = 48; // "0."
  buf[pos + 1] = 46;
  const hi = (k / 10000) | 0;
  const mid = ((k / 100) | 0) - hi * 100;
  const lo = k - ((k / 100) | 0) * 100;
  buf[pos + 2] = PAIRS[hi << 1]!;
  buf[pos + 3] = PAIRS[(hi << 1) + 1]!;
  buf[pos + 4] = PAIRS[mid << 1]!;
  buf[pos + 5] = PAIRS[(mid << 1) + 1]!;
  buf[pos + 6] = PAIRS[lo << 1]!;
  buf[pos + 7] = PAIRS[(lo << 1) + 1]!;
  let end = pos + 8;
  while (end > pos + 3 && buf[end - 1] === 48) end--; // trailing zeros ("0.5", not "0.500000")
  return end;
}

/**
 * Streams the generated graph to an edge-list text file (`src dst` or `src dst weight` lines,
 * one '#' comment line first) without holding the edges: one block is formatted while the
 * previous one is being written. The file appears atomically (temporary file + rename).
 * Returns the number of edges and bytes written.
 */
export async function generateToEdgeList(
  spec: GeneratorSpec | string,
  file: string,
  opts: { onProgress?: Progress; comment?: boolean } = {},
): Promise<{ edges: number; bytes: number }> {
  const s = toSpec(spec);
  const g = createGenerator(s);
  const tmp = `${file}.tmp-${process.pid}`;
  let fh;
  try {
    fh = await open(tmp, 'w');
  } catch (e) {
    throw new TesseraError(`cannot write: ${(e as Error).message}`, { file, fix: 'check that the directory exists and is writable' });
  }
  const src = new Uint32Array(BLOCK);
  const dst = new Uint32Array(BLOCK);
  const w = s.weighted ? new Float32Array(BLOCK) : undefined;
  // Two text buffers: format one while the other is written. 11+1+11+1 (+ weight) per line.
  const lineMax = s.weighted ? 24 + 10 : 24;
  const bufs = [new Uint8Array(BLOCK * lineMax), new Uint8Array(BLOCK * lineMax)];
  let bytes = 0;
  let pending: Promise<unknown> = Promise.resolve();
  try {
    if (opts.comment !== false) {
      const head = `# tessera ${formatGeneratorSpec(s)}: ${g.numVertices} vertex ids, ${g.numEdges} directed edges${s.weighted ? ', weights k/1e6 in (0,1]' : ''}\n`;
      await writeAll(fh, Buffer.from(head, 'latin1'), head.length);
      bytes += head.length;
    }
    for (let b = 0; b < g.numBlocks; b++) {
      const k = g.fill(b, src, dst, w);
      const buf = bufs[b & 1]!;
      let pos = 0;
      if (w === undefined) {
        for (let i = 0; i < k; i++) {
          pos = putU32(buf, pos, src[i]!);
          buf[pos++] = 32;
          pos = putU32(buf, pos, dst[i]!);
          buf[pos++] = 10;
        }
      } else {
        for (let i = 0; i < k; i++) {
          pos = putU32(buf, pos, src[i]!);
          buf[pos++] = 32;
          pos = putU32(buf, pos, dst[i]!);
          buf[pos++] = 32;
          pos = putWeight(buf, pos, w[i]!);
          buf[pos++] = 10;
        }
      }
      await pending;
      opts.onProgress?.(b * BLOCK, g.numEdges);
      pending = writeAll(fh, buf, pos);
      bytes += pos;
    }
    await pending;
    opts.onProgress?.(g.numEdges, g.numEdges);
    await fh.close();
    fh = undefined;
    await rename(tmp, file);
  } catch (e) {
    await pending.catch(() => undefined);
    await fh?.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    if (e instanceof TesseraError) throw e;
    throw new TesseraError(`cannot write: ${(e as Error).message}`, { file, fix: 'check free disk space and permissions' });
  }
  return { edges: g.numEdges, bytes };
}

async function writeAll(fh: import('node:fs/promises').FileHandle, buf: Uint8Array, len: number): Promise<void> {
  let off = 0;
  while (off < len) {
    const { bytesWritten } = await fh.write(buf, off, len - off);
    off += bytesWritten;
  }
}

/** Raw edges expected from a spec (for progress and sizing). */
export function expectedEdges(spec: GeneratorSpec | string): number {
  return specEdges(toSpec(spec));
}
