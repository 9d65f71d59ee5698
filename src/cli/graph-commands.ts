/**
 * `tessera generate`, `tessera convert` and `tessera info`: make, convert and describe graphs.
 *
 *   tessera generate rmat|uniform --scale S [--edge-factor K] [--seed N] [--weighted] --out FILE
 *       FILE.el: `src dst [w]` text lines, streamed (the edges are never all in memory)
 *       FILE.tsr: built (renumbered, paged) and written as a tessera graph file
 *   tessera convert IN --out OUT.tsr [--undirected] [--page-edges N] [--vertices FILE.v]
 *       IN: an edge list / Graphalytics / Matrix Market file, a .tsr (re-paged), or a generator spec
 *   both .tsr builds: [--host-memory SIZE] [--tmp-dir DIR]: bounded memory (build/external.ts),
 *       taken with --host-memory or when the graph's estimate exceeds this machine's memory
 *   tessera info GRAPH [--format json] [--no-verify]
 *       GRAPH: a .tsr (every page, degree array and id map is checked first, and a damaged file
 *       exits 1 naming the page; --no-verify reads only its header and degree arrays), another
 *       graph file, or a spec
 *
 * Progress bars go to stderr, only when it is a terminal. Every failure is a TesseraError.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import path from 'node:path';
import bytes from 'bytes-iec';
import type { Command } from 'commander';
import { TesseraError } from '../errors.js';
import { compact } from '../format.js';
import { buildGraph, type BuildOptions } from '../graph/build.js';
import { withTeam, type Team } from '../graph/build/team.js';
import { generatorStream } from '../graph/build/external-source.js';
import { checkGraphFits } from '../graph/memory.js';
import { F32List, F64List, U32List } from '../graph/chunked.js';
import {
  checkGeneratorSpec,
  formatGeneratorSpec,
  generateEdges,
  generateToEdgeList,
  isGeneratorSpec,
  parseGeneratorSpec,
  specEdges,
  type GeneratorKind,
  type GeneratorSpec,
} from '../graph/generate/index.js';
import { detectFormat, readGraphFile } from '../graph/readers/index.js';
import { readNamedEdgeList, sniffEdgeList, type Sniffed } from '../graph/readers/named.js';
import { isArrowFile, readArrowEdges } from '../graph/arrow.js';
import { MAX_SCALE } from '../graph/generate/spec.js';
import { isTsrFile, readTsr, readTsrArray, readTsrHeader, verifyTsr, writeTsr, type TsrHeader } from '../graph/tsr.js';
import { copyTsr } from '../graph/tsr-stream.js';
import type { Graph, PageSet, RawEdges } from '../graph/types.js';
import { choiceOption, intOption, sizeOption } from './options.js';
import { note, progressBar, type Bar } from './progress.js';
import { checkClashes, checkNotEmpty, checkOutputDir, graphInputs, type Named } from './paths.js';
import { boundedFallback, boundedNote, boundedStream, catchOf, convertBounded, convertLimit, type ConvertFlags } from './convert-bounded.js';

export type { ConvertFlags } from './convert-bounded.js';

/** A byte count in IEC units ('3.25 GiB'), by bytes-iec. */
function bytesText(b: number): string {
  return bytes.format(b, { mode: 'binary', decimalPlaces: 2, unitSeparator: ' ' }) ?? `${b} B`;
}

// ---------------------------------------------------------------------------------------------
// generate

export interface GenerateFlags {
  scale?: number;
  edgeFactor?: number;
  seed?: number;
  weighted?: boolean;
  out: string;
  pageEdges?: number;
  undirected?: boolean;
  hostMemory?: number;
  tmpDir?: string;
}

type OutKind = 'el' | 'tsr';

function outKind(file: string, allowed: OutKind[]): OutKind {
  const ext = path.extname(file).toLowerCase();
  const kind = ext === '.el' ? 'el' : ext === '.tsr' ? 'tsr' : undefined;
  if (kind === undefined || !allowed.includes(kind)) {
    throw new TesseraError(`cannot tell what to write from the extension '${ext || '(none)'}'`, {
      file,
      key: '--out',
      fix: allowed.length === 1 ? `name the output FILE.${allowed[0]}` : 'name the output FILE.el (edge-list text) or FILE.tsr (tessera graph)',
    });
  }
  return kind;
}

