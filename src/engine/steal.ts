/**
 * Page stealing policy (DESIGN.md "Execution": an actor whose queue empties takes pages from the
 * tail of the busiest queue when the model says the transfer pays). Pure: the engine supplies the
 * rates (model.ts r_p), the victim's queue and what moving each page costs.
 *
 * With the thief idle and the victim holding Q queued edges (pages not started), the superstep
 * ends, as far as these two are concerned, at Q / r_victim. Taking the last k pages (E_k edges,
 * B_k bytes to move) ends it at
 *   max(overhead + B_k / link + E_k / r_thief,  (Q - E_k) / r_victim)
 * (TOTEM Eq. 1 for each side: transfer then compute). The thief takes the k that minimises this,
 * and nothing unless it is strictly smaller than before by more than `minGainS`. The first term
 * grows with k and the second shrinks, so the minimum is where they cross: scanning from the tail
 * stops at the first k that does not improve.
 *
 * What to put in `bytes`: a GPU thief taking a host page it does not hold pays the page's bytes
 * over its link (0 when resident); a CPU thief taking a GPU's page reads the page from host memory
 * but sends the results for the page's vertices back (vertices x state bytes); two sockets share
 * host memory (0). `link` is Infinity when nothing crosses a link.
 */

import type { ReleaseFrame } from '../wire/frames.js';

export interface StealPage {
  edges: number;
  /** Bytes that must cross a link for the thief to process this page and return its results. */
  bytes: number;
}

export interface StealInput {
  /** r_p of the idle actor for this program and mode, edges/s. */
  thiefRate: number;
  /** r_p of the busiest actor, edges/s. */
  victimRate: number;
  /** Edges still queued (not started) at the victim, tail pages included. */
  victimQueueEdges: number;
  /** The victim's queued pages from the tail backwards (tail[0] is the last page of the queue). */
  tail: StealPage[];
  /** Link bytes per second between thief and victim memory; Infinity when they share memory. */
  linkBytesPerSec: number;
  /** Fixed cost of one steal (frames to both actors), seconds; default 0. */
  overheadS?: number;
  /** Time the thief still needs for its own work, seconds; default 0 (its queue is empty). */
  thiefBusyS?: number;
  /** Steal only when the superstep ends at least this much earlier, seconds; default 0. */
  minGainS?: number;
}

export interface StealPlan {
  /** Pages to take from the tail (0: do not steal). */
  pages: number;
  edges: number;
  bytes: number;
  /** When the two actors finish without stealing, and with the plan. */
  beforeS: number;
  afterS: number;
}

export function planSteal(s: StealInput): StealPlan {
  if (!(s.thiefRate > 0) || !(s.victimRate > 0)) throw new RangeError('planSteal: rates must be positive');
  const busy = s.thiefBusyS ?? 0;
  const overhead = s.overheadS ?? 0;
  const link = s.linkBytesPerSec;
  const beforeS = Math.max(busy, s.victimQueueEdges / s.victimRate);
  let bestK = 0;
  let bestS = beforeS;
  let edges = 0;
  let bytes = 0;
  let bestEdges = 0;
  let bestBytes = 0;
  for (let k = 1; k <= s.tail.length; k++) {
    const p = s.tail[k - 1]!;
    edges += p.edges;
    bytes += p.bytes;
    if (edges > s.victimQueueEdges) break;
    const thief = busy + overhead + (bytes > 0 ? bytes / link : 0) + edges / s.thiefRate;
    const victim = (s.victimQueueEdges - edges) / s.victimRate;
    const t = Math.max(thief, victim);
    if (t >= bestS) break;
    bestS = t;
    bestK = k;
    bestEdges = edges;
    bestBytes = bytes;
  }
  if (bestK > 0 && beforeS - bestS <= (s.minGainS ?? 0)) return { pages: 0, edges: 0, bytes: 0, beforeS, afterS: beforeS };
  return { pages: bestK, edges: bestEdges, bytes: bestBytes, beforeS, afterS: bestS };
}

/** Whether taking the victim's last page pays (planSteal for one page). */
export function shouldSteal(o: {
  thiefRate: number;
  victimRate: number;
  victimQueueEdges: number;
  pageEdges: number;
  pageBytes: number;
  linkBytesPerSec: number;
  overheadS?: number;
  minGainS?: number;
}): boolean {
  return (
    planSteal({
      thiefRate: o.thiefRate,
      victimRate: o.victimRate,
      victimQueueEdges: o.victimQueueEdges,
      tail: [{ edges: o.pageEdges, bytes: o.pageBytes }],
      linkBytesPerSec: o.linkBytesPerSec,
      overheadS: o.overheadS,
      minGainS: o.minGainS,
    }).pages === 1
  );
}

/** The queue with the most remaining time (edges / rate), excluding `thief`; -1 when all are empty. */
export function busiestQueue(queueEdges: ArrayLike<number>, rates: ArrayLike<number>, thief: number): number {
  let b = -1;
  let bt = 0;
  for (let i = 0; i < queueEdges.length; i++) {
    if (i === thief) continue;
    const t = queueEdges[i]! / rates[i]!;
    if (t > bt) ((bt = t), (b = i));
  }
  return b;
}

/**
 * What a victim needs to know about the thief: the coordinator's release frame without its
 * routing ('always': give up half the queue whatever the rates say; tests, demonstrations).
 */
export type ReleaseRequest = Omit<ReleaseFrame, 'type' | 'step' | 'thief'>;

/** A queued task as the policy sees it: edges, and the vertices (or frontier entries) it covers. */
interface QueuedTask {
  edges: number;
  count: number;
  lo: number;
  hi: number;
}

/**
 * The victim's side of a steal: removes from the tail of `queue` (tasks not started) the tasks
 * planSteal says the thief should take, and returns them in queue order. An unknown victim rate
 * (no task finished yet, no earlier superstep) is taken to equal the thief's.
 */
export function releaseFromTail<T extends QueuedTask>(queue: T[], req: ReleaseRequest, victimRate: number): T[] {
  if (queue.length === 0) return [];
  let k: number;
  if (req.policy === 'always') k = Math.ceil(queue.length / 2);
  else {
    if (!(req.thiefRate > 0)) return [];
    const tail: StealPage[] = [];
    let queued = 0;
    for (const t of queue) queued += t.edges;
    for (let i = queue.length - 1; i >= 0 && tail.length < 4096; i--) {
      const t = queue[i]!;
      const vertices = t.count > 1 ? 1 : t.hi - t.lo;
      tail.push({ edges: t.edges, bytes: t.edges * req.bytesPerEdge + vertices * req.bytesPerVertex });
    }
    k = planSteal({
      thiefRate: req.thiefRate,
      victimRate: victimRate > 0 ? victimRate : req.thiefRate,
      victimQueueEdges: queued,
      tail,
      linkBytesPerSec: req.linkBytesPerSec,
      overheadS: req.overheadS,
    }).pages;
  }
  return k > 0 ? queue.splice(queue.length - k, k) : [];
}
