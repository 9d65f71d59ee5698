/**
 * Writes per-vertex results as `id value` lines in ascending original id (the Graphalytics
 * output format; a graph read with names writes them instead of ids), streamed to a temporary file that is renamed into place: a reader never sees a
 * half-written file, and memory stays flat on large graphs.
 */
import { createWriteStream } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { TesseraError } from '../errors.js';
import { trackTemp, untrackTemp } from '../tmp-files.js';
import { diskFullNow, enospc } from './faults.js';
import type { Graph } from '../graph/types.js';
import type { OutputKind } from './program.js';

const LONG_MAX = '9223372036854775807';

/**
 * A value as an output line writes it; given the graph, a 'label' on a graph read with names is
 * the vertex's name (valueText), as RunResult.format promises.
 */
export function formatValue(kind: OutputKind, x: number, graph?: Graph): string {
  if (graph !== undefined) return valueText(graph, kind)(x);
  switch (kind) {
    case 'depth':
      return x < 0 ? LONG_MAX : String(x);
    case 'distance':
      return x === Infinity ? 'infinity' : String(x);
    case 'int':
    case 'label':
      return String(x);
    case 'float':
      // Shortest string that reads back as the same double.
      return String(x);
  }
}

/**
 * Streams `id value` lines (ascending original id) into `out`, waiting for it to drain; with
 * `parents` (internal ids, -1 unreachable) a third column, the parent's original id or -1.
 */
async function writeLines(out: NodeJS.WritableStream, failed: Promise<never>, graph: Graph, values: ArrayLike<number>, kind: OutputKind, parents?: Int32Array): Promise<void> {
  const { byOriginal } = graph.ids;
  const { name } = namesOf(graph);
  const value = valueText(graph, kind);
  let buf = '';
  for (let i = 0; i < byOriginal.length; i++) {
    const v = byOriginal[i]!;
    buf += parents === undefined ? `${name(v)} ${value(values[v]!)}\n` : `${name(v)} ${value(values[v]!)} ${parents[v]! < 0 ? -1 : name(parents[v]!)}\n`;
    if (buf.length > 1 << 16) {
      if (!out.write(buf)) await Promise.race([once(out as NodeJS.EventEmitter, 'drain'), failed]);
      buf = '';
    }
  }
  if (buf.length > 0 && !out.write(buf)) await Promise.race([once(out as NodeJS.EventEmitter, 'drain'), failed]);
}

/**
 * How an output line writes a value of `kind` (RunResult.format uses it too, so the two agree): as
 * formatValue, except that on a graph read with names a 'label' (an original id) is the name of
 * the vertex it denotes, written as a line names vertices (a label that is no vertex, from a
 * defined program, stays a number rather than becoming "undefined").
 */
export function valueText(graph: Graph, kind: OutputKind): (x: number) => string {
  const { label } = namesOf(graph);
  return kind === 'label' && label !== undefined ? label : (x) => formatValue(kind, x);
}

/**
 * How an output line names internal vertex v: its original id, or on a graph read with names its
 * name, quoted ("...", a quote inside doubled) when it holds a space, a comma, a quote or is empty;
 * `label` names a 'label' value (an original id) the same way.
 */
function namesOf(graph: Graph): { name: (v: number) => string; label?: (original: number) => string } {
  const { toOriginal } = graph.ids;
  const named = graph as Graph & { writesKeys?: boolean; keys?: readonly string[] };
  const keys = named.writesKeys === true ? named.keys : undefined;
  if (keys === undefined) return { name: (v) => String(toOriginal[v]) };
  const label = (o: number): string => {
    const k = keys[o];
    if (k === undefined) return String(o);
    return k === '' || /[\s,"]/.test(k) ? `"${k.replace(/"/g, '""')}"` : k;
  };
  return { name: (v) => label(toOriginal[v]!), label };
}

export async function writeResult(
  file: string,
  graph: Graph,
  values: ArrayLike<number>,
  kind: OutputKind,
  parents?: Int32Array,
): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}`;
  trackTemp(tmp);
  const out = createWriteStream(tmp);
  const failed = new Promise<never>((_, reject) =>
    out.once('error', (e) => reject(new TesseraError(`cannot write the output: ${e.message}`, { file, fix: 'check that the directory exists and is writable' }))),
  );
  try {
    if (diskFullNow()) {
      // TESSERA_FAULT disk-full: part of the file is written, then the disk is full.
      await new Promise((r) => out.write(`${graph.ids.toOriginal[0] ?? 0} `, r));
      throw new TesseraError(`cannot write the output: ${enospc('write', tmp).message}`, { file, fix: 'check that the directory exists and is writable' });
    }
    await writeLines(out, failed, graph, values, kind, parents);
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
    await rename(tmp, file);
  } catch (e) {
    out.destroy();
    await unlink(tmp).catch(() => undefined);
    throw e;
  } finally {
    untrackTemp(tmp);
  }
}

/**
 * Writes the same lines to standard output (`--out -`). A reader that stops early (`| head`)
 * closes the pipe: the rest is dropped quietly, as Unix tools do.
 */
export async function writeResultToStdout(graph: Graph, values: ArrayLike<number>, kind: OutputKind, parents?: Int32Array): Promise<void> {
  const out = process.stdout;
  let closed = false;
  const failed = new Promise<never>((_, reject) =>
    out.once('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EPIPE') closed = true;
      reject(e);
    }),
  );
  failed.catch(() => undefined);
  try {
    await writeLines(out, failed, graph, values, kind, parents);
  } catch (e) {
    if (!closed) throw new TesseraError(`cannot write the output: ${(e as Error).message}`, { key: '--out', fix: 'check what standard output is connected to' });
  }
}

/** Internal id of an original vertex id, or a clear error. */
export function internalId(graph: Graph, original: number, what = 'source vertex'): number {
  const { toOriginal, byOriginal } = graph.ids;
  let lo = 0;
  let hi = byOriginal.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (toOriginal[byOriginal[mid]!]! < original) lo = mid + 1;
    else hi = mid;
  }
  if (lo < byOriginal.length && toOriginal[byOriginal[lo]!] === original) return byOriginal[lo]!;
  throw new TesseraError(`${what} ${original} is not a vertex of ${graph.source}`, {
    fix: `pick an id that appears in the graph (ids run from ${toOriginal[byOriginal[0]!]} to ${toOriginal[byOriginal[byOriginal.length - 1]!]})`,
  });
}

/** Writes bytes (an Arrow IPC file) atomically: a temporary file renamed into place. */
export async function writeBytes(file: string, bytes: Uint8Array): Promise<void> {
  const tmp = `${file}.tmp-${process.pid}`;
  trackTemp(tmp);
  try {
    await writeFile(tmp, bytes).catch((e: Error) => {
      throw new TesseraError(`cannot write the output: ${e.message}`, { file, fix: 'check that the directory exists and is writable' });
    });
    await rename(tmp, file);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  } finally {
    untrackTemp(tmp);
  }
}
