/**
 * Internal ids for the bounded-memory builder (external.ts), from the raw run on disk, with the
 * tables of build/ids.ts: the same key space (original ids when dense enough, else ranks in a
 * bitmap of the ids present, which is what densify gives), the same byte counters, the same
 * renumbering and id maps. Only the edges differ: read back block by block instead of held.
 */
import { CHUNK, type U32List } from '../chunked.js';
import {
  allocCounts,
  countChunks,
  countsByOriginal,
  degreeHistogram,
  degreeTables,
  degreesRange,
  idMapsRange,
  markChunk,
  maxOf,
  rankChunk,
  ranksOf,
  renumberHere,
  type IdPlan,
  type KeySpace,
} from './ids.js';
import { recordBlock, weightAt, type RecordBlock, type RunFile } from './external-io.js';
import { READ_RECORDS } from './external-plan.js';

export interface KeyedIds {
  n: number;
  plan: IdPlan;
  toOriginal: Uint32Array;
  byOriginal: Uint32Array;
  /** The largest id when ids were ranked (0 when counted by original id). */
  sparseMax: number;
  /** Calls fn(new src, new dst, weight) for every edge of the raw run, in order. */
  forEachEdge(raw: RunFile, fn: (a: number, b: number, w: number) => void, progress: (done: number) => void): Promise<void>;
  /** Drops the tables by key (after the last forEachEdge). */
  release(): void;
}

/** Source and target keys of a block's records (ranked when the ids are sparse). */
class KeyReader {
  readonly block: RecordBlock;
  readonly src = new Uint32Array(READ_RECORDS);
  readonly dst = new Uint32Array(READ_RECORDS);
  constructor(
    raw: RunFile,
    private bits: Uint32Array | undefined,
    private rank: Uint32Array | undefined,
  ) {
    this.block = recordBlock(READ_RECORDS, raw.wt);
  }

  /** Yields the records read per block, their keys in src / dst. */
  *read(raw: RunFile): Generator<number> {
    const { u32, words } = this.block;
    for (const k of raw.blocks(0, this.block)) {
      for (let i = 0; i < k; i++) {
        this.src[i] = u32[i * words]!;
        this.dst[i] = u32[i * words + 1]!;
      }
      if (this.bits !== undefined) {
        rankChunk(this.src, k, this.bits, this.rank!);
        rankChunk(this.dst, k, this.bits, this.rank!);
      }
      yield k;
    }
  }

  release(): void {
    this.bits = undefined;
    this.rank = undefined;
  }
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Counts the raw run's m edges (ids up to `max`) and renumbers. `vertices`: listed vertices.
 */
export async function keyedIds(
  raw: RunFile,
  vertices: U32List | undefined,
  m: number,
  max: number,
  directed: boolean,
  order: 'degree' | 'none',
  progress: (done: number) => void,
): Promise<KeyedIds> {
  const nv = vertices?.length ?? 0;
  const top = Math.max(max, vertices ? maxOf(vertices) : -1);
  let ks: KeySpace;
  let bits: Uint32Array | undefined;
  let rank: Uint32Array | undefined;
  if (countsByOriginal(top, m, nv)) ks = { keys: top + 1, direct: true, keyToOriginal: undefined };
  else {
    bits = new Uint32Array((top >>> 5) + 1);
    const plain = new KeyReader(raw, undefined, undefined);
    for (const k of plain.read(raw)) {
      markChunk(plain.src, k, bits);
      markChunk(plain.dst, k, bits);
    }
    vertices?.forEachChunk((ch, k) => markChunk(ch, k, bits!));
    const r = ranksOf(bits);
    rank = r.rank;
    ks = { keys: r.distinct.length, direct: false, keyToOriginal: r.distinct };
  }
  const reader = new KeyReader(raw, bits, rank);
  const counts = allocCounts(ks.keys, directed, false);
  let done = 0;
  for (const k of reader.read(raw)) {
    countChunks([reader.src], [reader.dst], [k], counts);
    done += k;
    if (done % CHUNK < k) {
      progress(done);
      await turn();
    }
  }
  progress(done);
  const dt = degreeTables(ks, vertices, false);
  const hist = degreeHistogram(false);
  const plan = renumberHere(ks, dt, degreesRange([counts], dt, ks.direct, directed, 0, ks.keys, hist), hist, directed, order);
  const toOriginal = new Uint32Array(plan.n);
  const byOriginal = new Uint32Array(plan.n);
  idMapsRange(plan.newId, ks.keyToOriginal, toOriginal, byOriginal, 0, ks.keys, 0);
  let newId: Uint32Array | undefined = plan.newId;
  return {
    n: plan.n,
    plan,
    toOriginal,
    byOriginal,
    sparseMax: bits === undefined ? 0 : top,
    async forEachEdge(run, fn, prog) {
      const ids = newId!;
      let seen = 0;
      for (const k of reader.read(run)) {
        const { src, dst, block } = reader;
        if (block.f32 === undefined && block.f64 === undefined) for (let i = 0; i < k; i++) fn(ids[src[i]!]!, ids[dst[i]!]!, 0);
        else for (let i = 0; i < k; i++) fn(ids[src[i]!]!, ids[dst[i]!]!, weightAt(block, i));
        seen += k;
        if (seen % CHUNK < k) {
          prog(seen);
          await turn();
        }
      }
      prog(seen);
    },
    release() {
      newId = undefined;
      reader.release();
      (plan as { newId?: Uint32Array }).newId = undefined;
    },
  };
}
