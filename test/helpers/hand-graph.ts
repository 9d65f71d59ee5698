/**
 * A hand-made graph (original ids) for the undirected-view programs: a 5-clique given one way
 * with two edges also given back, a chain hanging off it, a triangle with a reciprocal edge, a
 * self-loop, isolated vertices; 3-edge pages, so the clique's lists span split pages.
 */
import { buildGraph } from '../../src/graph/build.js';
import { rawFrom } from './raw.js';

export const CLIQUE = [10, 20, 30, 40, 50];
export const CHAIN = [100, 101, 102, 103, 104, 105];
export const TRIANGLE = [200, 201, 202];
export const HAND_EDGES: Array<[number, number]> = [
  ...CLIQUE.flatMap((a, i) => CLIQUE.slice(i + 1).map((b): [number, number] => [a, b])),
  [20, 10], [30, 10],
  [50, 100], [100, 101], [101, 102], [102, 103], [103, 104], [104, 105],
  [200, 201], [201, 202], [202, 200], [202, 201],
  [300, 300], [300, 301],
];
export const HAND_VERTICES = [0, 7, 999];
export const hand = buildGraph(rawFrom(HAND_EDGES, { vertices: HAND_VERTICES }), { pageEdges: 3 });
