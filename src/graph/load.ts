/**
 * One entry point for every graph source: generator specs (rmat:S, uniform:S), .tsr files,
 * and text formats (edge list, Graphalytics, Matrix Market) built into pages.
 */
import { compactBytes } from '../format.js';
import { checkGraphFits } from './memory.js';
import { isGeneratorSpec } from './generate/spec.js';
import { pageView } from './pages.js';
import type { MaybeKeyedGraph } from '../graphology.js';
import { TesseraError } from '../errors.js';
import type { GraphDefaults } from '../engine/define.js';
import { checkBoolean, checkInteger, checkOneOf, checkOptions, checkString, describe } from './options.js';

export interface LoadOptions {
  /** Store every edge both ways. */
  undirected?: boolean;
  /** A Graphalytics-style vertex list for an edge list (isolated vertices). */
  vertices?: string;
  /** Target edges per page. */
  pageEdges?: number;
  /** Accept negative edge weights (SSSP still refuses them when it starts). */
  allowNegativeWeights?: boolean;
  /** Keep ascending original order instead of degree order (debugging). */
  renumber?: 'degree' | 'none';
  /**
   * Edge lists: vertex ids are names (strings; readers/named.ts), or integers. Default: names
   * when the first data lines' ids are not integers.
   */
  names?: boolean;
  /** Edge lists: the first data line is a header. Default: detected (readers/named.ts). */
  header?: boolean;
  /**
   * Bytes of host memory the graph's edge pages may take (hostMemoryLimit): a .tsr whose pages
   * take more is read from disk page by page (store.ts); any other input that would is refused.
   */
  hostMemoryLimit?: number;
}

export interface LoadedGraph {
  /** Read by name (a KeyedGraph) when the input's ids are names, else by original id. */
  graph: MaybeKeyedGraph;
  /**
   * Program parameters the input carries: a Graphalytics .properties file's numeric values by key
   * (`bfs.source-vertex`: 6), which programs read through their parameters' `property`.
   */
  defaults: GraphDefaults;
  loadMs: number;
  /** An edge list's header line, skipped (its fields). */
  header?: string[];
}

const LOAD_KEYS: readonly (keyof LoadOptions)[] = ['undirected', 'vertices', 'pageEdges', 'allowNegativeWeights', 'renumber', 'names', 'header', 'hostMemoryLimit'];

/** The spec a string and the options of the types LoadOptions says, every key a known one. */
function checkLoadArgs(spec: unknown, opts: unknown): LoadOptions {
  if (typeof spec !== 'string' || spec.trim() === '') {
    throw new TesseraError(`loadGraph needs a graph: a file path or a generator spec, got ${spec === '' ? 'an empty string' : describe(spec)}`, {
      fix: "pass e.g. loadGraph('edges.txt'), loadGraph('g.tsr') or loadGraph('rmat:20')",
    });
  }
  const what = 'loadGraph options';
  const o = checkOptions(opts, what, LOAD_KEYS);
  for (const k of ['undirected', 'allowNegativeWeights', 'names', 'header'] as const) checkBoolean(o, k, what);
  checkString(o, 'vertices', what, 'give the path of a vertex list file (one id per line), or leave it out');
  checkInteger(o, 'pageEdges', what, 1, 0x7fffffff, 'use e.g. 1048576, or leave it out');
  checkOneOf(o, 'renumber', what, ['degree', 'none']);
  const limit = o.hostMemoryLimit;
  if (limit !== undefined && !(typeof limit === 'number' && Number.isFinite(limit) && limit > 0)) {
    throw new TesseraError(`${what}: hostMemoryLimit must be a number of bytes > 0, got ${describe(limit)}`, {
      key: 'hostMemoryLimit',
      fix: 'give bytes, e.g. 8 * 2 ** 30 for 8 GiB (sizes such as 8GiB are for --host-memory and a topology file)',
    });
  }
  return o as LoadOptions;
}

export async function loadGraph(spec: string, opts: LoadOptions = {}): Promise<LoadedGraph> {
  opts = checkLoadArgs(spec, opts);
  const r = await loadAny(spec, opts);
  const limit = opts.hostMemoryLimit;
  if (limit !== undefined && r.graph.out.stored === undefined) {
    let b = 0;
    for (const p of r.graph.out.pages) b += pageView(p).byteLength;
    if (r.graph.in !== r.graph.out) for (const p of r.graph.in.pages) b += pageView(p).byteLength;
    if (b > limit)
      throw new TesseraError(`its pages take ${compactBytes(b)}, more than hostMemoryLimit ${compactBytes(limit)}, and only a .tsr is read from disk page by page`, {
        file: spec,
        key: 'hostMemoryLimit',
        fix: `convert it once (tessera convert ${spec} --out G.tsr) and run on G.tsr, or raise the limit`,
      });
  }
  return r;
}

