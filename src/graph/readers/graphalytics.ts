/**
 * LDBC Graphalytics graphs (EVLP): `<name>.v` (one vertex id per line), `<name>.e`
 * (`src dst [property ...]`) and an optional `<name>.properties` (Java properties, keys
 * `graph.<name>.*`) carrying directedness, expected counts, edge property names and the
 * algorithm parameters. Vertex ids need not be contiguous; every vertex of `.v` is kept (isolated
 * ones included) and every edge endpoint must be one of them.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { checkGraphFits, checkTextFits } from '../memory.js';
import { TesseraError } from '../../errors.js';
import type { RawEdges } from '../types.js';
import { EdgeParser, emptyError, readVertexFile, type EdgeListOptions, type EdgeParserConfig } from './edgelist.js';
import { fsError, readLineBlocks, readLines } from './lines.js';
import { checkVertexList, type IdSet } from './vertex-list.js';

// The bounded-memory build (build/external-formats.ts) checks the .v file as the edges pass.
export { foreignError, foreignIn, idSet, uniqueVertices, type IdSet } from './vertex-list.js';

export type GraphalyticsOptions = Pick<EdgeListOptions, 'directed' | 'weighted' | 'weightType' | 'allowNegativeWeights' | 'onProgress'>;

/** The parsed `.properties` file (prefix `graph.<name>.` removed), with typed parameters. */
export interface GraphalyticsProperties {
  /** Graph name (the `<name>` of the key prefix, else the file base name). */
  name: string;
  /** The files used. */
  propertiesFile?: string;
  vertexFile: string;
  edgeFile: string;
  directed?: boolean;
  metaVertices?: number;
  metaEdges?: number;
  /** `edge-properties.names` / `.types` (empty when absent). */
  edgePropertyNames: string[];
  edgePropertyTypes: string[];
  /** `algorithms`, lower-cased (absent when not listed). */
  algorithms?: string[];
  bfsSourceVertex?: number;
  cdlpMaxIterations?: number;
  prDampingFactor?: number;
  prNumIterations?: number;
  ssspWeightProperty?: string;
  ssspSourceVertex?: number;
  /** Every key of the graph (prefix removed) and its value as written. */
  values: Record<string, string>;
}

export interface GraphalyticsResult {
  raw: RawEdges;
  properties: GraphalyticsProperties;
}

const EXTS = ['.properties', '.e', '.v'];

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

/** Strips `.gz` and a Graphalytics extension: "/d/g.e.gz" -> "/d/g". undefined when none. */
export function graphalyticsBase(file: string): string | undefined {
  let f = file;
  if (f.toLowerCase().endsWith('.gz')) f = f.slice(0, -3);
  for (const x of EXTS) if (f.endsWith(x)) return f.slice(0, -x.length);
  return undefined;
}

/** Whether a directory holds a Graphalytics graph (some .properties or .e file). */
export async function isGraphalyticsDir(dir: string): Promise<boolean> {
  try {
    const names = await readdir(dir);
    return names.some((n) => /\.(properties|e|e\.gz)$/.test(n));
  } catch {
    return false;
  }
}

async function firstExisting(...candidates: string[]): Promise<string | undefined> {
  for (const c of candidates) if (await exists(c)) return c;
  return undefined;
}

interface Located {
  base: string;
  propertiesFile?: string;
  /** A .e / .v file named explicitly by the caller. */
  edgeFile?: string;
  vertexFile?: string;
}

