/**
 * A GPU actor's state sync: its device arrays and the copies between them and the host's
 * (uploads, read-backs into the coordinator's shared arrays, compacted or flagged changes, next
 * flags), over page-locked host buffers. GpuActor (gpu-actor.ts) extends it with its start and
 * supersteps.
 */
import type { GpuLoad, GpuStepStats, MergeOp, StateKind, StateMerge, StateSync } from '../../src/wire/frames.js';
import { sharedArray, type KernelGraph, type StateArray } from '../../src/engine/kernel.js';
import { rangeVertices, type VertexRanges } from '../../src/engine/partition.js';
import type { GpuController } from './native.js';
import { countFlags } from './pages.js';
import { HostPins } from './pins.js';
import { zeroStats } from './stats.js';
import { ACTIVATE, NX, OUTDEG, OWNED, type GpuStep as Step, type StepOut } from './handler.js';

export abstract class GpuStateSync {
  protected ctl: GpuController | undefined;
  protected g: KernelGraph | undefined;
  protected cfg: GpuLoad | undefined;
  protected readonly device = new Map<string, { kind: StateKind; length: number }>();
  stats: GpuStepStats = zeroStats(false); // this superstep's counters (the vote's gpu)
  /** With countNext (or held next flags): the out-degrees of the owned vertices in next (the vote's nextEdges). */
  nextEdges: number | undefined;
  /** Host buffers page-locked for copies (pins.ts). */
  protected readonly pins = new HostPins();
  /** Readback buffers reused across supersteps, by state name and length. */
  private readonly back = new Map<string, StateArray>();
  /** Shared buffers sent beside this superstep's vote (FlagMerge buffer indices). */
  protected voteShared: SharedArrayBuffer[] = [];
  protected othersRanges: VertexRanges = [];

  /** The owned ranges (sorted, disjoint). */
  get owned(): VertexRanges {
    return this.cfg!.owned;
  }
  /** At most one owned range: the kernels compare against [begin, end) (no byte map). */
  get single(): boolean {
    return this.cfg!.owned.length <= 1;
  }
  /** First owned vertex and the end of the last range (the span; [0, 0) when nothing is owned). */
  get begin(): number {
    return this.cfg!.owned[0]?.[0] ?? 0;
  }
  get end(): number {
    const o = this.cfg!.owned;
    return o[o.length - 1]?.[1] ?? 0;
  }

  /** The vertices other actors own (the complement of the owned ranges). */
  get others(): VertexRanges {
    return this.othersRanges;
  }

  /**
   * Another program: frees the previous one's device arrays and scratch (they would shrink the page
   * cache, and under a memoryLimit leave the next program too little); '@' names are graph constants.
   */
  protected async freeProgramArrays(): Promise<void> {
    for (const name of [...this.device.keys()]) if (!name.startsWith('@')) (await this.ctl!.freeState(name), this.device.delete(name));
    await this.ctl!.freeScratch();
  }

  /** Allocates (or keeps) a device array of `n` entries (default: one per vertex); freed when another program runs. */
  async ensure(name: string, kind: StateKind, n = this.g!.numVertices): Promise<void> {
    const d = this.device.get(name);
    if (d !== undefined && d.kind === kind && d.length === n) return;
    await this.ctl!.allocState(name, kind, n);
    this.device.set(name, { kind, length: n });
  }

  /**
   * Copies the coordinator's array `name` to the device replica. With `snapshot`, from a private
   * copy taken first (returned), so the actor can diff against exactly what the device started from.
   */
  async upload(name: string, s: Step, snapshot = false): Promise<StateArray> {
    const arr = s.state[name];
    if (arr === undefined) throw new Error(`kernel '${s.f.kernel}' needs state '${name}' in the frame`);
    const n = this.g!.numVertices;
    const kind = s.f.state.find((r) => r.name === name)!.kind;
    await this.ensure(name, kind);
    const src = (arr.length === n ? arr : arr.subarray(0, n)) as StateArray;
    const data = snapshot ? (src.slice() as StateArray) : src;
    if (!snapshot) await this.pin(src);
    await this.ctl!.writeState(name, data);
    this.stats.stateBytesIn += data.byteLength;
    return data;
  }

