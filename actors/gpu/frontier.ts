/**
 * A superstep's frontier and next flags on a GPU actor's device (byte maps FR and NX), for the
 * handlers of built-in programs and for GPU operators.
 */
import type { GpuActor } from './gpu-actor.js';
import { FR, NX, OUTDEG, SET_IN, type GpuStep } from './handler.js';
import { rangeVertices } from '../../src/engine/partition.js';

/** Ones to scatter into the device frontier, grown as needed (read only). */
let ones = new Uint8Array(0);

/**
 * Clears the device's next flags (the kernels mark what they activate there). Before that, on a
 * GPU owning every vertex whose frontier is the previous edge step's next frontier, the flags that
 * step left (what its votes and folds activated: nothing else activates a vertex there) become
 * the device frontier (takeState: the two arrays swap names, the next flags come out clear): no
 * byte map crosses the link (32 MiB a superstep on RMAT 25; SSSP runs hundreds of supersteps).
 */
export async function clearNext(a: GpuActor, s: GpuStep): Promise<void> {
  await a.ensure(NX, 'u8');
  if (a.ownsAll && s.f.frontierIsNext === true && a.nextStep === s.f.step - 1 && a.nextStep >= 0) {
    await a.ensure(FR, 'u8');
    await a.controller.takeState(FR, NX);
    s.frontierOnDevice = true;
  } else {
    await a.controller.fillState(NX, 0);
  }
  a.nextStep = s.f.step;
}

/**
 * Push: the device frontier holds only the owned frontier vertices (each pushed once, here):
 * the frame's tasks, the runs of the list the coordinator gave this actor. A short run goes up
 * as ids set on the device; a long one as the owned ranges' bytes (a sparse level of RMAT 25
 * copied 32 MiB of byte map, 1.5-1.9 ms, for a few hundred vertices).
 */
export async function frontierOwned(a: GpuActor, s: GpuStep): Promise<void> {
  if (s.frontierOnDevice === true) return;
  unheld(s);
  await a.ensure(FR, 'u8');
  await a.controller.fillState(FR, 0);
  // A GPU's push share is at most one task: its run of the list (tasks.ts pushTaskShares).
  const [t, more] = s.f.tasks;
  const count = t === undefined ? 0 : t.hi - t.lo;
  if (s.list !== undefined && more === undefined && count * 16 < rangeVertices(a.owned)) {
    if (t === undefined || count === 0) return;
    const ids = s.list.subarray(t.lo, t.hi);
    if (ones.length < ids.length) ones = new Uint8Array(Math.max(ids.length, 2 * ones.length)).fill(1);
    await a.controller.scatterState(FR, ids, ones.subarray(0, ids.length));
    a.stats.stateBytesIn += 5 * ids.length;
    return;
  }
  await a.pin(s.frontier!);
  for (const [b, e] of a.owned) {
    await a.controller.writeState(FR, s.frontier!.subarray(b, e), b);
    a.stats.stateBytesIn += e - b;
  }
}

/** Pull: vertices gather from frontier neighbours anywhere. */
export async function frontierAll(a: GpuActor, s: GpuStep): Promise<void> {
  if (s.frontierOnDevice === true) return;
  unheld(s);
  await a.ensure(FR, 'u8');
  // Every vertex (a PageRank-like pull): ones set on the device, no byte map over the link.
  if (s.f.frontierFull === true) return a.controller.fillState(FR, 1);
  await a.pin(s.frontier!);
  await a.controller.writeState(FR, s.frontier!);
  a.stats.stateBytesIn += s.frontier!.byteLength;
}

/** A frontier held on the device (held.ts) exists nowhere else: a handler that did not take it over in clearNext cannot run. */
function unheld(s: GpuStep): void {
  if (s.f.frontierHeld === true) throw new Error(`kernel '${s.f.kernel}': its frontier is held on the device, and its handler did not take it (clearNext)`);
}

const INDEG = '@inDegree';

/**
 * Push pages of `setId` holding a frontier vertex: GpuActor.pushPages over the frame's list, or,
 * for a frontier held on the device (no list on the host), the owned pages with a flagged vertex
 * and their flagged vertices' out-edges (in-edges for SET_IN), both found on the device.
 */
export async function pushPagesOf(a: GpuActor, setId: number, s: GpuStep): Promise<number[]> {
  if (s.list !== undefined || s.frontierOnDevice !== true) return a.pushPages(setId, s);
  const pages = Array.from(await a.controller.activePages(setId, Uint32Array.from(a.rangePages(setId)), FR, 1));
  const deg = setId === SET_IN && a.directed ? INDEG : OUTDEG;
  if (deg === INDEG) await a.ensureDegrees(INDEG, a.graph.inDegree);
  // The frontier holds owned vertices only (clearNext, heldFromPeers): one sum over their span,
  // which holdNext took already where these are the flags it left (one GPU: clearNext renamed them).
  const held = a.heldDegrees;
  const known = a.ownsAll && deg === OUTDEG && s.f.frontierIsNext === true && held !== undefined && held.step === s.f.step - 1;
  a.pushEdges = known ? held.sum : await a.controller.flaggedDegrees(FR, deg, a.begin, a.end);
  return (a.pushList = pages);
}