async function locate(p: string): Promise<Located> {
  let st;
  try {
    st = await stat(p);
  } catch (e) {
    throw fsError(e, p, 'Graphalytics graph');
  }
  if (st.isDirectory()) {
    const names = await readdir(p);
    const own = path.basename(path.resolve(p));
    const bases = new Set<string>();
    for (const n of names) {
      const b = graphalyticsBase(n);
      if (b !== undefined && (n.endsWith('.properties') || /\.e(\.gz)?$/.test(n))) bases.add(b);
    }
    let base: string;
    if (bases.has(own)) base = own;
    else if (bases.size === 1) base = [...bases][0]!;
    else if (bases.size === 0) {
      throw new TesseraError('no Graphalytics graph here (no .properties or .e file)', {
        file: p,
        fix: 'give a directory holding <name>.v, <name>.e and <name>.properties, or the path of a graph file',
      });
    } else {
      throw new TesseraError(`several graphs in this directory (${[...bases].sort().join(', ')})`, {
        file: p,
        fix: 'give the path of one graph\'s .properties or .e file',
      });
    }
    const b = path.join(p, base);
    return { base: b, propertiesFile: await firstExisting(`${b}.properties`) };
  }
  const base = graphalyticsBase(p);
  if (base === undefined) {
    throw new TesseraError('not a Graphalytics file (expected .e, .v or .properties)', { file: p, fix: 'give the .e, .v or .properties file, or the directory' });
  }
  const plain = p.toLowerCase().endsWith('.gz') ? p.slice(0, -3) : p;
  const loc: Located = { base };
  if (plain.endsWith('.properties')) loc.propertiesFile = p;
  else loc.propertiesFile = await firstExisting(`${base}.properties`);
  if (plain.endsWith('.e')) loc.edgeFile = p;
  if (plain.endsWith('.v')) loc.vertexFile = p;
  return loc;
}

// ---------------------------------------------------------------------------------------------
// .properties

interface PropEntry {
  value: string;
  line: number;
}

/** Java-properties syntax: comments (# !), `key = value`, `key: value`, `key value`, continuations. */
export async function parseJavaProperties(file: string): Promise<Map<string, PropEntry>> {
  const out = new Map<string, PropEntry>();
  let pending = '';
  let pendingLine = 0;
  await readLines(file, (text, lineNo) => {
    let s = text.replace(/^[ \t\f]+/, '');
    if (pending === '' && (s === '' || s.startsWith('#') || s.startsWith('!'))) return;
    const m = /(\\*)$/.exec(s)!;
    const continued = m[1]!.length % 2 === 1;
    if (continued) s = s.slice(0, -1);
    if (pending === '') pendingLine = lineNo;
    pending += s;
    if (continued) return;
    const logical = pending;
    pending = '';
    // key ends at the first unescaped '=', ':' or white space
    let k = 0;
    let key = '';
    while (k < logical.length) {
      const c = logical[k]!;
      if (c === '\\' && k + 1 < logical.length) {
        key += unescape(logical[k + 1]!);
        k += 2;
        continue;
      }
      if (c === '=' || c === ':' || c === ' ' || c === '\t' || c === '\f') break;
      key += c;
      k++;
    }
    let rest = logical.slice(k).replace(/^[ \t\f]*/, '');
    if (rest.startsWith('=') || rest.startsWith(':')) rest = rest.slice(1).replace(/^[ \t\f]*/, '');
    const value = rest.replace(/\\(.)/g, (_, c: string) => unescape(c)).trimEnd();
    out.set(key, { value, line: pendingLine });
  });
  if (pending !== '') out.set(pending, { value: '', line: pendingLine });
  return out;
}

function unescape(c: string): string {
  return c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c === 'f' ? '\f' : c;
}

function graphName(props: Map<string, PropEntry>, base: string): string {
  const own = path.basename(base);
  for (const k of props.keys()) if (k.startsWith(`graph.${own}.`)) return own;
  const names = new Set<string>();
  for (const k of props.keys()) {
    const m = /^graph\.(.+)\.(directed|vertex-file|edge-file|meta\.vertices|meta\.edges)$/.exec(k);
    if (m) names.add(m[1]!);
  }
  return names.size === 1 ? [...names][0]! : own;
}

