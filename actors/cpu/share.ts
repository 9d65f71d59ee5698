/**
 * The graph as shared memory: what a load frame names (page buffers + metadata) and how a worker
 * turns it back into pages without copying. A graph read from disk page by page (store.ts) names
 * its file, its resident offsets and, per socket actor, that actor's arena instead of page buffers.
 */
import { pageOver } from '../../src/graph/pages.js';
import type { PageSource, PageStore } from '../../src/graph/store.js';
import type { Graph, PageSet } from '../../src/graph/types.js';
import type { KernelGraph } from '../../src/engine/kernel.js';
import type { LoadFrame, PageRef } from '../../src/wire/frames.js';

/** Bytes of one SharedArrayBuffer of a socket actor's arena (arena.ts): larger arenas take several, no buffer near Node's 4 GiB limits. */
export const ARENA_CHUNK = 1 << 30;

// The page store's module (disk reads, .tsr checks: ~50 ms of a thread's imports on the 2-core
// box) loads only for a graph read from disk (loadStoreFor, before materializeGraph).
let stores: typeof import('../../src/graph/store.js') | undefined;

/** Imports what materializeGraph needs for `share`: the page store's module where its pages are read from disk. */
export async function loadStoreFor(share: GraphShare): Promise<void> {
  if (share.load.store !== undefined) stores ??= await import('../../src/graph/store.js');
}

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
  // Pages sharing a buffer (a .tsr's read batches) name it once.
  const pageBuffers = new Map<SharedArrayBuffer, number>();
  const addPage = (b: SharedArrayBuffer): number => {
    let i = pageBuffers.get(b);
    if (i === undefined) pageBuffers.set(b, (i = add(b)));
    return i;
  };
  const refs = (set: PageSet): PageRef[] =>
    set.pages.map((p) => ({ buffer: set.stored !== undefined ? -1 : addPage(p.buffer), ...(p.offsets.byteOffset !== 0 ? { base: p.offsets.byteOffset } : {}), vBegin: p.vBegin, vEnd: p.vEnd, edges: p.edges, split: p.split }));
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
  const so = g.out.stored;
  const si = g.in.stored;
  if (so !== undefined && si !== undefined) {
    const st = so.store;
    const offsetsOut = add(so.offsets.buffer);
    load.store = {
      file: st.file,
      source: st.source,
      cacheBytes: st.cacheBytes,
      maxBlob: st.maxBlob,
      entries: st.entries.map((e) => ({ index: e.index, vBegin: e.vBegin, vEnd: e.vEnd, split: e.split, edges: e.edges, offset: e.offset, length: e.length, checksum: e.checksum })),
      offsetsOut,
      offsetsAtOut: so.offsetsAt,
      offsetsIn: si === so ? offsetsOut : add(si.offsets.buffer),
      offsetsAtIn: si.offsetsAt,
    };
  }
  return { load, shared };
}

/** A socket actor's share: the graph's, plus an arena of `bytes` of the page store's cache. */
export function withArena(share: GraphShare, bytes: number, chunk = ARENA_CHUNK): GraphShare {
  const st = share.load.store;
  if (st === undefined) return share;
  const shared = [...share.shared];
  const where = new Int32Array(new SharedArrayBuffer(8 * st.entries.length)).fill(-1);
  shared.push(where.buffer as SharedArrayBuffer);
  const at = shared.length;
  // Equal chunks of at most `chunk` bytes (a page never spans two).
  const count = Math.ceil(bytes / chunk);
  const size = Math.floor(bytes / count / 8) * 8;
  for (let i = 0; i < count; i++) shared.push(new SharedArrayBuffer(size));
  return { load: { ...share.load, store: { ...st, where: at - 1, chunks: Array.from({ length: count }, (_, i) => at + i) } }, shared };
}

export function materializeGraph({ load, shared }: GraphShare): KernelGraph {
  const st = load.store;
  let source: PageSource | undefined;
  let store: PageStore | undefined;
  if (st !== undefined) {
    if (stores === undefined) throw new Error('materializeGraph: a graph read from disk needs loadStoreFor(share) first');
    store = { file: st.file, numVertices: load.numVertices, weightType: load.weightType, source: st.source, cacheBytes: st.cacheBytes, maxBlob: st.maxBlob, entries: st.entries };
    const arena = st.where !== undefined ? { where: new Int32Array(shared[st.where]!), chunks: st.chunks!.map((i) => shared[i]!) } : undefined;
    source = new stores.PageSource(store, stores.KEEP, arena);
  }
  const set = (orientation: 'in' | 'out', refs: PageRef[], first: number): PageSet => {
    const firstPageOf = new Uint32Array(shared[first]!);
    if (st !== undefined) {
      const out = orientation === 'out' || load.inPages === 'same';
      const offsets = new Uint32Array(shared[out ? st.offsetsOut : st.offsetsIn]!);
      return stores!.storedSet(orientation, store!, out ? 0 : load.outPages.length, refs.length, offsets, out ? st.offsetsAtOut : st.offsetsAtIn, firstPageOf, source!);
    }
    return {
      orientation,
      pages: refs.map((r, i) => pageOver(shared[r.buffer]!, i, r.vBegin, r.vEnd, r.edges, r.split, load.weightType, r.base)),
      firstPageOf,
    };
  };
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
