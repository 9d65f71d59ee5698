/**
 * `tessera convert` and `tessera generate --out g.tsr` in bounded memory (graph/build/external.ts):
 * when they build that way, the input's edge stream, and a bar per phase with the disk estimate.
 */
import os from 'node:os';
import { TesseraError } from '../errors.js';
import { buildTsrExternal, type DiskEstimate, type ExternalPhase, type ExternalResult } from '../graph/build/external.js';
import { size } from '../graph/build/external-plan.js';
import { graphalyticsStream, matrixMarketStream, tsrStream } from '../graph/build/external-formats.js';
import { edgeListStream, generatorStream, type EdgeStream } from '../graph/build/external-source.js';
import { checkGraphFits, checkTextFits, estimateTextEdges, gib } from '../graph/memory.js';
import { formatGeneratorSpec, isGeneratorSpec, parseGeneratorSpec, specEdges } from '../graph/generate/index.js';
import { checkGraphalyticsFits, graphalyticsInput } from '../graph/readers/graphalytics.js';
import { detectFormat, vertexListError } from '../graph/readers/index.js';
import { checkMatrixFits, readMatrixMarketHeader } from '../graph/readers/matrixmarket.js';
import { isTsrFile, readTsrHeader } from '../graph/tsr.js';
import { note, progressBar, type Bar } from './progress.js';

export interface ConvertFlags {
  out: string;
  undirected?: boolean;
  pageEdges?: number;
  vertices?: string;
  /** Storage of the weights: float32, float64 (default: the input's; text files: float64) or none. */
  weights?: 'float32' | 'float64' | 'none';
  /** Bounded memory: the limit (bytes) of the whole process. */
  hostMemory?: number;
  /** Bounded memory: where the temporary runs go (default: next to the output). */
  tmpDir?: string;
}

/**
 * The host-memory limit of a bounded build when the in-memory estimate was refused (`refusal`,
 * a thrown error): half of this machine's memory; undefined (no refusal): build in memory.
 */
export function boundedFallback(refusal: unknown): number | undefined {
  if (refusal === undefined) return undefined;
  if (!(refusal instanceof TesseraError)) throw refusal;
  note(`${refusal.message.split('. Fix:')[0]}: building in bounded memory`);
  return Math.floor(os.totalmem() / 2);
}

const PHASE_LABELS: Record<ExternalPhase, [string, string]> = {
  read: ['read', ' B'],
  count: ['count', ' edges'],
  runs: ['runs', ' edges'],
  'out-pages': ['out-pages', ' edges'],
  'in-pages': ['in-pages', ' edges'],
};

/** Builds OUT.tsr from an edge stream in bounded memory, with a bar per phase and the disk estimate. */
export async function convertBounded(
  stream: EdgeStream,
  out: string,
  hostMemory: number,
  f: { undirected?: boolean; pageEdges?: number; weights?: 'float32' | 'float64' | 'none'; tmpDir?: string },
): Promise<ExternalResult> {
  let phase: ExternalPhase | undefined;
  let bar: Bar | undefined;
  let told = false;
  try {
    return await buildTsrExternal(stream, out, {
      hostMemory,
      pageEdges: f.pageEdges,
      ...(f.undirected ? { directed: false } : {}),
      ...(f.weights ? { weightType: f.weights } : {}),
      tmpDir: f.tmpDir,
      // Tests stand a small bucket in for a graph many times the limit (too big to make in a test).
      runEdges: testRunEdges(),
      onDiskPlan: (d) => {
        if (told) return;
        told = true;
        // A gzipped input is sized only once read: its bar ends before the line.
        bar?.stop();
        bar = undefined;
        phase = undefined;
        process.stderr.write(`${diskLine(d, hostMemory)}\n`);
      },
      onProgress: (p, done, total) => {
        if (p !== phase) {
          bar?.stop();
          phase = p;
          const [label, unit] = p === 'read' && stream.progressUnit === 'edges' ? ['generate', ' edges'] : PHASE_LABELS[p];
          bar = progressBar(label, total, unit);
        }
        bar?.update(done);
      },
    });
  } finally {
    bar?.stop();
  }
}

