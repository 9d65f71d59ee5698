/**
 * RMAT / Kronecker generator (Chakrabarti et al.; Graph500 parameters a, b, c = 0.57, 0.19, 0.19,
 * d = 0.05, edge factor 16).
 *
 * Each edge descends `scale` levels of the adjacency matrix, picking a quadrant per level with
 * probabilities a (top-left), b (top-right), c (bottom-left), d (bottom-right): the source gets
 * bit 1 in the bottom half, the target bit 1 in the right half. Vertex ids are then scrambled with
 * a seeded bijection of [0, 2^scale) (as Graph500 does), so high degree is not tied to low ids.
 *
 * Speed: levels are drawn five at a time with Walker's alias method over the 4^5 = 1024 joint
 * outcomes: one 32-bit random number gives a 10-bit outcome index and a 22-bit coin, a branchless
 * compare picks the outcome or its alias, and one table load returns the five source bits (low
 * half) and five target bits (high half). Cell probabilities are exact to about 2^-32 (the
 * quantisation of the coin thresholds), far below sampling noise. A scale that is not a multiple
 * of five finishes with a smaller alias table. The xoshiro128** step is inlined on locals; the
 * loop writes straight into the caller's arrays (the chunks of the edge list), then a second tight
 * pass scrambles the ids (faster than one fat loop: fewer live values); nothing is allocated per
 * edge. About 20-25 M edges/s on one core at scale 20.
 *
 * Weights (optional): uniform over k / 10^6, k = 1..10^6 (in (0, 1], six decimals: exact and
 * short in text files), stored as float32, drawn from a separate random stream so the topology is
 * the same with or without weights.
 */
import { BitPermutation, streamState } from './rng.js';
import { GRAPH500, type GeneratorSpec } from './spec.js';

/** Edges per block: one random stream per block (and one chunk of the edge lists). */
export const BLOCK_BITS = 20;
export const BLOCK = 1 << BLOCK_BITS;
/** Stream ids of weight streams: block index xor this. */
export const WEIGHT_STREAM = 0x80000000;

/** Levels drawn per random word with the main alias table. */
export const LEVELS_PER_WORD = 5;

export interface AliasTable {
  /** Levels per draw (k): 4^k outcomes. */
  readonly levels: number;
  /** Coin thresholds, scaled to 2^(32 - 2k): keep the outcome when coin < threshold. */
  readonly threshold: Int32Array;
  /**
   * Outcome values, 2 * 4^k entries: [i] for outcome i, [i + 4^k] for its alias. A value holds
   * the k source bits (first level highest) in bits 0..15 and the k target bits in bits 16..31.
   */
  readonly value: Int32Array;
}

/**
 * Walker alias table for k RMAT levels at once (1 <= k <= 5). Outcome i = the k quadrants,
 * two bits each, first level in the highest bits; quadrant q: source bit q >> 1, target bit q & 1
 * (0 = a top-left, 1 = b top-right, 2 = c bottom-left, 3 = d bottom-right).
 */
export function rmatAliasTable(k: number, a: number, b: number, c: number): AliasTable {
  if (!Number.isInteger(k) || k < 1 || k > 5) throw new RangeError(`alias table levels must be in 1..5, got ${k}`);
  const p = [a, b, c, Math.max(0, 1 - a - b - c)];
  const K = 1 << (2 * k);
  const one = 2 ** (32 - 2 * k);
  const prob = new Float64Array(K);
  const vals = new Int32Array(K);
  for (let i = 0; i < K; i++) {
    let pr = 1;
    let s = 0;
    let t = 0;
    for (let l = 0; l < k; l++) {
      const q = (i >>> (2 * (k - 1 - l))) & 3;
      pr *= p[q]!;
      s = (s << 1) | (q >> 1);
      t = (t << 1) | (q & 1);
    }
    prob[i] = pr * K;
    vals[i] = s | (t << 16);
  }
  const alias = new Int32Array(K);
  const small: number[] = [];
  const large: number[] = [];
  for (let i = 0; i < K; i++) {
    alias[i] = i;
    (prob[i]! < 1 ? small : large).push(i);
  }
  while (small.length > 0 && large.length > 0) {
    const sm = small.pop()!;
    const lg = large.pop()!;
    alias[sm] = lg;
    prob[lg] = prob[lg]! + prob[sm]! - 1;
    (prob[lg]! < 1 ? small : large).push(lg);
  }
  // Leftovers are 1 up to rounding.
  for (const i of large) prob[i] = 1;
  for (const i of small) prob[i] = 1;
  const threshold = new Int32Array(K);
  const value = new Int32Array(2 * K);
  for (let i = 0; i < K; i++) {
    threshold[i] = Math.min(one, Math.round(prob[i]! * one));
    value[i] = vals[i]!;
    value[i + K] = vals[alias[i]!]!;
  }
  return { levels: k, threshold, value };
}

/** Fills blocks of an RMAT graph. Deterministic by (spec, block). */
export class RmatGenerator {
  readonly numVertices: number;
  readonly numEdges: number;
  readonly numBlocks: number;
  private readonly main: AliasTable;
  private readonly tail: AliasTable | undefined;
  private readonly perm: BitPermutation | undefined;

