/**
 * The k x k boundary counts of a page partition (partition.ts boundaryTraffic): for p != q, agg =
 * the distinct neighbours w owned by q that p's pages name, raw = the edges to them. One pass over
 * every edge of the page set per partition: a multi-GPU sweep makes up to 126 of them, so the
 * pass runs on the addon's threads where it can (addon_model.cpp, the same counts bit for bit),
 * and partitions that assign every page as an earlier one did reuse its counts.
 */
import { nativeModelCount } from '../../actors/gpu/native-host.js';
import type { Graph, PageSet } from '../graph/types.js';
import type { Partition } from './partition.js';

export interface BoundaryMatrices {
  agg: Float64Array;
  raw: Float64Array;
}

/** The counts by one pass in JS: the reference (and the fallback without the addon). */
export function countMatricesJs(graph: Graph, part: Partition): BoundaryMatrices {
  const k = part.elements.length;
  const pages = graph[part.orientation].pages;
  const owner = part.owner;
  const stamp = new Uint8Array(graph.numVertices); // element index + 1 that last counted w
  const agg = new Float64Array(k * k);
  const raw = new Float64Array(k * k);
  for (let p = 0; p < k; p++) {
    const mark = p + 1;
    const list = part.elements[p]!.pages;
    const row = p * k;
    for (let j = 0; j < list.length; j++) {
      const nbrs = pages[list[j]!]!.nbrs;
      for (let i = 0; i < nbrs.length; i++) {
        const w = nbrs[i]!;
        const q = owner[w]!;
        if (q === p) continue;
        raw[row + q]++;
        if (stamp[w] !== mark) {
          stamp[w] = mark;
          agg[row + q]++;
        }
      }
    }
  }
  return { agg, raw };
}

/** Each page's element (255: none), or null when a page is listed twice (the native pass takes one element per page). */
function pageElements(set: PageSet, part: Partition): Uint8Array | null {
  const pe = new Uint8Array(set.pages.length).fill(255);
  for (let e = 0; e < part.elements.length; e++) {
    const list = part.elements[e]!.pages;
    for (let j = 0; j < list.length; j++) {
      const i = list[j]!;
      if (i >= pe.length || pe[i] !== 255) return null;
      pe[i] = e;
    }
  }
  return pe;
}

/** The page set's nbrs arrays in page order, made once per page set for the addon. */
const nbrsOf = new WeakMap<PageSet, Uint32Array[]>();
function pageNbrs(set: PageSet): Uint32Array[] {
  let a = nbrsOf.get(set);
  if (a === undefined) nbrsOf.set(set, (a = set.pages.map((p) => p.nbrs)));
  return a;
}

/** The counts on the addon's threads, or null without it (or for more than 24 elements, or a page in two lists). */
export function countMatricesNative(graph: Graph, part: Partition, pe?: Uint8Array | null): BoundaryMatrices | null {
  const fn = nativeModelCount();
  const k = part.elements.length;
  if (fn === undefined || k > 24 || part.owner.length !== graph.numVertices) return null;
  const set = graph[part.orientation];
  const elems = pe === undefined ? pageElements(set, part) : pe;
  if (elems === null) return null;
  const agg = new Float64Array(k * k);
  const raw = new Float64Array(k * k);
  fn(pageNbrs(set), elems, part.owner, k, agg, raw);
  return { agg, raw };
}

/**
 * Counts of partitions made by partitionGraph, keyed by the page set and each page's element: its
 * owner map follows from those (each element's pages' vertex ranges), so an equal key is an equal
 * partition. Sweeps repeat partitions: every strategy and way at alpha 1, HIGH and LOW at 0.
 */
const derived = new WeakSet<Partition>();
const memo = new WeakMap<PageSet, Map<string, BoundaryMatrices>>();
const MEMO_ENTRIES = 256;

/** Marks a partition as partitionGraph's (its owner map derived from its page lists). */
export function markDerived(part: Partition): void {
  derived.add(part);
}

/** The counts of any partition: memo, then the addon, then JS. Fresh arrays (callers may keep them). */
export function countMatrices(graph: Graph, part: Partition): BoundaryMatrices {
  const set = graph[part.orientation];
  const pe = pageElements(set, part);
  let key: string | undefined;
  let m: Map<string, BoundaryMatrices> | undefined;
  if (pe !== null && derived.has(part)) {
    key = `${part.elements.length}:${Buffer.from(pe.buffer, pe.byteOffset, pe.length).toString('latin1')}`;
    m = memo.get(set);
    if (m === undefined) memo.set(set, (m = new Map()));
    const hit = m.get(key);
    if (hit !== undefined) return { agg: hit.agg.slice(), raw: hit.raw.slice() };
  }
  const r = countMatricesNative(graph, part, pe) ?? countMatricesJs(graph, part);
  if (m !== undefined && key !== undefined) {
    if (m.size >= MEMO_ENTRIES) m.delete(m.keys().next().value!);
    m.set(key, { agg: r.agg.slice(), raw: r.raw.slice() });
  }
  return r;
}
