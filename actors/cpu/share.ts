/**
 * The graph as shared memory: what a load frame names (page buffers + metadata) and how a worker
 * turns it back into pages without copying.
 */
import { pageOver } from '../../src/graph/pages.js';
import type { Graph, PageSet } from '../../src/graph/types.js';
import type { KernelGraph } from '../../src/engine/kernel.js';
import type { LoadFrame, PageRef } from '../../src/wire/frames.js';

export interface GraphShare {
  load: LoadFrame;
  shared: SharedArrayBuffer[];
}

/** Builds the load frame and its side table of shared buffers for a graph. */
export function shareGraph(g: Graph, graphId: number): GraphShare {
  const shared: SharedArrayBuffer[] = [];
  const add = (b: ArrayBufferLike): number => {
    if (!(b instanceof SharedArrayBuffer)) throw new Error('graph arrays must live in SharedArrayBuffers');
    shared.push(b);
    return shared.length - 1;
  };
  const refs = (set: PageSet): PageRef[] =>
    set.pages.map((p) => ({ buffer: add(p.buffer), vBegin: p.vBegin, vEnd: p.vEnd, edges: p.edges, split: p.split }));
  const outPages = refs(g.out);
  const inPages = g.in === g.out ? 'same' : refs(g.in);
  const load: LoadFrame = {
    type: 'load',
    graphId,
    numVertices: g.numVertices,
    numEdges: g.numEdges,
    directed: g.directed,
    outPages,
    inPages,
    firstPageOut: add(g.out.firstPageOf.buffer),
    firstPageIn: add(g.in.firstPageOf.buffer),
    outDegree: add(g.outDegree.buffer),
    inDegree: add(g.inDegree.buffer),
    weightType: g.weightType,
    pageEdges: g.pageEdges,
  };
  return { load, shared };
}

export function materializeGraph({ load, shared }: GraphShare): KernelGraph {
  const set = (orientation: 'in' | 'out', refs: PageRef[], first: number): PageSet => ({
    orientation,
    pages: refs.map((r, i) => pageOver(shared[r.buffer]!, i, r.vBegin, r.vEnd, r.edges, r.split, load.weightType)),
    firstPageOf: new Uint32Array(shared[first]!),
  });
  const out = set('out', load.outPages, load.firstPageOut);
  const inSet = load.inPages === 'same' ? out : set('in', load.inPages, load.firstPageIn);
  return {
    numVertices: load.numVertices,
    numEdges: load.numEdges,
    directed: load.directed,
    out,
    in: inSet,
    outDegree: new Uint32Array(shared[load.outDegree]!),
    inDegree: new Uint32Array(shared[load.inDegree]!),
    pageEdges: load.pageEdges,
  };
}