/** The spec that `generate KIND --scale ...` names (KIND may itself be a full spec). */
export function specFromFlags(kind: string, f: Omit<GenerateFlags, 'out'>): GeneratorSpec {
  let spec: GeneratorSpec;
  if (kind.includes(':')) {
    spec = parseGeneratorSpec(kind);
    // A setting both in the spec and as a flag: one would silently override the other.
    const keys = new Set(kind.split(':').slice(2).map((p) => p.split('=')[0]!.toLowerCase()).map((k) => (k === 'edge-factor' || k === 'edgefactor' ? 'ef' : k === 'w' ? 'weighted' : k)));
    const both: Array<[boolean, string, string]> = [
      [f.scale !== undefined, '--scale', 'the scale'],
      [f.edgeFactor !== undefined && keys.has('ef'), '--edge-factor', 'ef='],
      [f.seed !== undefined && keys.has('seed'), '--seed', 'seed='],
      [f.weighted === true && keys.has('weighted'), '--weighted', 'weighted'],
    ];
    for (const [clash, flag, what] of both) {
      if (clash) throw new TesseraError(`${flag} and the spec '${kind}' (${what}) both set it`, { key: flag, fix: `give it once: in the spec, or as ${flag} with the bare kind (e.g. rmat ${flag} ...)` });
    }
  } else {
    const k = kind.toLowerCase();
    if (k !== 'rmat' && k !== 'uniform') {
      throw new TesseraError(`unknown generator '${kind}'`, { fix: 'use rmat or uniform (e.g. tessera generate rmat --scale 20 --out g.tsr)' });
    }
    if (f.scale === undefined) throw new TesseraError('the scale is missing', { key: '--scale', fix: 'add --scale S (2^S vertex ids), e.g. --scale 20' });
    spec = parseGeneratorSpec(`${k as GeneratorKind}:${f.scale}`);
  }
  if (f.scale !== undefined) spec.scale = f.scale;
  if (f.edgeFactor !== undefined) spec.edgeFactor = f.edgeFactor;
  if (f.seed !== undefined) spec.seed = f.seed;
  if (f.weighted) spec.weighted = true;
  return checkGeneratorSpec(spec);
}

/** Generates to FILE.el (streamed text) or FILE.tsr (built graph); returns a summary line. */
export async function generateCommand(kind: string, f: GenerateFlags): Promise<string> {
  const spec = specFromFlags(kind, f);
  checkNotEmpty(f.out, '--out');
  const out = outKind(f.out, ['el', 'tsr']);
  await checkOutputDir(f.out, '--out');
  const name = formatGeneratorSpec(spec);
  const t0 = performance.now();
  if (out === 'el') {
    if (f.undirected || f.pageEdges !== undefined || f.hostMemory !== undefined || f.tmpDir !== undefined) {
      throw new TesseraError('--undirected, --page-edges, --host-memory and --tmp-dir apply to .tsr output only', { file: f.out, fix: 'drop them, or write FILE.tsr' });
    }
    const bar = progressBar('generate', specEdges(spec), ' edges');
    try {
      const r = await generateToEdgeList(spec, f.out, { onProgress: (d) => bar.update(d), countIds: true });
      bar.stop();
      // An edge list cannot hold a vertex without edges: said, with the count, not lost silently.
      const lost = r.idsWithoutEdges!;
      if (lost > 0) process.stderr.write(`tessera: ${f.out}: an edge list holds only vertices with edges: ${lost} of the ${2 ** spec.scale} vertex ids have none and are not in it (read back: ${2 ** spec.scale - lost} vertices); write FILE.tsr to keep all ${2 ** spec.scale}\n`);
      return `wrote ${f.out}: ${name}, ${r.edges} edges, ${bytesText(r.bytes)} in ${secs(t0)}`;
    } finally {
      bar.stop();
    }
  }
  if (f.tmpDir !== undefined) await checkTmpDir(f.tmpDir);
  const limit = f.hostMemory ?? boundedFallback(catchOf(() => checkGraphFits(2 ** spec.scale, specEdges(spec), { what: name })));
  if (limit !== undefined) {
    const r = await convertBounded(generatorStream(spec), f.out, limit, f);
    return `wrote ${f.out}: ${name}, ${r.numVertices} vertices, ${r.numEdges} edges${r.directed ? '' : ' (undirected: arcs both ways)'} in ${secs(t0)}${boundedNote(r)}`;
  }
  // One team of helpers for the generator and the build (they boot once).
  const g = withTeam(specEdges(spec), (team) => buildWithNote(generateWithBar(spec, team), { pageEdges: f.pageEdges, ...(f.undirected ? { directed: false } : {}) }, team));
  await writeTsrWithBar(g, f.out);
  unusedTmpDir(f);
  return `wrote ${f.out}: ${name}, ${g.numVertices} vertices, ${g.numEdges} edges${g.directed ? '' : ' (undirected: arcs both ways)'} in ${secs(t0)}`;
}