function testRunEdges(): number | undefined {
  const v = Number(process.env.TESSERA_TEST_RUN_EDGES);
  return Number.isInteger(v) && v > 0 ? v : undefined;
}

function diskLine(d: DiskEstimate, hostMemory: number): string {
  const where = d.tmpDir === d.outDir ? `in ${d.tmpDir}` : `(runs in ${d.tmpDir}, output in ${d.outDir})`;
  return `bounded build in ${size(hostMemory)} of memory: needs about ${size(d.runs)} of temporary runs and ${size(d.output)} of output on disk ${where}`;
}

export function boundedNote(r: ExternalResult): string {
  const runs = r.buckets.out + r.buckets.in;
  return ` (bounded memory: ${size(r.memory.limit)}, ${runs} run${runs === 1 ? '' : 's'} on disk)`;
}

/** The edge stream of a bounded conversion's input (edge lists, Matrix Market, Graphalytics, .tsr, generator specs). */
export async function boundedStream(input: string, f: ConvertFlags): Promise<EdgeStream> {
  if (isGeneratorSpec(input)) {
    if (f.vertices !== undefined) throw new TesseraError('--vertices applies to edge-list files only', { key: '--vertices' });
    return generatorStream(parseGeneratorSpec(input));
  }
  if (await isTsrFile(input)) {
    if (f.vertices !== undefined) throw new TesseraError('--vertices applies to edge-list files only', { key: '--vertices' });
    return tsrStream(input);
  }
  // What the in-memory readers are given (readGraphFile's options from loadSource).
  const read = {
    directed: f.undirected ? false : undefined,
    ...(f.weights === 'none' ? { weighted: false } : f.weights ? { weightType: f.weights } : {}),
  };
  const format = await detectFormat(input);
  if (format !== 'edgelist') {
    if (f.vertices !== undefined) throw vertexListError(input, format);
    return format === 'matrixmarket' ? matrixMarketStream(input, read) : graphalyticsStream(input, read);
  }
  // The estimate of the disk needed up front: the edges from the file's size, weights from its first line.
  const est = await estimateTextEdges(input);
  return edgeListStream(input, {
    ...read,
    vertices: f.vertices,
    expectedEdges: est?.edges,
    expectedWeights: est === undefined ? undefined : est.fields >= 3 ? (f.weights === 'float32' ? 'float32' : 'float64') : 'none',
  });
}

/**
 * Whether convert builds in bounded memory (its limit), by the flag or the input's estimate: the
 * one the in-memory reader would refuse the input with (a spec's counts, a size line, a
 * .properties' counts or a text file's size; a .tsr read whole, its edges listed again to rebuild).
 */
export async function convertLimit(input: string, f: ConvertFlags): Promise<number | undefined> {
  if (f.hostMemory !== undefined) return f.hostMemory;
  let refused: unknown;
  if (isGeneratorSpec(input)) {
    const spec = parseGeneratorSpec(input);
    refused = catchOf(() => checkGraphFits(2 ** spec.scale, specEdges(spec), { what: formatGeneratorSpec(spec) }));
  } else if (await isTsrFile(input)) {
    const h = await readTsrHeader(input);
    const says = `holds ${h.numVertices} vertices and ${h.numEdges} edges in ${gib(h.fileBytes)}`;
    refused = catchOf(() => checkGraphFits(h.numVertices, h.numEdges, { file: input, what: 'this .tsr', says, held: h.fileBytes }));
  } else {
    // The reader's own checks up to its estimate come first: a bad header is its error, not a fallback.
    const format = await detectFormat(input);
    if (format === 'edgelist') refused = await checkTextFits(input).then(() => undefined, (e: unknown) => e);
    else if (format === 'matrixmarket') {
      const h = await readMatrixMarketHeader(input);
      refused = catchOf(() => checkMatrixFits(input, h));
    } else refused = await checkGraphalyticsFits(await graphalyticsInput(input)).then(() => undefined, (e: unknown) => e);
  }
  return boundedFallback(refused);
}

export function catchOf(f: () => void): unknown {
  try {
    f();
    return undefined;
  } catch (e) {
    return e;
  }
}
