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

interface Meeting {
  step: number;
  here: Map<GpuActor, { s: GpuStep; resolve: (bytes: number) => void; reject: (e: unknown) => void }>;
}

export class GpuGroup {
  private readonly members: GpuActor[] = [];
  private meeting: Meeting | undefined;
  /** Whether peer access was asked for (once per group; where a device refuses, the driver stages copies through the host). */
  private linked = false;

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
    let m = this.meeting;
    if (m === undefined || m.step !== s.f.step) {
      this.cancel(new Error(`GPU actors met at superstep ${s.f.step} while superstep ${m?.step} was still gathering`));
      m = this.meeting = { step: s.f.step, here: new Map() };
    }
    const meeting = m;
    const mine = new Promise<number>((resolve, reject) => meeting.here.set(a, { s, resolve, reject }));
    if (meeting.here.size === this.members.length) {
      this.meeting = undefined;
      const order = [...meeting.here];
      this.exchange(order.map(([b, x]) => [b, x.s])).then(
        (got) => order.forEach(([, x], i) => x.resolve(got[i]!)),
        (e: unknown) => order.forEach(([, x]) => x.reject(e)),
      );
    }
    return mine;
  }

  /** Ends a meeting still gathering (a run torn down, a member that failed before arriving). */
  cancel(e: Error): void {
    const m = this.meeting;
    this.meeting = undefined;
    m?.here.forEach((x) => x.reject(e));
  }

  private async exchange(order: Array<[GpuActor, GpuStep]>): Promise<number[]> {
    if (!this.linked) {
      this.linked = true;
      await Promise.all(order.flatMap(([a]) => order.filter(([b]) => b !== a).map(([b]) => a.controller.enablePeer(b.controller))));
    }
    return fromPeers(order);
  }
}