function generateWithBar(spec: GeneratorSpec, team?: Team): RawEdges {
  const bar = progressBar('generate', specEdges(spec), ' edges');
  try {
    return generateEdges(spec, { onProgress: (d) => bar.update(d), ...(team !== undefined ? { team } : {}) });
  } finally {
    bar.stop();
  }
}

function buildWithNote(raw: RawEdges, opts: BuildOptions, team?: Team): Graph {
  note(`building pages from ${compact(raw.src.length)} edges...`);
  return buildGraph(raw, opts, team !== undefined ? { team } : {});
}

/** Runs `work` with a byte-progress bar labelled `label`, started at the first report. */
async function withBar<T>(label: string, work: (onProgress: (done: number, total: number) => void) => Promise<T>): Promise<T> {
  const bar = progressBarLazy(label, ' B');
  let started = false;
  try {
    return await work((d, total) => {
      if (!started) {
        started = true;
        bar.start(total);
      }
      bar.update(d);
    });
  } finally {
    bar.stop();
  }
}

async function writeTsrWithBar(g: Graph, file: string): Promise<void> {
  await withBar('write', (onProgress) => writeTsr(g, file, { onProgress }));
}

/** A bar whose total is learned on first progress. */
function progressBarLazy(label: string, unit: string): { start(total: number): void; update(d: number): void; stop(): void } {
  let bar: Bar | undefined;
  return {
    start: (total) => {
      bar = progressBar(label, total, unit);
    },
    update: (d) => bar?.update(d),
    stop: () => bar?.stop(),
  };
}

/** --tmp-dir must be a folder: checked before the build, whether or not it turns out bounded. */
async function checkTmpDir(dir: string): Promise<void> {
  checkNotEmpty(dir, '--tmp-dir');
  const st = await stat(dir).catch(() => undefined);
  if (st === undefined || !st.isDirectory()) throw new TesseraError(`--tmp-dir ${st === undefined ? 'does not exist' : 'is not a folder'}`, { file: dir, key: '--tmp-dir', fix: 'give an existing folder for the temporary runs' });
}

/** A build in memory puts nothing in --tmp-dir: said, rather than ignored. */
function unusedTmpDir(f: { tmpDir?: string }): void {
  if (f.tmpDir !== undefined) process.stderr.write(`tessera: --tmp-dir unused: the graph fit in memory and was built without temporary runs (--host-memory SIZE bounds the build)\n`);
}

function secs(t0: number): string {
  return `${((performance.now() - t0) / 1000).toFixed(2)} s`;
}

// ---------------------------------------------------------------------------------------------
// convert


/** Raw edges (original ids) of a built graph's out pages: how a .tsr is re-paged. */
export function rawFromGraph(g: Graph): RawEdges {
  const src = new U32List();
  const dst = new U32List();
  const weights = g.weightType === 'float32' ? new F32List() : g.weightType === 'float64' ? new F64List() : undefined;
  const vertices = new U32List();
  const orig = g.ids.toOriginal;
  for (let v = 0; v < g.numVertices; v++) vertices.push(orig[v]!);
  for (const p of g.out.pages) {
    const { offsets, nbrs, weights: w } = p;
    for (let v = p.vBegin; v < p.vEnd; v++) {
      const a = orig[v]!;
      for (let e = offsets[v - p.vBegin]!; e < offsets[v - p.vBegin + 1]!; e++) {
        src.push(a);
        dst.push(orig[nbrs[e]!]!);
        if (weights && w) weights.push(w[e]!);
      }
    }
  }
  return { src, dst, weights, vertices, directed: g.directed, weightType: g.weightType, source: g.source };
}

