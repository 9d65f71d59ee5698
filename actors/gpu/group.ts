/**
 * The GPU actors of one engine: they run in the coordinator's process, so their devices can copy
 * state to each other directly (GTS §4.1: peer-to-peer copies among GPUs are much faster than
 * each GPU's round trip through main memory). Before each superstep the members meet at a
 * barrier: every one of them has voted on the previous superstep (BSP) and none has started this
 * one, so no kernel reads or writes what the copies touch (residency.ts fromPeers).
 *
 * Every GPU actor gets every superstep frame that goes to GPUs (coordinator.superstep), so each
 * member arrives at each meeting. A member that fails before arriving leaves the others waiting
 * until the run is torn down (stop cancels the meeting); one failing after the meeting is a
 * failure like any other.
 */
import type { GpuActor } from './gpu-actor.js';
import type { GpuStep } from './handler.js';
import { fromPeers } from './residency.js';
import { heldFromPeers, swapUpdates, type Updates } from './held.js';
import type { Exchange, GpuController } from './native.js';
import { complementRanges, type VertexRanges } from '../../src/engine/partition.js';

interface Meeting<T, R> {
  step: number;
  here: Map<GpuActor, { x: T; resolve: (r: R) => void; reject: (e: unknown) => void }>;
}

/** One barrier per superstep: when every member arrived with its input, `all` runs once and each gets its result. */
class Barrier<T, R> {
  private meeting: Meeting<T, R> | undefined;
  constructor(
    private readonly size: () => number,
    private readonly all: (order: Array<[GpuActor, T]>) => Promise<R[]>,
  ) {}

  arrive(a: GpuActor, step: number, x: T): Promise<R> {
    let m = this.meeting;
    if (m === undefined || m.step !== step) {
      this.cancel(new Error(`GPU actors met at superstep ${step} while superstep ${m?.step} was still gathering`));
      m = this.meeting = { step, here: new Map() };
    }
    const meeting = m;
    const mine = new Promise<R>((resolve, reject) => meeting.here.set(a, { x, resolve, reject }));
    if (meeting.here.size === this.size()) {
      this.meeting = undefined;
      const order = [...meeting.here];
      this.all(order.map(([b, y]) => [b, y.x])).then(
        (got) => order.forEach(([, y], i) => y.resolve(got[i]!)),
        (e: unknown) => order.forEach(([, y]) => y.reject(e)),
      );
    }
    return mine;
  }

  cancel(e: Error): void {
    const m = this.meeting;
    this.meeting = undefined;
    m?.here.forEach((y) => y.reject(e));
  }
}

export class GpuGroup {
  private readonly members: GpuActor[] = [];
  private readonly meeting = new Barrier<GpuStep, number>(() => this.members.length, (order) => this.exchange(order));
  /** After the kernels of a superstep whose state the GPUs hold: their updates for each other's vertices (held.ts). */
  private readonly swapping = new Barrier<Updates | undefined, Updates | undefined>(() => this.members.length, async (order) => swapUpdates(order));
  /** Whether peer access was asked for (once per group; where a device refuses, the driver stages copies through the host). */
  private linked = false;
  /** The meetings so far: the last one's number tags the exchanges of its superstep (exchangeFor). */
  private meetings = 0;
  private notOwned: VertexRanges | undefined;

  join(a: GpuActor): void {
    this.members.push(a);
  }

  /**
   * Whether the members exchange state device to device: two or more of them, all real GPUs or all
   * emulated (an emulated device cannot reach a real one's memory).
   */
  get active(): boolean {
    return this.members.length > 1 && this.members.every((m) => m.loaded && m.emulated === this.members[0]!.emulated);
  }

  /** Whether two or more members own vertices (one owning all of them, the others none, works alone). */
  get sharing(): boolean {
    return this.active && this.members.filter((m) => m.owned.length > 0).length > 1;
  }

  /** The ranges no member owns (the CPU actors'), computed once: ownership is fixed at load. */
  unowned(): VertexRanges {
    return (this.notOwned ??= complementRanges(this.members.map((m) => m.owned), this.members[0]!.graph.numVertices));
  }

