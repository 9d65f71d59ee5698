/**
 * Builder phase 4 (directed graphs): in-pages, laid out from the exact in-degrees and allocated
 * at their final size, then filled by transposing the out-pages: sources ascending, so every
 * in-list comes out sorted and needs no further pass. Each thread fills the in-pages of its own
 * range of targets, reading all out-pages and skipping the edges of other targets. A cursor is
 * (page, slot), interleaved so that one cache line serves both.
 *
 * The out-pages go in rounds of about ROUND edges: a round's edges are first partitioned by
 * block of 2^BLOCK_BITS targets (stable, so sources stay ascending), then written block by block,
 * so that the cursors and list ends being written stay in cache; written straight from the
 * out-pages, most edges' cursor and store are cache misses (measured on RMAT 19 to 22: 15-35%
 * slower, even for a thread's few hub targets). Small ranges are written straight.
 */
import type { Page, PageSet, WeightArray } from '../types.js';

/** Edges per round (the partition buffers hold one round: 12 or 16 bytes an edge). */
const ROUND = 1 << 22;
const BLOCK_BITS = 10;
/** In-edges from which a thread partitions its edges by block first. */
const BLOCKED_MIN = 1 << 20;

/** How to fill (tests force either way): straight, or by blocks of 2^blockBits targets. */
export type TransposeMode = 'direct' | { round: number; blockBits: number };

/**
 * Fills in-pages [p0, p1) of `set` (allocated, offsets set) from all out-pages: edge (v, u) goes
 * to u's list when u is held by those pages. Blocked from BLOCKED_MIN edges on unless `mode`
 * says otherwise.
 */
export function inPagesRange(outs: Page[], set: PageSet, p0: number, p1: number, pageEdges: number, mode?: TransposeMode): void {
  if (p0 >= p1) return;
  const uLo = set.pages[p0]!.vBegin;
  const span = set.pages[p1 - 1]!.vEnd - uLo;
  // cur[2(u - uLo)] = page, cur[2(u - uLo) + 1] = slot of u's next in-edge.
  const cur = new Uint32Array(2 * span);
  const nbrsOf: Uint32Array[] = [];
  const weightsOf: WeightArray[] = [];
  for (const p of set.pages) {
    nbrsOf.push(p.nbrs);
    if (p.weights !== undefined) weightsOf.push(p.weights);
  }
  for (let i = p0; i < p1; i++) {
    const p = set.pages[i]!;
    if (p.split) {
      if (set.firstPageOf[p.vBegin] === p.index) cur[2 * (p.vBegin - uLo)] = p.index;
      continue;
    }
    const offsets = p.offsets;
    for (let u = p.vBegin; u < p.vEnd; u++) {
      cur[2 * (u - uLo)] = p.index;
      cur[2 * (u - uLo) + 1] = offsets[u - p.vBegin]!;
    }
  }
  let edges = 0;
  for (let i = p0; i < p1; i++) edges += set.pages[i]!.edges;
  const m = mode ?? (edges >= BLOCKED_MIN ? { round: ROUND, blockBits: BLOCK_BITS } : 'direct');
  if (m === 'direct') {
    for (const p of outs) direct(p, uLo, span, cur, pageEdges, nbrsOf, weightsOf);
    return;
  }
  // Rounds: out-pages [ends[r - 1], ends[r]), at least one each.
  const ends: number[] = [];
  let most = 0;
  for (let k = 0, e = 0; k < outs.length; k++) {
    if (k > 0 && e + outs[k]!.edges > m.round) {
      ends.push(k);
      e = 0;
    }
    e += outs[k]!.edges;
    most = Math.max(most, e);
  }
  ends.push(outs.length);
  const bits = m.blockBits;
  const blocks = ((span - 1) >>> bits) + 1;
  const at = new Uint32Array(blocks + 1);
  const uOf = new Uint32Array(most);
  const vOf = new Uint32Array(most);
  const w0 = weightsOf[0];
  const wOf = w0 === undefined ? undefined : w0 instanceof Float32Array ? new Float32Array(most) : new Float64Array(most);
  for (let r = 0, k0 = 0; r < ends.length; k0 = ends[r++]!) {
    const k1 = ends[r]!;
    at.fill(0);
    for (let k = k0; k < k1; k++) countBlocks(outs[k]!, uLo, span, bits, at);
    let total = 0;
    for (let b = 0; b <= blocks; b++) {
      const c = at[b]!;
      at[b] = total;
      total += c;
    }
    for (let k = k0; k < k1; k++) partition(outs[k]!, uLo, span, bits, at, uOf, vOf, wOf);
    if (wOf === undefined) store(total, uOf, vOf, cur, pageEdges, nbrsOf);
    else storeW(total, uOf, vOf, wOf, cur, pageEdges, nbrsOf, weightsOf);
  }
}