function typedProperties(file: string, props: Map<string, PropEntry>, name: string): Omit<GraphalyticsProperties, 'vertexFile' | 'edgeFile'> & { lines: Record<string, number> } {
  const prefix = `graph.${name}.`;
  const values: Record<string, string> = {};
  const lines: Record<string, number> = {};
  for (const [k, v] of props) {
    if (k.startsWith(prefix)) {
      values[k.slice(prefix.length)] = v.value;
      lines[k.slice(prefix.length)] = v.line;
    }
  }
  const bad = (key: string, what: string): never => {
    throw new TesseraError(`'${values[key]}' is not ${what}`, { file, line: lines[key], key: prefix + key, fix: `set ${prefix}${key} to ${what}` });
  };
  const int = (key: string, min = 0): number | undefined => {
    const v = values[key];
    if (v === undefined) return undefined;
    if (!/^\d+$/.test(v) || !Number.isSafeInteger(Number(v)) || Number(v) < min) bad(key, min > 0 ? `an integer >= ${min}` : 'a non-negative integer');
    return Number(v);
  };
  const list = (key: string): string[] | undefined => {
    const v = values[key];
    if (v === undefined) return undefined;
    return v.split(',').map((s) => s.trim()).filter((s) => s !== '');
  };
  const p: Omit<GraphalyticsProperties, 'vertexFile' | 'edgeFile'> & { lines: Record<string, number> } = {
    name,
    propertiesFile: file,
    edgePropertyNames: list('edge-properties.names') ?? [],
    edgePropertyTypes: (list('edge-properties.types') ?? []).map((s) => s.toLowerCase()),
    values,
    lines,
  };
  const d = values['directed'];
  if (d !== undefined) {
    const t = d.toLowerCase();
    if (t !== 'true' && t !== 'false') bad('directed', "'true' or 'false'");
    p.directed = t === 'true';
  }
  p.metaVertices = int('meta.vertices');
  p.metaEdges = int('meta.edges');
  const algos = list('algorithms');
  if (algos) p.algorithms = algos.map((a) => a.toLowerCase());
  p.bfsSourceVertex = int('bfs.source-vertex');
  p.cdlpMaxIterations = int('cdlp.max-iterations', 1);
  const df = values['pr.damping-factor'];
  if (df !== undefined) {
    const x = Number(df);
    if (df.trim() === '' || !Number.isFinite(x) || x < 0 || x > 1) bad('pr.damping-factor', 'a number between 0 and 1');
    p.prDampingFactor = x;
  }
  p.prNumIterations = int('pr.num-iterations', 1);
  if (values['sssp.weight-property'] !== undefined) p.ssspWeightProperty = values['sssp.weight-property'];
  p.ssspSourceVertex = int('sssp.source-vertex');
  for (const k of Object.keys(p) as (keyof typeof p)[]) if (p[k] === undefined) delete p[k];
  if (p.edgePropertyTypes.length > 0 && p.edgePropertyTypes.length !== p.edgePropertyNames.length) {
    throw new TesseraError(
      `edge-properties.names lists ${p.edgePropertyNames.length} properties but edge-properties.types lists ${p.edgePropertyTypes.length}`,
      { file, line: lines['edge-properties.types'], key: `${prefix}edge-properties.types`, fix: 'give one type per property name' },
    );
  }
  return p;
}

type Props = Omit<GraphalyticsProperties, 'vertexFile' | 'edgeFile'> & { lines: Record<string, number> };

/**
 * A Graphalytics graph located and its .properties read, before its vertices and edges are:
 * what readGraphalytics and the bounded-memory stream (build/external-formats.ts) share.
 */
export interface GraphalyticsInput {
  propertiesFile?: string;
  base: string;
  props?: Props;
  edgeFile: string;
  vertexFile: string;
  /** The edge parser's configuration (a fresh parser per read). */
  parser: EdgeParserConfig;
  /** Whether the .v file may carry vertex properties after the id. */
  vertexColumns: boolean;
}