  /**
   * Writes the ranges of `src` (a host array of n entries) into the device array `dev`, e.g. the
   * part of a state array other actors computed while the device holds its own part.
   */
  async uploadRanges(dev: string, src: StateArray, ranges: VertexRanges): Promise<void> {
    // Page-lock only when something is copied: locking a buffer the CPU never touched (a GPU
    // alone never writes the host's nextContrib) first faults in all of it, ~50 ms on 134 MB.
    if (ranges.length > 0) await this.pin(src);
    for (const [b, e] of ranges) {
      await this.ctl!.writeState(dev, src.subarray(b, e) as StateArray, b);
      this.stats.stateBytesIn += src.BYTES_PER_ELEMENT * (e - b);
    }
  }

  /** Device entries `ids` of `dev` set to the host array's values there. */
  async scatterHost(dev: string, src: StateArray, ids: Uint32Array): Promise<void> {
    const vals = new (src.constructor as new (n: number) => StateArray)(ids.length);
    for (let i = 0; i < ids.length; i++) vals[i] = src[ids[i]!]!;
    await this.ctl!.scatterState(dev, ids, vals);
    this.stats.stateBytesIn += ids.byteLength + vals.byteLength;
  }

  /** The graph's out-degrees on the device (uploaded once). */
  ensureOutDegree(): Promise<void> {
    return this.ensureDegrees(OUTDEG, this.g!.outDegree);
  }

  /** Per-vertex degrees (a graph constant) in device array `name`, uploaded once (kept across programs: '@' names). */
  async ensureDegrees(name: string, degrees: Uint32Array): Promise<void> {
    if (this.device.has(name)) return;
    await this.ensure(name, 'u32');
    const n = this.g!.numVertices;
    await this.ctl!.writeState(name, degrees.subarray(0, n));
    this.stats.stateBytesIn += 4 * n;
  }

  /** Device values [begin, begin + length) of `name` in a reused host buffer (see reused). */
  async read(name: string, kind: StateKind, begin: number, length: number): Promise<StateArray> {
    const view = this.reused(name, kind, length);
    await this.pin(view);
    await this.ctl!.readState(name, view, begin);
    this.stats.stateBytesOut += view.byteLength;
    return view;
  }

  /**
   * Device values of `name` over [lo, hi) copied straight into the coordinator's shared array
   * `state`, page-locked so the copy is one DMA at link speed, instead of into a buffer the
   * coordinator then copies again on its one thread (60 ms a superstep for PageRank on 16.8 M
   * vertices). The range is this actor's alone this superstep (owned, or tasks a victim released
   * to it): no one else writes there before the votes are in.
   */
  async syncRange(name: string, state: string, s: Step, lo: number, hi: number): Promise<StateSync> {
    const host = s.state[state];
    if (host === undefined) throw new Error(`kernel '${s.f.kernel}' needs state '${state}' in the frame`);
    await this.readInto(name, host, lo, hi);
    return { state, begin: lo, written: hi - lo };
  }

  /** syncRange over every owned range (one entry each: the ranges between are other actors'). */
  async syncOwned(name: string, state: string, s: Step): Promise<StateSync[]> {
    const out: StateSync[] = [];
    for (const [b, e] of this.owned) out.push(await this.syncRange(name, state, s, b, e));
    return out;
  }

  /** Device values of `name` over [lo, hi) into the same range of the host array `host` (page-locked). */
  private async readInto(name: string, host: StateArray, lo: number, hi: number): Promise<void> {
    await this.pin(host);
    await this.ctl!.readState(name, host.subarray(lo, hi) as StateArray, lo);
    this.stats.stateBytesOut += (hi - lo) * host.BYTES_PER_ELEMENT;
  }

  readAll(name: string, kind: StateKind): Promise<StateArray> {
    return this.read(name, kind, 0, this.g!.numVertices);
  }

  /** Page-locks the host buffer under `view` (once; LRU beyond the cap; not where copies are staged: pins.ts). */
  pin(view: StateArray): Promise<void> {
    return this.pins.pin(this.ctl!, view);
  }

  protected async unpinAll(): Promise<void> {
    await this.pins.unpinAll(this.ctl!);
    this.back.clear();
  }