/** Loads any graph source as raw edges (to be built) or, for .tsr, as the stored graph. */
async function loadSource(
  input: string,
  f: { undirected?: boolean; vertices?: string; weights?: 'float32' | 'float64' | 'none' },
): Promise<{ raw?: RawEdges; graph?: Graph; keys?: string[] }> {
  if (isGeneratorSpec(input)) {
    if (f.vertices !== undefined) throw new TesseraError('--vertices applies to edge-list files only', { key: '--vertices' });
    return { raw: generateWithBar(parseGeneratorSpec(input)) };
  }
  if (await isTsrFile(input)) {
    if (f.vertices !== undefined) throw new TesseraError('--vertices applies to edge-list files only', { key: '--vertices' });
    const bar = progressBarLazy('read', ' B');
    let started = false;
    try {
      const graph = await readTsr(input, {
        onProgress: (d, total) => {
          if (!started) {
            started = true;
            bar.start(total);
          }
          bar.update(d);
        },
      });
      return { graph };
    } finally {
      bar.stop();
    }
  }
  if (input.toLowerCase().endsWith('.tsr')) {
    // Let readTsrHeader explain what is wrong with it (missing, not a .tsr, ...).
    await readTsrHeader(input);
  }
  const other = await readAsRun(input, f);
  if (other !== undefined) return other;
  const bar = progressBarLazy('read', ' B');
  let started = false;
  try {
    const { raw } = await readGraphFile(input, {
      directed: f.undirected ? false : undefined,
      vertices: f.vertices,
      ...(f.weights === 'none' ? { weighted: false } : f.weights ? { weightType: f.weights } : {}),
      onProgress: (d, total) => {
        if (!started) {
          started = true;
          bar.start(total);
        }
        bar.update(d);
      },
    });
    return { raw };
  } finally {
    bar.stop();
  }
}

/** What `run` reads with other readers than readGraphFile: an Arrow table, an edge list with a header line or names. */
async function runReader(input: string): Promise<{ kind: 'arrow' } | { kind: 'named'; sniffed: Sniffed } | undefined> {
  if (isArrowFile(input)) return { kind: 'arrow' };
  // A .tsr (or a path named so) is no text: its own reader says what is wrong with it.
  if (input.toLowerCase().endsWith('.tsr') || (await isTsrFile(input)) || (await detectFormat(input)) !== 'edgelist') return undefined;
  const sniffed = await sniffEdgeList(input).catch(() => undefined);
  return sniffed !== undefined && (sniffed.names || sniffed.header) ? { kind: 'named', sniffed } : undefined;
}

/**
 * The edges of an input readGraphFile does not read, by the readers loadGraph (graph/load.ts)
 * gives `run`, so that convert and info take every file run takes; undefined: readGraphFile's.
 */
async function readAsRun(input: string, f: { undirected?: boolean; vertices?: string }): Promise<{ raw: RawEdges; keys?: string[] } | undefined> {
  const how = await runReader(input);
  if (how === undefined) return undefined;
  const directed = f.undirected ? false : undefined;
  if (f.vertices !== undefined) throw new TesseraError(`--vertices does not apply here: ${how.kind === 'arrow' ? 'an Arrow table lists edges only' : 'its vertices are names or it has a header line'}`, { file: input, key: '--vertices', fix: 'drop --vertices' });
  if (how.kind === 'arrow') return readArrowEdges(input, { directed });
  const { sniffed } = how;
  const r = await readNamedEdgeList(input, { delimiter: sniffed.delimiter, header: sniffed.header, names: sniffed.names, directed });
  // As run says it: the header was guessed, and how to read it as an edge.
  if (r.header !== undefined) process.stderr.write(`tessera: ${input}: the first line (${r.header.join(', ')}) is a header, skipped\n`);
  return r;
}

/** The number of fields of a text file's first edge line (gzipped or not); undefined: none. */
async function firstFields(file: string): Promise<number | undefined> {
  const raw = createReadStream(file);
  const rl = createInterface({ input: file.toLowerCase().endsWith('.gz') ? raw.pipe(createGunzip()) : raw, crlfDelay: Infinity });
  try {
    for await (const line of rl) {
      const t = line.trim();
      if (t !== '' && !t.startsWith('#') && !t.startsWith('%')) return t.split(/[\s,]+/).length;
    }
    return undefined;
  } catch {
    return undefined; // the reader says what is wrong with the file
  } finally {
    rl.close();
    raw.destroy();
  }
}

function namesRefusal(input: string): TesseraError {
  return new TesseraError('the vertices of this graph are names, and a .tsr stores integer ids only', { file: input, fix: 'run it from this file (tessera run --graph FILE), or number its vertices' });
}

