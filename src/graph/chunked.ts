/**
 * Append-only typed-array lists made of fixed-size chunks: growth never copies (so peak memory
 * while reading stays at the bytes of the data itself), and a chunk can be dropped as soon as it
 * has been consumed.
 */
const CHUNK_BITS = 20;
export const CHUNK = 1 << CHUNK_BITS;
const MASK = CHUNK - 1;

type Ctor<T> = { new (n: number): T };

class Chunked<T extends Uint32Array | Float32Array | Float64Array> {
  chunks: T[] = [];
  length = 0;
  private cur: T | undefined;
  private pos = CHUNK;
  private spare: T[] = [];
  constructor(private readonly ctor: Ctor<T>) {}

  push(v: number): void {
    if (this.pos === CHUNK) {
      this.cur = this.spare.pop() ?? new this.ctor(CHUNK);
      this.chunks.push(this.cur);
      this.pos = 0;
    }
    this.cur![this.pos++] = v;
    this.length++;
  }

  get(i: number): number {
    return this.chunks[i >>> CHUNK_BITS]![i & MASK]!;
  }

  set(i: number, v: number): void {
    this.chunks[i >>> CHUNK_BITS]![i & MASK] = v;
  }

  /** Calls fn(chunk, count, base) for each chunk in order; `count` is the filled prefix. */
  forEachChunk(fn: (chunk: T, count: number, base: number) => void): void {
    for (let c = 0; c < this.chunks.length; c++) {
      const base = c * CHUNK;
      fn(this.chunks[c]!, Math.min(CHUNK, this.length - base), base);
    }
  }

  /** Releases the storage (the list becomes empty). */
  clear(): void {
    this.chunks = [];
    this.spare = [];
    this.length = 0;
    this.cur = undefined;
    this.pos = CHUNK;
  }

  /**
   * Empties the list but keeps its full-size chunks for the next pushes: a list drained as it is
   * filled (the bounded builder's reader) then allocates nothing after its first chunks.
   */
  recycle(): void {
    const spare = this.chunks.filter((c) => c.length === CHUNK);
    this.clear();
    this.spare = spare;
  }
}

export class U32List extends Chunked<Uint32Array> {
  constructor() {
    super(Uint32Array);
  }
}
export class F32List extends Chunked<Float32Array> {
  constructor() {
    super(Float32Array);
  }
}
export class F64List extends Chunked<Float64Array> {
  constructor() {
    super(Float64Array);
  }
}
export type WeightList = F32List | F64List;
