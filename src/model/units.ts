/**
 * Page units, the model's granularity for cutting a page set: a page, or all split pages of one
 * vertex (they must stay together), in degree (id) order or shuffled for RAND.
 */
import { Xoshiro128 } from '../graph/generate/rng.js';
import type { PageSet } from '../graph/types.js';

/** The model's default RAND seed (`tessera model --seed`, `tessera run --partition-seed`). */
export { DEFAULT_PARTITION_SEED } from '../engine/partition.js';

/** Stream of the RAND shuffle, apart from the generators' streams. */
const RAND_STREAM = 0x7e55e4a0;

/** Units: maximal runs of pages that must stay together (one page, or all split pages of a vertex). */
export interface Units {
  /** First page of unit u; first[U] = pages.length. */
  first: Uint32Array;
  edges: Float64Array;
}

export function unitsOf(set: PageSet): Units {
  const pages = set.pages;
  const first: number[] = [];
  for (let i = 0; i < pages.length; i++) {
    const p = pages[i]!;
    const prev = i > 0 ? pages[i - 1]! : undefined;
    const continues = p.split && prev !== undefined && prev.split && prev.vBegin === p.vBegin;
    if (!continues) first.push(i);
  }
  const U = first.length;
  const f = new Uint32Array(U + 1);
  const edges = new Float64Array(U);
  for (let u = 0; u < U; u++) f[u] = first[u]!;
  f[U] = pages.length;
  for (let u = 0; u < U; u++) for (let i = f[u]!; i < f[u + 1]!; i++) edges[u] += pages[i]!.edges;
  return { first: f, edges };
}


/** Unit order: degree order, or with a seed shuffled (Fisher-Yates) for RAND. */
export function unitOrder(U: number, seed: number | undefined): Uint32Array {
  const order = new Uint32Array(U);
  for (let u = 0; u < U; u++) order[u] = u;
  if (seed !== undefined) {
    const rng = new Xoshiro128(seed, RAND_STREAM);
    for (let i = U - 1; i > 0; i--) {
      const j = rng.nextBelow(i + 1);
      const t = order[i]!;
      order[i] = order[j]!;
      order[j] = t;
    }
  }
  return order;
}