/** Refuses --weights float32/float64 for an input that has none: it would write an unweighted graph. */
function noWeights(f: ConvertFlags, input: string, has: boolean): void {
  if (has || f.weights === undefined || f.weights === 'none') return;
  throw new TesseraError(`--weights ${f.weights} stores the input's weights, and it has none`, { file: input, key: '--weights', fix: 'drop --weights (the graph is written unweighted), or convert a weighted input' });
}

/** Converts IN (file or spec) to OUT.tsr; returns a summary line. */
export async function convertCommand(input: string, f: ConvertFlags): Promise<string> {
  checkNotEmpty(f.out, '--out');
  outKind(f.out, ['tsr']);
  await checkOutputDir(f.out, '--out');
  // Written by a rename: an output over the input (or a file it brings) would lose it.
  await checkClashes([...(await graphInputs(input, 'the input')), ...(f.vertices !== undefined ? [['--vertices', f.vertices] as Named] : [])], [['--out', f.out]]);
  if (f.tmpDir !== undefined) await checkTmpDir(f.tmpDir);
  const t0 = performance.now();
  if (isGeneratorSpec(input)) noWeights(f, input, parseGeneratorSpec(input).weighted);
  if (await isTsrFile(input)) {
    if (f.vertices !== undefined) throw new TesseraError('--vertices applies to edge-list files only', { key: '--vertices' });
    const h = await readTsrHeader(input);
    noWeights(f, input, h.weightType !== undefined);
    // A .tsr keeps its page size unless --page-edges names another.
    f = { ...f, pageEdges: f.pageEdges ?? h.pageEdges };
    if (f.pageEdges === h.pageEdges && !(f.undirected && h.directed) && (f.weights === undefined || f.weights === (h.weightType ?? 'none'))) {
      // Nothing to change: copied page by page, whatever its size.
      await withBar('copy', (onProgress) => copyTsr(input, f.out, onProgress));
      unusedTmpDir(f);
      return `wrote ${f.out}: ${h.numVertices} vertices, ${h.numEdges} edges, ${h.directed ? 'directed' : 'undirected'}, ${h.pages.out.length} page${h.pages.out.length === 1 ? '' : 's'} per orientation, in ${secs(t0)}`;
    }
  }
  const named = isGeneratorSpec(input) ? undefined : await runReader(input);
  // A bounded build streams plain edge lists: a header line, names or an Arrow table it cannot.
  if (named !== undefined && f.hostMemory !== undefined)
    throw new TesseraError(`a bounded build (--host-memory) reads integer edge lists without a header line, and this is ${named.kind === 'arrow' ? 'an Arrow table' : named.sniffed.names ? 'an edge list of names' : 'an edge list with a header line'}`, { file: input, key: '--host-memory', fix: 'drop --host-memory (it is built in memory)' });
  if (named?.kind === 'named' && named.sniffed.names) throw namesRefusal(input);
  const limit = named !== undefined ? undefined : await convertLimit(input, f);
  if (limit !== undefined) {
    const stream = await boundedStream(input, f);
    // An edge list's weights are known once read: its first edge line says whether it has a third column.
    noWeights(f, input, stream.weights !== undefined ? stream.weights !== 'none' : ((await firstFields(input)) ?? 3) >= 3);
    const r = await convertBounded(stream, f.out, limit, f);
    return `wrote ${f.out}: ${r.numVertices} vertices, ${r.numEdges} edges, ${r.directed ? 'directed' : 'undirected'}, ${r.pages.out} page${r.pages.out === 1 ? '' : 's'} out${r.directed ? `, ${r.pages.in} in` : ''}, in ${secs(t0)}${boundedNote(r)}`;
  }
  const src = await loadSource(input, f);
  // A .tsr keeps original ids only: names would be lost (written as numbers).
  if (src.keys !== undefined) throw namesRefusal(input);
  noWeights(f, input, src.graph !== undefined ? src.graph.weightType !== undefined : src.raw!.weights !== undefined);
  const opts: BuildOptions = { pageEdges: f.pageEdges, ...(f.undirected ? { directed: false } : {}), ...(f.weights ? { weightType: f.weights } : {}) };
  // A .tsr unchanged was copied above: here it is rebuilt (pageEdges: its own unless given).
  const g = buildWithNote(src.graph !== undefined ? rawFromGraph(src.graph) : src.raw!, opts);
  await writeTsrWithBar(g, f.out);
  unusedTmpDir(f);
  return `wrote ${f.out}: ${g.numVertices} vertices, ${g.numEdges} edges, ${g.directed ? 'directed' : 'undirected'}, ${g.out.pages.length} page${g.out.pages.length === 1 ? '' : 's'} per orientation, in ${secs(t0)}`;
}

