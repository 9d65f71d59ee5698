import type { KeyedGraph } from '../graphology.js';
import type { Graph } from './types.js';

/** A graph whose original ids are positions in `keys` (names from a file): read and written by name. */
export function withKeys<G extends Graph>(g: G, keys: string[]): G & KeyedGraph {
  const keyIndex = new Map<string, number>();
  keys.forEach((k, i) => keyIndex.set(k, i));
  return Object.assign(g, { keys: keys as readonly string[], keyIndex: keyIndex as ReadonlyMap<string, number>, writesKeys: true });
}
