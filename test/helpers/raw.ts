import { F64List, U32List } from '../../src/graph/chunked.js';
import type { RawEdges } from '../../src/graph/types.js';

/** RawEdges from plain arrays of original ids (tests only). */
export function rawFrom(
  edges: Array<[number, number] | [number, number, number]>,
  opts: { directed?: boolean; vertices?: number[]; weighted?: boolean } = {},
): RawEdges {
  const src = new U32List();
  const dst = new U32List();
  const weights = opts.weighted ? new F64List() : undefined;
  for (const [s, d, w] of edges) {
    src.push(s);
    dst.push(d);
    weights?.push(w ?? 1);
  }
  let vertices: U32List | undefined;
  if (opts.vertices) {
    vertices = new U32List();
    for (const v of opts.vertices) vertices.push(v);
  }
  return { src, dst, weights, vertices, directed: opts.directed ?? true, weightType: weights ? 'float64' : undefined, source: 'test' };
}
