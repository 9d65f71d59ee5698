/**
 * `tessera convert` and `tessera generate --out g.tsr` in bounded memory (graph/build/external.ts):
 * when they build that way, the input's edge stream, and a bar per phase with the disk estimate.
 */
import os from 'node:os';
import { TesseraError } from '../errors.js';
import { buildTsrExternal, type DiskEstimate, type ExternalPhase, type ExternalResult } from '../graph/build/external.js';
import { size } from '../graph/build/external-plan.js';
import { edgeListStream, generatorStream, type EdgeStream } from '../graph/build/external-source.js';
import { checkGraphFits, checkTextFits, estimateTextEdges } from '../graph/memory.js';
import { formatGeneratorSpec, isGeneratorSpec, parseGeneratorSpec, specEdges } from '../graph/generate/index.js';
import { detectFormat } from '../graph/readers/index.js';
import { isTsrFile } from '../graph/tsr.js';
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

function diskLine(d: DiskEstimate, hostMemory: number): string {
  const where = d.tmpDir === d.outDir ? `in ${d.tmpDir}` : `(runs in ${d.tmpDir}, output in ${d.outDir})`;
  return `bounded build in ${size(hostMemory)} of memory: needs about ${size(d.runs)} of temporary runs and ${size(d.output)} of output on disk ${where}`;
}

export function boundedNote(r: ExternalResult): string {
  const runs = r.buckets.out + r.buckets.in;
  return ` (bounded memory: ${size(r.memory.limit)}, ${runs} run${runs === 1 ? '' : 's'} on disk)`;
}

/** The edge stream of a bounded conversion's input (edge lists and generator specs). */
export async function boundedStream(input: string, f: ConvertFlags): Promise<EdgeStream> {
  if (isGeneratorSpec(input)) {
    if (f.vertices !== undefined) throw new TesseraError('--vertices applies to edge-list files only', { key: '--vertices' });
    return generatorStream(parseGeneratorSpec(input));
  }
  if (await isTsrFile(input)) {
    throw new TesseraError('re-paging a .tsr in bounded memory is not supported', { file: input, fix: 'convert the original edge list, or drop --host-memory' });
  }
  const format = await detectFormat(input);
  if (format !== 'edgelist') {
    const name = format === 'matrixmarket' ? 'a Matrix Market file' : 'a Graphalytics graph';
    throw new TesseraError(`a bounded-memory conversion reads edge lists and generator specs; this is ${name}`, {
      file: input,
      fix: 'convert it to an edge list (src dst [weight] lines) first, or drop --host-memory',
    });
  }
  // The estimate of the disk needed up front: the edges from the file's size, weights from its first line.
  const est = await estimateTextEdges(input);
  return edgeListStream(input, {
    directed: f.undirected ? false : undefined,
    vertices: f.vertices,
    ...(f.weights === 'none' ? { weighted: false } : f.weights ? { weightType: f.weights } : {}),
    expectedEdges: est?.edges,
    expectedWeights: est === undefined ? undefined : est.fields >= 3 ? (f.weights === 'float32' ? 'float32' : 'float64') : 'none',
  });
}

/** Whether convert builds in bounded memory (its limit), by the flag or the input's estimate. */
export async function convertLimit(input: string, f: ConvertFlags): Promise<number | undefined> {
  if (f.hostMemory !== undefined) return f.hostMemory;
  let refusal: unknown;
  if (isGeneratorSpec(input)) {
    const spec = parseGeneratorSpec(input);
    refusal = catchOf(() => checkGraphFits(2 ** spec.scale, specEdges(spec), { what: formatGeneratorSpec(spec) }));
  } else if (!(await isTsrFile(input)) && (await detectFormat(input)) === 'edgelist') {
    refusal = await checkTextFits(input).then(() => undefined, (e: unknown) => e);
  }
  return boundedFallback(refusal);
}

export function catchOf(f: () => void): unknown {
  try {
    f();
    return undefined;
  } catch (e) {
    return e;
  }
}