// ---------------------------------------------------------------------------------------------
// info

export interface DegreeSummary {
  min: number;
  /** Lower median. */
  median: number;
  mean: number;
  /** Nearest-rank 99th percentile. */
  p99: number;
  max: number;
  /** Vertices with no edge at all (in or out). */
  isolated: number;
  /** Vertices with out-degree 0 (directed graphs: sinks). */
  zero: number;
}

export interface PageSummary {
  pages: number;
  split: number;
  minEdges: number;
  maxEdges: number;
}

export interface GraphInfo {
  source: string;
  file?: string;
  numVertices: number;
  numEdges: number;
  directed: boolean;
  weightType?: string;
  pageEdges: number;
  outDegree: DegreeSummary;
  inDegree?: DegreeSummary;
  pages: { out: PageSummary; in?: PageSummary };
  build?: { selfLoopsDropped: number; duplicatesDropped: number };
  fileBytes?: number;
  /** .tsr only: whether the whole file was checked (verifyTsr) before it was described. */
  verified?: boolean;
}

/** Order statistics of a degree array, in O(n) (a histogram; degrees >= 2^16 sorted apart). */
export function degreeSummary(deg: Uint32Array, other?: Uint32Array): DegreeSummary {
  const n = deg.length;
  const SMALL = 1 << 16;
  const hist = new Float64Array(SMALL);
  const big: number[] = [];
  let sum = 0;
  let min = n > 0 ? Infinity : 0;
  let max = 0;
  let isolated = 0;
  let zero = 0;
  for (let v = 0; v < n; v++) {
    const d = deg[v]!;
    sum += d;
    if (d < min) min = d;
    if (d > max) max = d;
    if (d < SMALL) hist[d]!++;
    else big.push(d);
    if (d === 0) {
      zero++;
      if (other === undefined || other[v] === 0) isolated++;
    }
  }
  big.sort((a, b) => a - b);
  const rank = (r: number): number => {
    // r-th smallest, 0-based.
    let acc = 0;
    for (let d = 0; d < SMALL; d++) {
      acc += hist[d]!;
      if (acc > r) return d;
    }
    return big[r - acc]!;
  };
  return {
    min,
    median: n > 0 ? rank(Math.floor((n - 1) / 2)) : 0,
    mean: n > 0 ? sum / n : 0,
    p99: n > 0 ? rank(Math.max(0, Math.ceil(0.99 * n) - 1)) : 0,
    max,
    isolated,
    zero,
  };
}

function pageSummaryOf(list: Array<{ edges: number; split: boolean }>): PageSummary {
  let minEdges = list.length > 0 ? Infinity : 0;
  let maxEdges = 0;
  let split = 0;
  for (const p of list) {
    minEdges = Math.min(minEdges, p.edges);
    maxEdges = Math.max(maxEdges, p.edges);
    if (p.split) split++;
  }
  return { pages: list.length, split, minEdges, maxEdges };
}

/** Info of an in-memory graph. */
export function graphInfo(g: Graph): GraphInfo {
  const build = (g as { build?: GraphInfo['build'] }).build;
  return {
    source: g.source,
    numVertices: g.numVertices,
    numEdges: g.numEdges,
    directed: g.directed,
    weightType: g.weightType,
    pageEdges: g.pageEdges,
    outDegree: degreeSummary(g.outDegree, g.directed ? g.inDegree : undefined),
    inDegree: g.directed ? degreeSummary(g.inDegree, g.outDegree) : undefined,
    pages: { out: pageSummaryOf(g.out.pages), in: g.directed ? pageSummaryOf(g.in.pages) : undefined },
    build,
  };
}

/**
 * Info of a .tsr from its header and degree arrays. With `verify` (the default) the whole file is
 * checked first (verifyTsr: every page's structure and checksum, the degree arrays against the
 * pages, the id maps), so a damaged file is a TesseraError naming the page; without, no page is
 * read.
 */
