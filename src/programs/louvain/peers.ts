/** Louvain in the benchmark's peers: graphology-communities-louvain on the undirected view. */
import { createRequire } from 'node:module';
import type { ProgramPeers } from '../../engine/define.js';

// graphology ships CommonJS and is the harness's optional peer: loaded only when it runs.
const require = createRequire(import.meta.url);

interface G {
  type: string;
  order: number;
  forEachNode(fn: (k: string) => void): void;
  forEachEdge(fn: (e: string, a: { weight?: number }, s: string, t: string) => void): void;
  addNode(k: string): void;
  hasEdge(a: string, b: string): boolean;
  getEdgeAttribute(a: string, b: string, k: string): number;
  setEdgeAttribute(a: string, b: string, k: string, v: number): void;
  addUndirectedEdge(a: string, b: string, attr?: object): void;
}

/** The undirected view of index.ts (the smaller weight where both arcs exist), built untimed. */
function undirected(D: G): G {
  if (D.type === 'undirected') return D;
  const Graph = require('graphology') as new (o: object) => G;
  const U = new Graph({ type: 'undirected', multi: false, allowSelfLoops: false });
  D.forEachNode((k) => U.addNode(k));
  D.forEachEdge((_e, a, s, t) => {
    if (!U.hasEdge(s, t)) U.addUndirectedEdge(s, t, a.weight === undefined ? undefined : { weight: a.weight });
    else if (a.weight !== undefined && a.weight < U.getEdgeAttribute(s, t, 'weight')) U.setEdgeAttribute(s, t, 'weight', a.weight);
  });
  return U;
}

export const peers: ProgramPeers = {
  graphology: {
    what: 'graphology-communities-louvain (undirected view; random walk, fast local moves)',
    run(D, _source, p) {
      const louvain = require('graphology-communities-louvain') as { detailed(g: unknown, o: object): { modularity: number } };
      const U = undirected(D as G);
      return () => ({ modularity: louvain.detailed(U, { resolution: (p.resolution as number | undefined) ?? 1 }).modularity });
    },
  },
};