  /** Whether the members together own every vertex (no CPU actor computes any). */
  get ownsAll(): boolean {
    if (!this.active) return false;
    let owned = 0;
    for (const m of this.members) for (const [b, e] of m.owned) owned += e - b;
    return owned === this.members[0]!.graph.numVertices;
  }

  /**
   * Waits until every member reached superstep `s`, then copies what each holds that the others
   * need (fromPeers). Resolves with the bytes `a` received.
   */
  meet(a: GpuActor, s: GpuStep): Promise<number> {
    if (!this.active) return Promise.resolve(0);
    return this.meeting.arrive(a, s.f.step, s);
  }

  /**
   * Waits until every member ran superstep `s`'s kernels, then hands each the updates the others
   * made to its vertices (`mine`: this member's, for any vertex; held.ts swapUpdates).
   */
  swap(a: GpuActor, s: GpuStep, mine: Updates | undefined): Promise<Updates | undefined> {
    return this.swapping.arrive(a, s.f.step, mine);
  }

  /**
   * The exchange of array `slot` for a run over `setId`'s owned pages at this superstep, where every
   * member owns vertices and runs over some of its pages (each posts, so none waits for a member
   * that never runs): the members copy what they computed into each other's arrays after their
   * kernels, overlapping the slower members' kernels (GTS §4.1's peer copies, moved from the next
   * superstep's meeting; residency.ts exchanged). Undefined where the group does not share.
   */
  exchangeFor(a: GpuActor, slot: string, setId: number): Exchange | undefined {
    if (!this.sharing || this.meetings === 0 || !this.members.every((m) => m.owned.length > 0 && m.rangePages(setId).length > 0)) return undefined;
    return { tag: this.meetings, slot, ranges: Float64Array.from(a.owned.flat()), peers: this.peersOf(a) };
  }

  /**
   * The exchange of a call that loops (native controller_levels.cpp) at this superstep: every
   * member runs one and, at each step's end, ORs the others' next flags (array `slot`) in
   * ('levels'), or copies their owned ranges of the array that step wrote ('pr_iterations':
   * `owned`). Undefined unless the members are active together.
   */
  loopExchange(a: GpuActor, slot: string, owned = false): Exchange | undefined {
    if (!this.active || this.meetings === 0) return undefined;
    return { tag: this.meetings, slot, ranges: owned ? Float64Array.from(a.owned.flat()) : new Float64Array(0), peers: this.peersOf(a) };
  }

  /** The other members' controllers. */
  private peersOf(a: GpuActor): GpuController[] {
    return this.members.filter((m) => m !== a).map((m) => m.controller);
  }

  /** `a`'s even share of n vertices among the members (one range; settle's read-back of arrays exact on every member). */
  evenShare(a: GpuActor, n: number): VertexRanges {
    const k = this.members.indexOf(a), g = this.members.length;
    return [[Math.floor((k * n) / g), Math.floor(((k + 1) * n) / g)]];
  }

  /** Whether `a` is the first member (one of them reports what all of them did alike). */
  lead(a: GpuActor): boolean {
    return this.members[0] === a;
  }

  /** Ends a meeting still gathering and every exchange waiting for a member (a run torn down, a member that failed). */
  cancel(e: Error): void {
    this.meeting.cancel(e);
    this.swapping.cancel(e);
    this.abortExchanges();
  }

  /** Ends the native waits of this superstep's exchanges (a member failed after the meeting: it may never post). */
  abortExchanges(): void {
    for (const m of this.members) if (m.loaded) m.controller.abortExchanges(this.meetings);
  }

  private async exchange(order: Array<[GpuActor, GpuStep]>): Promise<number[]> {
    this.meetings++;
    if (!this.linked) {
      this.linked = true;
      await Promise.all(order.flatMap(([a]) => order.filter(([b]) => b !== a).map(([b]) => a.controller.enablePeer(b.controller))));
    }
    const got = await fromPeers(order);
    const frontier = await heldFromPeers(order);
    return got.map((b, i) => b + frontier[i]!);
  }
}