export async function tsrInfo(file: string, opts: { verify?: boolean } = {}): Promise<GraphInfo> {
  const verify = opts.verify ?? true;
  if (verify) await withBar('verify', (onProgress) => verifyTsr(file, { onProgress }));
  const h: TsrHeader = await readTsrHeader(file);
  const outDeg = await readTsrArray(file, h, 'outDegree');
  const inDeg = h.directed ? await readTsrArray(file, h, 'inDegree') : undefined;
  return {
    source: h.source,
    file,
    numVertices: h.numVertices,
    numEdges: h.numEdges,
    directed: h.directed,
    weightType: h.weightType,
    pageEdges: h.pageEdges,
    outDegree: degreeSummary(outDeg, inDeg),
    inDegree: inDeg ? degreeSummary(inDeg, outDeg) : undefined,
    pages: { out: pageSummaryOf(h.pages.out), in: h.directed ? pageSummaryOf(h.pages.in) : undefined },
    build: h.build,
    fileBytes: h.fileBytes,
    verified: verify,
  };
}

export async function infoOf(input: string, f: { undirected?: boolean; pageEdges?: number; verify?: boolean } = {}): Promise<GraphInfo> {
  const tsr = !isGeneratorSpec(input) && (await isTsrFile(input));
  if (tsr && !f.undirected && f.pageEdges === undefined) return tsrInfo(input, { verify: f.verify });
  // (A path ending in .tsr that is no .tsr goes on, so that loadSource says what is wrong with it.)
  if (f.verify === false && (tsr || !input.toLowerCase().endsWith('.tsr'))) {
    // Refused, not ignored: here every edge is read (and a .tsr's pages checked) anyway.
    throw new TesseraError(
      tsr ? '--no-verify applies to a .tsr described as stored: with --undirected or --page-edges all its pages are read and checked anyway' : '--no-verify applies to a .tsr file only',
      { fix: tsr ? 'drop --no-verify, or drop --undirected and --page-edges' : 'drop --no-verify' },
    );
  }
  const src = await loadSource(input, f);
  const opts: BuildOptions = { pageEdges: f.pageEdges, ...(f.undirected ? { directed: false } : {}) };
  const g = src.graph
    ? f.undirected || f.pageEdges !== undefined
      ? buildGraph(rawFromGraph(src.graph), { ...opts, pageEdges: f.pageEdges ?? src.graph.pageEdges })
      : src.graph
    : buildWithNote(src.raw!, opts);
  const info = graphInfo(g);
  if (!isGeneratorSpec(input)) info.file = input;
  return info;
}

function num(x: number): string {
  return Number.isInteger(x) ? x.toLocaleString('en-US') : x.toFixed(2);
}

function degLine(d: DegreeSummary): string {
  return `min ${num(d.min)}  median ${num(d.median)}  mean ${num(d.mean)}  p99 ${num(d.p99)}  max ${num(d.max)}`;
}

function pageLine(p: PageSummary): string {
  return `${num(p.pages)} page${p.pages === 1 ? '' : 's'}, edges per page min ${num(p.minEdges)} max ${num(p.maxEdges)}${p.split ? `, ${num(p.split)} split` : ''}`;
}

export function formatInfo(i: GraphInfo): string {
  const rows: Array<[string, string]> = [];
  rows.push(['graph', i.source + (i.file && i.file !== i.source ? `  (file ${i.file}${i.fileBytes ? `, ${bytesText(i.fileBytes)}` : ''})` : '')]);
  rows.push(['vertices', num(i.numVertices)]);
  rows.push(['edges', `${num(i.numEdges)}${i.directed ? '' : ' arcs (each undirected edge stored both ways)'}`]);
  rows.push(['directed', i.directed ? 'yes' : 'no']);
  rows.push(['weighted', i.weightType ?? 'no']);
  rows.push([i.directed ? 'out-degree' : 'degree', degLine(i.outDegree)]);
  if (i.inDegree) rows.push(['in-degree', degLine(i.inDegree)]);
  rows.push(['isolated', `${num(i.outDegree.isolated)} vertices${i.directed ? `; ${num(i.outDegree.zero)} with out-degree 0, ${num(i.inDegree!.zero)} with in-degree 0` : ''}`]);
  rows.push(['page size', `${num(i.pageEdges)} edges (target)`]);
  rows.push([i.directed ? 'out pages' : 'pages', pageLine(i.pages.out)]);
  if (i.pages.in) rows.push(['in pages', pageLine(i.pages.in)]);
  if (i.build) rows.push(['dropped', `${num(i.build.selfLoopsDropped)} self-loops, ${num(i.build.duplicatesDropped)} duplicate edges`]);
  if (i.verified !== undefined) rows.push(['verified', i.verified ? 'yes (every page, degree array and id map checked)' : 'no (--no-verify: header and degree arrays only)']);
  const w = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `${k.padEnd(w)}  ${v}`).join('\n');
}