/** Locates the graph's files and reads its .properties (see readGraphalytics for `p`). */
export async function graphalyticsInput(p: string, opts: GraphalyticsOptions = {}): Promise<GraphalyticsInput> {
  const loc = await locate(p);
  let props: Props | undefined;
  if (loc.propertiesFile !== undefined) {
    const map = await parseJavaProperties(loc.propertiesFile);
    props = typedProperties(loc.propertiesFile, map, graphName(map, loc.base));
  }
  const named = (key: 'vertex-file' | 'edge-file'): string | undefined => {
    const v = props?.values[key];
    if (v === undefined || v === '') return undefined;
    const dir = path.dirname(path.resolve(loc.propertiesFile!));
    const file = path.resolve(dir, v);
    // A dataset's files live in its folder: a .properties naming a file elsewhere (../../etc/...)
    // is refused, so nothing outside the folder the user named is read or echoed in an error.
    const rel = path.relative(dir, file);
    if (rel.startsWith('..') || path.isAbsolute(rel)) {
      throw new TesseraError(`${key} names a file outside the dataset's folder (${v})`, {
        file: loc.propertiesFile,
        line: props!.lines[key],
        key: `graph.${props!.name}.${key}`,
        fix: `name a file in ${dir}, or give that file itself on the command line`,
      });
    }
    return file;
  };
  const edgeFile =
    loc.edgeFile ?? (await firstExisting(...[named('edge-file')].filter((x): x is string => x !== undefined), `${loc.base}.e`, `${loc.base}.e.gz`));
  const vertexFile = await firstExisting(
    ...[loc.vertexFile, named('vertex-file')].filter((x): x is string => x !== undefined),
    `${loc.base}.v`,
    `${loc.base}.v.gz`,
  );
  if (edgeFile === undefined) {
    throw new TesseraError('edge file not found', {
      file: named('edge-file') ?? `${loc.base}.e`,
      fix: 'a Graphalytics graph needs <name>.e beside <name>.v and <name>.properties',
    });
  }
  if (vertexFile === undefined) {
    throw new TesseraError('vertex file not found', {
      file: named('vertex-file') ?? `${loc.base}.v`,
      fix: 'a Graphalytics graph needs <name>.v (one vertex id per line) beside <name>.e',
    });
  }
  if (path.resolve(edgeFile) === path.resolve(vertexFile)) {
    throw new TesseraError('the edge file and the vertex file are the same file', {
      file: loc.propertiesFile ?? edgeFile,
      fix: 'edge-file must name the .e file and vertex-file the .v file',
    });
  }

  // Edge columns: src dst then the declared edge properties; the weight is sssp.weight-property
  // (or 'weight', or the only property).
  const names = props?.edgePropertyNames;
  let weightCol = -1;
  if (names !== undefined && names.length > 0 && opts.weighted !== false) {
    const want = props!.ssspWeightProperty;
    weightCol = names.indexOf(want ?? 'weight');
    if (weightCol < 0 && want === undefined) weightCol = 0;
    if (weightCol < 0) {
      throw new TesseraError(`sssp.weight-property '${want}' is not one of the edge properties (${names.join(', ')})`, {
        file: loc.propertiesFile,
        line: props!.lines['sssp.weight-property'],
        key: `graph.${props!.name}.sssp.weight-property`,
        fix: 'name one of edge-properties.names',
      });
    }
  }
  if (opts.weighted === true && names !== undefined && weightCol < 0) {
    throw new TesseraError('weighted: true, but the graph declares no edge properties (edge-properties.names)', {
      file: loc.propertiesFile,
      fix: 'read it unweighted, or declare the weight column in the .properties file',
    });
  }
  // With a properties file the columns are known; without one, a third column means a weight.
  const declared = names !== undefined;
  const layout = names && names.length > 0 ? `src dst ${names.join(' ')}` : declared ? 'src dst' : 'src dst [weight]';
  const parser: EdgeParserConfig =
    declared || opts.weighted === true || opts.weighted === false
      ? {
          file: edgeFile,
          extra: declared ? names!.length : opts.weighted === true ? 1 : 0,
          maxExtra: declared ? undefined : 1,
          weightCol: declared ? weightCol : opts.weighted === true ? 0 : -1,
          weightType: opts.weightType,
          allowNegativeWeights: opts.allowNegativeWeights,
          layout,
        }
      : { file: edgeFile, extra: 'auto', weightType: opts.weightType, allowNegativeWeights: opts.allowNegativeWeights, layout };
  return {
    propertiesFile: loc.propertiesFile,
    base: loc.base,
    props,
    edgeFile,
    vertexFile,
    parser,
    vertexColumns: props?.values['vertex-properties.names'] !== undefined,
  };
}

