/**
 * Output paths of the commands, checked before any work: a path that is empty, whose folder is
 * missing, that is not a regular file, or that is a file the command reads (a Graphalytics graph's
 * .v and .properties included) is refused with one line, so no input or dataset is ever replaced.
 */
import { constants as fsConstants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isGeneratorSpec } from '../graph/generate/spec.js';
import { TesseraError } from '../errors.js';

/** A flag and the file it names. */
export type Named = [key: string, file: string];

/** Throws unless FILE is a path (an empty one reaches rename or mkdir as an internal error). */
export function checkNotEmpty(file: string | undefined, key: string): void {
  if (file !== undefined && file.trim() === '') throw new TesseraError(`${key} is empty`, { key, fix: `give ${key} a path` });
}

/** Throws a TesseraError unless FILE's directory exists and FILE, if there, is a writable regular file. */
export async function checkOutputDir(file: string, key: string): Promise<void> {
  checkNotEmpty(file, key);
  const dir = path.dirname(path.resolve(file));
  const st = await stat(dir).catch(() => undefined);
  if (st === undefined || !st.isDirectory()) {
    throw new TesseraError(`the directory ${dir} does not exist`, { file, key, fix: 'create the directory first, or write somewhere else' });
  }
  // Written by an atomic rename: only a regular file the user may write is ever replaced.
  const at = await stat(file).catch(() => undefined);
  if (at !== undefined && !at.isFile()) {
    throw new TesseraError(`${file} is not a regular file (${at.isDirectory() ? 'a directory' : 'a device, pipe or socket'})`, {
      file,
      key,
      fix: key === '--out' ? 'name a file to create, or use --out - for standard output' : 'name a file to create',
    });
  }
  if (at !== undefined) {
    await access(file, fsConstants.W_OK).catch(() => {
      throw new TesseraError(`${file} is read-only`, { file, key, fix: 'make it writable, or write somewhere else' });
    });
  }
}

/** Throws unless DIR is a folder that exists or can be made (a file there is the usual mistake). */
export async function checkFolder(dir: string, key: string): Promise<void> {
  checkNotEmpty(dir, key);
  // The nearest part of the path that exists must be a folder: mkdir -p goes on from there.
  let p = path.resolve(dir);
  for (;;) {
    const st = await stat(p).catch((e: NodeJS.ErrnoException) => (e.code === 'ENOENT' ? undefined : e));
    if (st instanceof Error) throw new TesseraError(`cannot use ${dir}: ${st.message}`, { file: dir, key, fix: 'name a folder you may write' });
    if (st !== undefined) {
      if (!st.isDirectory()) throw new TesseraError(`${p === path.resolve(dir) ? dir : p} is a file, not a folder`, { file: dir, key, fix: `give ${key} a folder (it is made if missing)` });
      return;
    }
    const up = path.dirname(p);
    if (up === p) return;
    p = up;
  }
}

/** The real path of FILE (its resolved path where it does not exist yet). */
export async function real(file: string): Promise<string> {
  return realpath(file).catch(() => path.resolve(file));
}

/**
 * The files reading GRAPH reads: the file itself and, for a Graphalytics graph (.e, .v,
 * .properties or its folder), the .e, .v and .properties it brings (the names its .properties
 * gives). A spec reads none. A graph that cannot be located lists only itself: its load says why.
 */
export async function graphInputs(graph: string, key = '--graph'): Promise<Named[]> {
  if (isGeneratorSpec(graph)) return [];
  const files: Named[] = [[key, graph]];
  const dir = await stat(graph).then((s) => s.isDirectory(), () => false);
  if (!dir && !/\.(e|v|properties)(\.gz)?$/i.test(graph)) return files;
  const { graphalyticsInput } = await import('../graph/readers/graphalytics.js');
  const g = await graphalyticsInput(graph).catch(() => undefined);
  if (g === undefined) return files;
  files.push([`${key}'s edge file`, g.edgeFile], [`${key}'s vertex file`, g.vertexFile]);
  if (g.propertiesFile !== undefined) files.push([`${key}'s properties file`, g.propertiesFile]);
  return files;
}

/** Refuses two of OUTS on one file, or one on an input (by real path: a link or `./x` names the same file). */
export async function checkClashes(inputs: Named[], outs: Named[], fixOf: (key: string) => string = (key) => `write ${key} to another file`): Promise<void> {
  const seen = new Map<string, { key: string; input: boolean }>();
  for (const [key, file] of inputs) {
    const r = await real(file);
    if (!seen.has(r)) seen.set(r, { key, input: true });
  }
  for (const [key, file] of outs) {
    const r = await real(file);
    const clash = seen.get(r);
    if (clash !== undefined) {
      throw new TesseraError(`${key} ${file} is also ${clash.input ? 'an input:' : 'the'} ${clash.key}`, { file, key, fix: fixOf(key) });
    }
    seen.set(r, { key, input: false });
  }
}