// Each kind of input imports its readers when it is read: a .tsr's read starts without the text
// parsers, the builder, the generators and Arrow (~30 ms of imports on the 2-core box), and
// `tessera run` imports the engine while it goes on.
async function loadAny(spec: string, opts: LoadOptions): Promise<LoadedGraph> {
  const t0 = performance.now();
  const build = { pageEdges: opts.pageEdges, renumber: opts.renumber, ...(opts.undirected ? { directed: false } : {}) };
  if (isGeneratorSpec(spec)) {
    if (opts.vertices !== undefined) throw notFor(spec, '--vertices', 'a generated graph has every id below 2^scale as a vertex', 'drop --vertices');
    refuseTextOptions(spec, opts, 'a generated graph has integer ids and no header');
    const [{ createGenerator, generateEdges }, { buildGraph }] = await Promise.all([import('./generate/index.js'), import('./build.js')]);
    const g = createGenerator(spec);
    checkGraphFits(g.numVertices, g.numEdges, { what: `generator spec ${spec}`, says: `makes ${g.numVertices} vertices and ${g.numEdges} edges` });
    const graph = buildGraph(generateEdges(spec), build);
    return { graph, defaults: {}, loadMs: performance.now() - t0 };
  }
  if (spec.endsWith('.tsr')) {
    if (opts.vertices !== undefined) throw notFor(spec, '--vertices', 'a .tsr holds its vertices already', 'drop --vertices, or convert the edge list with it again');
    refuseTextOptions(spec, opts, 'a .tsr stores integer ids only and has no header');
    if (opts.renumber !== undefined) throw notFor(spec, 'renumber', 'the vertices of a .tsr were numbered when it was converted', 'drop renumber, or load the source graph (the text file or generator spec) with it');
    const limit = opts.hostMemoryLimit;
    const [{ readTsr, readTsrHeader }, { openStoredTsr, pageBytesOf }] = await Promise.all([import('./tsr.js'), import('./store.js')]);
    const graph = limit !== undefined && pageBytesOf(await readTsrHeader(spec)) > limit ? await openStoredTsr(spec, limit) : await readTsr(spec);
    // A .tsr's pages are stored: options that shape them cannot apply; refuse rather than ignore.
    if (opts.undirected && graph.directed) throw notFor(spec, '--undirected', 'this .tsr is stored directed', 'convert the source graph again with --undirected (tessera convert FILE --undirected --out G.tsr), or drop --undirected');
    if (opts.pageEdges !== undefined && opts.pageEdges !== graph.pageEdges)
      throw notFor(spec, '--page-edges', `this .tsr is stored with ${graph.pageEdges}-edge pages`, 'drop --page-edges, or convert the source graph again with it');
    return { graph, defaults: {}, loadMs: performance.now() - t0 };
  }
  const [{ buildGraph }, { isArrowFile, readArrowEdges }, { withKeys }, { detectFormat, readGraphFile }, { readNamedEdgeList, sniffEdgeList }] = await Promise.all([
    import('./build.js'),
    import('./arrow.js'),
    import('./keys.js'),
    import('./readers/index.js'),
    import('./readers/named.js'),
  ]);
  if (isArrowFile(spec)) {
    if (opts.vertices !== undefined) throw notFor(spec, '--vertices', 'an Arrow table lists edges only', 'drop --vertices');
    if (opts.header === true) throw notFor(spec, '--header', 'an Arrow table has named columns, no header line', 'drop --header');
    const r = await readArrowEdges(spec, { directed: opts.undirected ? false : undefined, allowNegativeWeights: opts.allowNegativeWeights });
    // The id columns' type says whether the ids are names: a names option that disagrees is refused.
    if (opts.names !== undefined && opts.names !== (r.keys !== undefined))
      throw notFor(spec, opts.names ? '--names' : '--no-names', `the table's id columns hold ${r.keys !== undefined ? 'strings (names)' : 'integers'}`, 'drop the names option');
    const built = buildGraph(r.raw, build);
    return { graph: r.keys === undefined ? built : withKeys(built, r.keys), defaults: {}, loadMs: performance.now() - t0 };
  }
  const format = await detectFormat(spec);
  if (format !== 'edgelist') refuseTextOptions(spec, opts, `a ${format === 'matrixmarket' ? 'Matrix Market' : 'Graphalytics'} graph has integer ids and no header line`);
  if (format === 'edgelist') {
    const sniffed = await sniffEdgeList(spec);
    const names = opts.names ?? sniffed.names;
    const header = opts.header ?? sniffed.header;
    if (names || header) {
      if (opts.vertices !== undefined) throw notFor(spec, '--vertices', names ? 'its vertices are names, each on an edge' : 'it has a header line', 'drop --vertices');
      const r = await readNamedEdgeList(spec, { delimiter: sniffed.delimiter, header, names, directed: opts.undirected ? false : undefined, allowNegativeWeights: opts.allowNegativeWeights });
      const built = buildGraph(r.raw, build);
      const graph = r.keys === undefined ? built : withKeys(built, r.keys);
      return { graph, defaults: {}, loadMs: performance.now() - t0, ...(r.header !== undefined ? { header: r.header } : {}) };
    }
  }
  const { raw, properties } = await readGraphFile(spec, {
    directed: opts.undirected ? false : undefined,
    vertices: opts.vertices,
    allowNegativeWeights: opts.allowNegativeWeights,
  });
  const graph = buildGraph(raw, build);
  // The reader has checked the keys it knows (bfs.source-vertex, pr.damping-factor...).
  const defaults: Record<string, number> = {};
  for (const [k, v] of Object.entries(properties?.values ?? {})) {
    const x = v.trim() === '' ? NaN : Number(v);
    if (Number.isFinite(x)) defaults[k] = x;
  }
  return { graph, defaults, loadMs: performance.now() - t0 };
}

/** names / header: they apply to edge lists only (false, true of every other source, passes). */
function refuseTextOptions(spec: string, opts: LoadOptions, why: string): void {
  if (opts.names === true) throw notFor(spec, '--names', why, 'drop --names (names: true)');
  if (opts.header === true) throw notFor(spec, '--header', why, 'drop --header (header: true)');
}

/** An option that cannot apply to this kind of graph source: refused, never ignored. */
function notFor(file: string, key: string, why: string, fix: string): TesseraError {
  return new TesseraError(`${key} does not apply here: ${why}`, { file, key, fix });
}