/** The counts the .properties declares, or the edge file's size, against memory before reading. */
export async function checkGraphalyticsFits(g: GraphalyticsInput): Promise<void> {
  const props = g.props;
  if (props?.metaVertices !== undefined && props.metaEdges !== undefined)
    checkGraphFits(props.metaVertices, props.metaEdges, { file: g.propertiesFile, line: props.lines['meta.vertices'], what: `graph.${props.name}.meta.vertices/meta.edges` });
  else await checkTextFits(g.edgeFile);
}

/** The counts the .properties announces against those read, and its source vertices against the .v file. */
export function checkAnnounced(g: GraphalyticsInput, vertices: number, edges: number, set: IdSet): void {
  const props = g.props;
  if (props === undefined) return;
  const prefix = `graph.${props.name}.`;
  if (props.metaVertices !== undefined && props.metaVertices !== vertices) {
    throw new TesseraError(`meta.vertices = ${props.metaVertices} but ${path.basename(g.vertexFile)} lists ${vertices} vertices`, {
      file: g.propertiesFile,
      line: props.lines['meta.vertices'],
      key: `${prefix}meta.vertices`,
      fix: 'the vertex file looks incomplete: re-download the graph (or correct meta.vertices)',
    });
  }
  if (props.metaEdges !== undefined && props.metaEdges !== edges) {
    throw new TesseraError(`meta.edges = ${props.metaEdges} but ${path.basename(g.edgeFile)} has ${edges} edges`, {
      file: g.propertiesFile,
      line: props.lines['meta.edges'],
      key: `${prefix}meta.edges`,
      fix: 'the edge file looks incomplete: re-download the graph (or correct meta.edges)',
    });
  }
  for (const key of ['bfs.source-vertex', 'sssp.source-vertex'] as const) {
    const v = key === 'bfs.source-vertex' ? props.bfsSourceVertex : props.ssspSourceVertex;
    if (v !== undefined && !set.has(v)) {
      throw new TesseraError(`${key} ${v} is not a vertex of the graph`, {
        file: g.propertiesFile,
        line: props.lines[key],
        key: prefix + key,
        fix: 'name a vertex listed in the .v file',
      });
    }
  }
}

/** The graph's directedness: the .properties', unless overridden; refuses reading an undirected graph as directed. */
export function graphalyticsDirected(g: GraphalyticsInput, directed: boolean | undefined): boolean {
  const fileDirected = g.props?.directed;
  if (fileDirected === false && directed === true) {
    throw new TesseraError('the graph is undirected; reading it as directed would keep one direction of each edge', {
      file: g.propertiesFile,
      fix: 'drop the directed option',
    });
  }
  return directed === false ? false : (fileDirected ?? directed ?? true);
}

/**
 * Reads a Graphalytics graph. `p` may be the `.e`, the `.v`, the `.properties` file or the
 * directory holding them (files may be gzipped: `.e.gz`, `.v.gz`).
 */
export async function readGraphalytics(p: string, opts: GraphalyticsOptions = {}): Promise<GraphalyticsResult> {
  const g = await graphalyticsInput(p, opts);
  const parser = new EdgeParser(g.parser);
  await checkGraphalyticsFits(g);
  const vertices = await readVertexFile(g.vertexFile, { extraColumns: g.vertexColumns });
  await readLineBlocks(g.edgeFile, parser.block, { onProgress: opts.onProgress, currentLine: () => parser.line });

  if (parser.src.length === 0 && vertices.length === 0) throw emptyError(g.edgeFile);

  // Vertex ids: unique, and every edge endpoint among them.
  const { count, set } = await checkVertexList(g, vertices, parser.src, parser.dst);
  checkAnnounced(g, count, parser.src.length, set);

  const raw: RawEdges = {
    src: parser.src,
    dst: parser.dst,
    vertices,
    directed: graphalyticsDirected(g, opts.directed),
    source: g.edgeFile,
  };
  if (parser.weights) {
    raw.weights = parser.weights;
    raw.weightType = opts.weightType ?? 'float64';
  }
  const { lines: _lines, ...rest } = g.props ?? { name: path.basename(g.base), edgePropertyNames: [], edgePropertyTypes: [], values: {}, lines: {} };
  const properties: GraphalyticsProperties = { ...rest, vertexFile: g.vertexFile, edgeFile: g.edgeFile };
  return { raw, properties };
}
