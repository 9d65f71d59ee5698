/**
 * Erdos-Renyi G(n, m) generator: n = 2^scale vertices, m = edgeFactor * n ordered pairs drawn
 * uniformly and independently (self-loops and repeats included, as in the raw model; buildGraph
 * drops them). Same block / stream scheme and weights as RMAT (see rmat.ts).
 */
import { BLOCK, fillWeights } from './rmat.js';
import { streamState } from './rng.js';
import type { GeneratorSpec } from './spec.js';

export class UniformGenerator {
  readonly numVertices: number;
  readonly numEdges: number;
  readonly numBlocks: number;

  constructor(readonly spec: GeneratorSpec) {
    this.numVertices = 2 ** spec.scale;
    this.numEdges = spec.edgeFactor * this.numVertices;
    this.numBlocks = Math.ceil(this.numEdges / BLOCK);
  }

  blockEdges(b: number): number {
    return Math.max(0, Math.min(BLOCK, this.numEdges - b * BLOCK));
  }

  fill(b: number, src: Uint32Array, dst: Uint32Array, w?: Float32Array): number {
    const k = this.blockEdges(b);
    const st = streamState(this.spec.seed, b);
    let s0 = st[0]!;
    let s1 = st[1]!;
    let s2 = st[2]!;
    let s3 = st[3]!;
    // Top `scale` bits of each 32-bit draw.
    const shift = 32 - this.spec.scale;
    for (let i = 0; i < k; i++) {
      let r = Math.imul(((Math.imul(s1, 5) << 7) | (Math.imul(s1, 5) >>> 25)), 9);
      let t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 11) | (s3 >>> 21);
      src[i] = r >>> shift;
      r = Math.imul(((Math.imul(s1, 5) << 7) | (Math.imul(s1, 5) >>> 25)), 9);
      t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 11) | (s3 >>> 21);
      dst[i] = r >>> shift;
    }
    if (w !== undefined && this.spec.weighted) fillWeights(this.spec.seed, b, w, k);
    return k;
  }
}
