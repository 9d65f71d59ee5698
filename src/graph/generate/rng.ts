/**
 * Small, fast, seeded pseudo-random numbers for the graph generators.
 *
 * - `mix32` is the murmur3 / splitmix 32-bit finaliser (a bijection on uint32).
 * - `Xoshiro128` is xoshiro128** (Blackman & Vigna): 128-bit state, period 2^128 - 1, four 32-bit
 *   words, integer-only arithmetic (Math.imul), so it is fast in V8 and identical everywhere.
 * - `streamState(seed, stream)` derives an independent xoshiro state for (seed, stream) with a
 *   splitmix-style sequence: the generators seed one stream per block of 2^20 edges, so any block
 *   can be generated on its own (streaming, future parallel generation) and the edges depend only
 *   on the seed, never on how the work was cut.
 *
 * The generators' hot loops inline the xoshiro step on local variables (the class is for
 * everything else); both produce the same sequence (tested).
 */

/** murmur3 fmix32: a bijective avalanche mix of a uint32. */
export function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

const GOLDEN = 0x9e3779b9;

/**
 * Splits a seed (any safe integer >= 0, or a uint32) into two uint32 halves. Seeds that differ
 * anywhere in their 53 bits give different states.
 */
function seedHalves(seed: number): [number, number] {
  if (!Number.isSafeInteger(seed) || seed < 0) throw new RangeError(`seed must be a safe integer >= 0, got ${seed}`);
  return [seed >>> 0, Math.floor(seed / 0x100000000) >>> 0];
}

/**
 * The xoshiro128 state for stream `stream` (a uint32, e.g. a block index) of `seed`, as four
 * uint32 words, never all zero.
 */
export function streamState(seed: number, stream: number): Uint32Array {
  const [lo, hi] = seedHalves(seed);
  // Two rounds of keyed mixing so that nearby (seed, stream) pairs land far apart.
  let x = mix32(lo ^ mix32(hi + GOLDEN)) ^ mix32((stream >>> 0) + 0x632be5ab);
  const s = new Uint32Array(4);
  for (let k = 0; k < 4; k++) {
    x = (x + GOLDEN) >>> 0;
    s[k] = mix32(x ^ mix32(k * 0x27d4eb2f + (stream >>> 0)));
  }
  if ((s[0]! | s[1]! | s[2]! | s[3]!) === 0) s[0] = GOLDEN;
  return s;
}

/** xoshiro128**: uint32 outputs, floats with 24 or 53 random bits. */
export class Xoshiro128 {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(seed: number, stream = 0) {
    const s = streamState(seed, stream);
    this.s0 = s[0]!;
    this.s1 = s[1]!;
    this.s2 = s[2]!;
    this.s3 = s[3]!;
  }

  /** A generator at a given state (four uint32 words, not all zero), e.g. for published test vectors. */
  static fromState(s: ArrayLike<number>): Xoshiro128 {
    const x = new Xoshiro128(0);
    [x.s0, x.s1, x.s2, x.s3] = [s[0]! >>> 0, s[1]! >>> 0, s[2]! >>> 0, s[3]! >>> 0];
    return x;
  }

  /** Next uint32. */
  nextU32(): number {
    const s1 = this.s1;
    const r = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return r;
  }

  /** Uniform in [0, 1) with 53 random bits. */
  nextFloat(): number {
    const hi = this.nextU32() >>> 5; // 27 bits
    const lo = this.nextU32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Uniform integer in [0, n) for 1 <= n <= 2^32 (Lemire's multiply-shift, rejection for exactness). */
  nextBelow(n: number): number {
    if (!(n >= 1 && n <= 0x100000000)) throw new RangeError(`nextBelow: n must be in [1, 2^32], got ${n}`);
    const limit = 0x100000000 - (0x100000000 % n);
    for (;;) {
      const r = this.nextU32();
      if (r < limit) return r % n;
    }
  }
}

export function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/**
 * A seeded bijection of [0, 2^bits) (1 <= bits <= 32): xor with a key, then two rounds of
 * multiply-by-odd, xor with a key and xorshift, each invertible modulo 2^bits. Used to scramble RMAT vertex
 * ids (Graph500 does the same so that high-degree vertices are not the low ids).
 */
export class BitPermutation {
  readonly mask: number;
  readonly k0: number;
  readonly k1: number;
  readonly k2: number;
  readonly m1: number;
  readonly m2: number;
  readonly h: number;

  constructor(
    readonly bits: number,
    seed: number,
  ) {
    if (!Number.isInteger(bits) || bits < 1 || bits > 32) throw new RangeError(`bits must be in [1, 32], got ${bits}`);
    this.mask = bits === 32 ? 0xffffffff : (1 << bits) - 1;
    const r = new Xoshiro128(seed, 0xfffffff0);
    // All keys are int32 (small integers in V8), so the inlined copies stay integer-only.
    this.k0 = r.nextU32() & this.mask;
    this.k1 = r.nextU32() | 0;
    this.k2 = r.nextU32() | 0;
    this.m1 = r.nextU32() | 1;
    this.m2 = r.nextU32() | 1;
    this.h = Math.max(1, bits >>> 1);
  }

  apply(x: number): number {
    const mask = this.mask;
    const h = this.h;
    x = (x ^ this.k0) & mask;
    x = (Math.imul(x, this.m1) ^ this.k1) & mask;
    x ^= x >>> h;
    x = (Math.imul(x, this.m2) ^ this.k2) & mask;
    x ^= x >>> h;
    return x >>> 0;
  }
}