/** Writes p's edges whose target is in [uLo, uLo + span) straight to their lists. */
function direct(p: Page, uLo: number, span: number, cur: Uint32Array, pageEdges: number, nbrsOf: Uint32Array[], weightsOf: WeightArray[]): void {
  const { offsets, nbrs, weights } = p;
  const vb = p.vBegin;
  for (let v = vb; v < p.vEnd; v++) {
    const lo = offsets[v - vb]!;
    const hi = offsets[v - vb + 1]!;
    if (weights === undefined) {
      for (let e = lo; e < hi; e++) {
        const x = nbrs[e]! - uLo;
        if (x < 0 || x >= span) continue;
        const u2 = 2 * x;
        let pg = cur[u2]!;
        let sl = cur[u2 + 1]!;
        // Only a split vertex's list runs past the end of a page (pages of pageEdges each).
        if (sl === pageEdges) {
          pg++;
          sl = 0;
          cur[u2] = pg;
        }
        nbrsOf[pg]![sl] = v;
        cur[u2 + 1] = sl + 1;
      }
    } else {
      for (let e = lo; e < hi; e++) {
        const x = nbrs[e]! - uLo;
        if (x < 0 || x >= span) continue;
        const u2 = 2 * x;
        let pg = cur[u2]!;
        let sl = cur[u2 + 1]!;
        if (sl === pageEdges) {
          pg++;
          sl = 0;
          cur[u2] = pg;
        }
        nbrsOf[pg]![sl] = v;
        weightsOf[pg]![sl] = weights[e]!;
        cur[u2 + 1] = sl + 1;
      }
    }
  }
}

/** at[block]++ for each edge of p whose target is in [uLo, uLo + span). */
function countBlocks(p: Page, uLo: number, span: number, bits: number, at: Uint32Array): void {
  const nbrs = p.nbrs;
  for (let e = 0; e < p.edges; e++) {
    const x = nbrs[e]! - uLo;
    if (x >= 0 && x < span) at[x >>> bits]!++;
  }
}

/** Appends p's edges (target - uLo, source, weight) to their blocks' runs. */
function partition(p: Page, uLo: number, span: number, bits: number, at: Uint32Array, uOf: Uint32Array, vOf: Uint32Array, wOf: WeightArray | undefined): void {
  const { offsets, nbrs, weights } = p;
  const vb = p.vBegin;
  for (let v = vb; v < p.vEnd; v++) {
    const hi = offsets[v - vb + 1]!;
    for (let e = offsets[v - vb]!; e < hi; e++) {
      const x = nbrs[e]! - uLo;
      if (x < 0 || x >= span) continue;
      const j = at[x >>> bits]!++;
      uOf[j] = x;
      vOf[j] = v;
      if (wOf !== undefined) wOf[j] = weights![e]!;
    }
  }
}

function store(k: number, uOf: Uint32Array, vOf: Uint32Array, cur: Uint32Array, pageEdges: number, nbrsOf: Uint32Array[]): void {
  for (let i = 0; i < k; i++) {
    const u2 = 2 * uOf[i]!;
    let pg = cur[u2]!;
    let sl = cur[u2 + 1]!;
    if (sl === pageEdges) {
      pg++;
      sl = 0;
      cur[u2] = pg;
    }
    nbrsOf[pg]![sl] = vOf[i]!;
    cur[u2 + 1] = sl + 1;
  }
}

function storeW(k: number, uOf: Uint32Array, vOf: Uint32Array, wOf: WeightArray, cur: Uint32Array, pageEdges: number, nbrsOf: Uint32Array[], weightsOf: WeightArray[]): void {
  for (let i = 0; i < k; i++) {
    const u2 = 2 * uOf[i]!;
    let pg = cur[u2]!;
    let sl = cur[u2 + 1]!;
    if (sl === pageEdges) {
      pg++;
      sl = 0;
      cur[u2] = pg;
    }
    nbrsOf[pg]![sl] = vOf[i]!;
    weightsOf[pg]![sl] = wOf[i]!;
    cur[u2 + 1] = sl + 1;
  }
}