  constructor(readonly spec: GeneratorSpec) {
    this.numVertices = 2 ** spec.scale;
    this.numEdges = spec.edgeFactor * this.numVertices;
    this.numBlocks = Math.ceil(this.numEdges / BLOCK);
    const a = spec.a ?? GRAPH500.a;
    const b = spec.b ?? GRAPH500.b;
    const c = spec.c ?? GRAPH500.c;
    this.main = rmatAliasTable(LEVELS_PER_WORD, a, b, c);
    const rest = spec.scale % LEVELS_PER_WORD;
    this.tail = rest === 0 ? undefined : rmatAliasTable(rest, a, b, c);
    this.perm = spec.scramble === false ? undefined : new BitPermutation(spec.scale, spec.seed);
  }

  /** Edges in block `b`. */
  blockEdges(b: number): number {
    return Math.max(0, Math.min(BLOCK, this.numEdges - b * BLOCK));
  }

  /**
   * Writes the edges of block `b` to src[0..k), dst[0..k) (and w[0..k) when given and the spec is
   * weighted); returns k.
   */
  fill(b: number, src: Uint32Array, dst: Uint32Array, w?: Float32Array): number {
    const k = this.blockEdges(b);
    const st = streamState(this.spec.seed, b);
    let s0 = st[0]!;
    let s1 = st[1]!;
    let s2 = st[2]!;
    let s3 = st[3]!;
    const P = this.main.threshold;
    const V = this.main.value;
    const words = Math.floor(this.spec.scale / LEVELS_PER_WORD);
    const tl = this.tail?.levels ?? 0;
    const TP = this.tail?.threshold ?? P;
    const TV = this.tail?.value ?? V;
    const tIdx = (1 << (2 * tl)) - 1;
    const tCoin = 2 * tl;
    const tMask = (1 << tl) - 1;
    const perm = this.perm;
    for (let i = 0; i < k; i++) {
      let u = 0;
      let v = 0;
      for (let j = 0; j < words; j++) {
        const r = Math.imul((Math.imul(s1, 5) << 7) | (Math.imul(s1, 5) >>> 25), 9);
        const t = s1 << 9;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= t;
        s3 = (s3 << 11) | (s3 >>> 21);
        // Outcome r & 1023, coin r >>> 10: keep it when coin < threshold, else take its alias.
        const idx = r & 1023;
        const x = V[idx | (((P[idx]! - (r >>> 10) - 1) >> 31) & 1024)]!;
        u = (u << 5) | (x & 31);
        v = (v << 5) | (x >>> 16);
      }
      if (tl !== 0) {
        const r = Math.imul((Math.imul(s1, 5) << 7) | (Math.imul(s1, 5) >>> 25), 9);
        const t = s1 << 9;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= t;
        s3 = (s3 << 11) | (s3 >>> 21);
        const idx = r & tIdx;
        const x = TV[idx + (((TP[idx]! - (r >>> tCoin) - 1) >> 31) & (tIdx + 1))]!;
        u = (u << tl) | (x & tMask);
        v = (v << tl) | (x >>> 16);
      }
      src[i] = u;
      dst[i] = v;
    }
    if (perm !== undefined) {
      scrambleIds(perm, src, k);
      scrambleIds(perm, dst, k);
    }
    if (w !== undefined && this.spec.weighted) fillWeights(this.spec.seed, b, w, k);
    return k;
  }
}

/** a[i] = perm.apply(a[i]) for i < k (inlined: integer-only, keys in locals). */
function scrambleIds(perm: BitPermutation, a: Uint32Array, k: number): void {
  const { mask, h, k0, k1, k2, m1, m2 } = perm;
  for (let i = 0; i < k; i++) {
    let x = (a[i]! ^ k0) & mask;
    x = (Math.imul(x, m1) ^ k1) & mask;
    x ^= x >>> h;
    x = (Math.imul(x, m2) ^ k2) & mask;
    x ^= x >>> h;
    a[i] = x;
  }
}

/**
 * Weights uniform over {1, 2, ..., 10^6} / 10^6, i.e. in (0, 1] with six decimals (so an edge-list
 * file holds them exactly in at most 8 characters), stored as float32, from the weight stream of
 * block b.
 */
export function fillWeights(seed: number, b: number, w: Float32Array, k: number): void {
  const st = streamState(seed, (b ^ WEIGHT_STREAM) >>> 0);
  let s0 = st[0]!;
  let s1 = st[1]!;
  let s2 = st[2]!;
  let s3 = st[3]!;
  for (let i = 0; i < k; i++) {
    const r = Math.imul((Math.imul(s1, 5) << 7) | (Math.imul(s1, 5) >>> 25), 9);
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    // floor(r * 10^6 / 2^32) + 1, in 1..10^6.
    w[i] = (Math.floor((r >>> 0) * 2.3283064365386963e-4) + 1) / 1e6;
  }
}
