/**
 * Core graph types. A graph is a set of pages (DESIGN.md "Data"): a page holds a contiguous
 * range of internal vertex ids and all of their in-edges or out-edges as CSR (page-local
 * offsets + neighbour ids + optional weights), in one SharedArrayBuffer so that CPU threads read
 * it without copies and a GPU controller or a .tsr file can move it as one blob.
 */

/** Internal vertex ids are dense 0..n-1 after renumbering; original ids are uint32 (<= 2^32-2). */
export const MAX_ORIGINAL_ID = 0xfffffffe;

export type WeightType = 'float32' | 'float64';
export type Orientation = 'out' | 'in';
export type WeightArray = Float32Array | Float64Array;

export interface Page {
  /** Position of this page in its PageSet. */
  readonly index: number;
  /** First internal vertex id held by the page. */
  readonly vBegin: number;
  /** One past the last internal vertex id held by the page. */
  readonly vEnd: number;
  /**
   * True when the page holds only part of one vertex's edge list (a vertex with more edges than
   * the page target spans several consecutive pages, vEnd = vBegin + 1 in each). Kernels combine
   * the partial results of such pages with the program's reduce.
   */
  readonly split: boolean;
  /** Number of edges in the page. */
  readonly edges: number;
  /** Page-local CSR offsets, length vEnd - vBegin + 1, offsets[0] = 0, offsets[last] = edges. */
  readonly offsets: Uint32Array;
  /** Neighbour internal ids (sources for 'in' pages, targets for 'out' pages), sorted per vertex. */
  readonly nbrs: Uint32Array;
  /** Edge weights parallel to nbrs, when the graph is weighted. */
  readonly weights?: WeightArray;
  /**
   * The buffer the three arrays above live in (offsets | nbrs | weights, 8-byte aligned, from
   * offsets.byteOffset): the page's own, or one several pages share (pages.ts pageView).
   */
  readonly buffer: SharedArrayBuffer;
}

export interface PageSet {
  readonly orientation: Orientation;
  readonly pages: Page[];
  /** Index of the first page that holds each vertex (length n). */
  readonly firstPageOf: Uint32Array;
  /**
   * Pages read from a .tsr on demand (store.ts): their offsets are resident, their edges are read
   * when a kernel asks. Kernels holding raw pointers to page memory (native page sets) must not
   * run over such a set.
   */
  readonly stored?: import('./store.js').StoredSet;
}

export interface IdMap {
  /** internal id -> original id (length n). */
  readonly toOriginal: Uint32Array;
  /** Internal ids listed in ascending order of their original ids (length n): output order. */
  readonly byOriginal: Uint32Array;
}

export interface Graph {
  readonly numVertices: number;
  /** Stored arcs per orientation (an undirected input edge counts twice, a self-loop once). */
  readonly numEdges: number;
  readonly directed: boolean;
  readonly weightType?: WeightType;
  /** Out-edge pages (push). */
  readonly out: PageSet;
  /** In-edge pages (pull). For undirected graphs this is the same object as `out`. */
  readonly in: PageSet;
  /** Out-degree per internal vertex (SharedArrayBuffer-backed). */
  readonly outDegree: Uint32Array;
  /** In-degree per internal vertex (SharedArrayBuffer-backed); same array as outDegree when undirected. */
  readonly inDegree: Uint32Array;
  readonly ids: IdMap;
  /** Target edges per page the graph was built with. */
  readonly pageEdges: number;
  /** Where the graph came from (file path, generator spec), for reports. */
  readonly source: string;
}

/** Default page target: 2^20 edges (4 MiB of neighbour ids), small enough to stream and steal. */
export const DEFAULT_PAGE_EDGES = 1 << 20;

/**
 * Edges as a reader or generator produced them, in original ids, before renumbering and page
 * building (see build.ts). Chunked so that reading never copies on growth.
 */
export interface RawEdges {
  src: import('./chunked.js').U32List;
  dst: import('./chunked.js').U32List;
  weights?: import('./chunked.js').WeightList;
  /** Explicit vertex ids (Graphalytics .v): these vertices exist even without edges. */
  vertices?: import('./chunked.js').U32List;
  /** Whether the input's edges are directed (undirected: each edge is stored both ways). */
  directed: boolean;
  weightType?: WeightType;
  /** File path or generator spec, for reports and errors. */
  source: string;
  /**
   * The largest id in src, dst and vertices, where the producer knows it and vouches that the
   * weights hold no NaN (a generator: every id below 2^scale is a listed vertex): the builder then
   * skips its scan of the lists (a pass over every edge).
   */
  maxId?: number;
}