  /**
   * Owned vertices the kernel put in next, with their new values of `name`: compacted on the
   * device, so a superstep that changed k owned vertices reads back 12k bytes, not the range.
   * Several ranges: one call over their span, masked by the owned byte map.
   */
  async ownedChanges(name: string, op: MergeOp, _s: Step): Promise<StateMerge> {
    const { ids, values } = await this.ctl!.compact(NX, name, this.begin, this.end, this.single ? undefined : OWNED);
    this.stats.stateBytesOut += ids.byteLength + values.byteLength;
    return { state: name, op, activate: ACTIVATE, ids, values };
  }

  /**
   * Own vertices this superstep's kernels changed (device flags NX), for the coordinator to fold
   * with `op`: a compacted (id, value) list when few changed (`activated` below 1/256 of the range),
   * else the range's flags (and for 'min' its values) in shared buffers beside the vote, folded in
   * vertex order. A list entry costs a random write on the coordinator's thread, ~65x a flag
   * scanned; a push level of RMAT 24 changes ~10 M vertices.
   */
  async changedOwned(name: string, op: 'claim' | 'min', s: Step, activated: number | undefined, value?: number): Promise<Pick<StepOut, 'merges' | 'flagged'>> {
    const owned = rangeVertices(this.owned);
    // No kernel ran (no owned frontier vertex) or none marked a vertex: nothing to read back.
    if (owned === 0 || activated === 0) return { merges: [], flagged: [] };
    if ((activated ?? Infinity) * 256 < owned) return { merges: [await this.ownedChanges(name, op, s)], flagged: [] };
    // Indexed by vertex id (n entries): every range reads into its own part.
    const n = this.g!.numVertices;
    const flags = this.reused('flagged:@flags', 'u8', n);
    const flagsBuffer = this.voteShared.push(flags.buffer as SharedArrayBuffer) - 1;
    const values = op === 'min' ? this.reused(`flagged:${name}`, s.f.state.find((r) => r.name === name)!.kind, n) : undefined;
    const valuesBuffer = values === undefined ? undefined : this.voteShared.push(values.buffer as SharedArrayBuffer) - 1;
    // Each range read into its own part of buffers indexed by vertex id; one entry over their
    // span: nothing else ever writes these flags, so they stay 0 between the ranges (a fold per
    // range costs a native call and its threads each).
    for (const [lo, hi] of this.owned) {
      await this.readInto(NX, flags, lo, hi);
      if (values !== undefined) await this.readInto(name, values, lo, hi);
    }
    return { merges: [], flagged: [{ state: name, op, begin: this.begin, end: this.end, flagsBuffer, ...(op === 'claim' ? { value } : { valuesBuffer }) }] };
  }

  /**
   * A shared host array of `length` entries of `kind`, kept under `key` from superstep to
   * superstep (page-locked on its first copy): what a vote carries is folded by the coordinator
   * before the next superstep frame comes, so the array is free again by then.
   */
  private reused(key: string, kind: StateKind, length: number): StateArray {
    const k = `${key}:${kind}:${length}`;
    let a = this.back.get(k);
    if (a === undefined) {
      a = sharedArray(kind, length).subarray(0, length) as StateArray;
      this.back.set(k, a);
    }
    return a;
  }

  /**
   * The device's next flags of the owned ranges copied into the coordinator's next bitmap, in
   * place (pull kernels: no one else sets flags there this superstep); returns how many are set:
   * `known` when the caller has the count (the kernels' activations since clearNext, each a flag
   * newly set: counting 33 M flags on this thread took ~10 ms a superstep on RMAT 25). With
   * countNext, also the vote's nextEdges (the coordinator then lists no byte map to switch).
   */
  async syncNext(s: Step, known?: number): Promise<number> {
    let k = 0;
    // countNext (Ligra's switch next): their out-edges too, summed on the device (OUTDEG is up since load).
    if (s.f.countNext === true) this.nextEdges = 0;
    // Nothing marked: the host's next flags are clear already (the run hands out clear bitmaps),
    // so no byte map comes back (a PageRank-like pull activates nothing: 16 MiB a step on RMAT 24).
    if (known === 0) return 0;
    for (const [b, e] of this.owned) {
      await this.readInto(NX, s.next, b, e);
      if (known === undefined) k += countFlags(s.next.subarray(b, e));
      if (this.nextEdges !== undefined) this.nextEdges += await this.ctl!.flaggedDegrees(NX, OUTDEG, b, e);
    }
    return known ?? k;
  }
}