// ---------------------------------------------------------------------------------------------
// registration

export function registerGraphCommands(program: Command): void {
  program
    .command('generate')
    .description('generate a synthetic graph: RMAT (Graph500: a,b,c = 0.57,0.19,0.19) or uniform G(n, m)')
    .argument('<kind>', 'rmat | uniform (or a full spec such as rmat:20:ef=8:seed=3)')
    .option('--scale <s>', 'log2 of the vertex id space (2^s ids)', intOption('--scale', 1, MAX_SCALE))
    .option('--edge-factor <k>', 'edges per vertex id (edges = k * 2^s; default 16)', intOption('--edge-factor', 1))
    .option('--seed <n>', 'random seed (default 1); the same seed gives the same graph', intOption('--seed', 0))
    .option('--weighted', 'add weights uniform over k/10^6, k = 1..10^6 (float32)')
    .option('--page-edges <n>', '.tsr only: target edges per page', intOption('--page-edges', 1))
    .option('--undirected', '.tsr only: store every edge both ways')
    .option('--host-memory <size>', '.tsr only: build within this much memory (e.g. 8GiB), through sorted runs on disk', sizeOption('--host-memory'))
    .option('--tmp-dir <dir>', '.tsr only: an existing folder for a bounded build\'s temporary runs (default: next to the output; a build in memory uses none and says so)')
    .requiredOption('--out <file>', 'FILE.el (edge-list text, streamed: holds only the ids with an edge, a notice counts the others) or FILE.tsr (tessera graph: all 2^s vertices)')
    .action(async (kind: string, f: GenerateFlags) => {
      process.stdout.write((await generateCommand(kind, f)) + '\n');
    });

  program
    .command('convert')
    .description('convert a graph (edge list, Graphalytics, Matrix Market, .tsr or rmat:S / uniform:S) to a .tsr file')
    .argument('<input>', 'graph file or generator spec')
    .requiredOption('--out <file.tsr>', 'output .tsr file (written atomically)')
    .option('--undirected', 'treat every edge as undirected (stored both ways)')
    .option('--page-edges <n>', 'target edges per page (default 1048576; a .tsr: its own)', intOption('--page-edges', 1))
    .option('--vertices <file.v>', 'vertex list for an edge list: every vertex, isolated ones included (an edge naming one it lacks is an error)')
    .option('--weights <type>', 'store weights as float32 | float64 | none (default: as the input; text: float64); float32/float64 refused for an input without weights', choiceOption('--weights', ['float32', 'float64', 'none'] as const))
    .option('--host-memory <size>', 'build within this much memory (e.g. 8GiB), through sorted runs on disk', sizeOption('--host-memory'))
    .option('--tmp-dir <dir>', 'an existing folder for a bounded build\'s temporary runs (default: next to the output; a build in memory uses none and says so)')
    .action(async (input: string, f: ConvertFlags) => {
      process.stdout.write((await convertCommand(input, f)) + '\n');
    });

  program
    .command('info')
    .description('describe a graph: counts, degree distribution, pages')
    .argument('<graph>', 'graph file (a .tsr is checked whole first; exit 1 if damaged) or generator spec (rmat:S, uniform:S)')
    .option('--undirected', 'treat every edge as undirected')
    .option('--page-edges <n>', 'target edges per page when building', intOption('--page-edges', 1))
    .option('--format <fmt>', 'text | json', choiceOption('--format', ['text', 'json'] as const), 'text')
    .option('--no-verify', '.tsr: skip checking the whole file (pages, degrees, id maps) for a quick look at its header')
    .action(async (input: string, f: { undirected?: boolean; pageEdges?: number; format: 'text' | 'json'; verify: boolean }) => {
      const info = await infoOf(input, f);
      process.stdout.write((f.format === 'json' ? JSON.stringify(info, null, 2) : formatInfo(info)) + '\n');
    });
}
