import { readFile } from 'node:fs/promises';
import { TesseraError } from '../errors.js';
import { detectTopology } from './detect.js';
import type { Topology } from './schema.js';

/**
 * Topologies this module made or checked, with their JSON then: one handed back unchanged (the
 * CLI's, passed on to the library's run) is not checked again, nor parse.js loaded for it.
 */
const checked = new WeakMap<Topology, string>();
function mark(t: Topology): Topology {
  checked.set(t, JSON.stringify(t));
  return t;
}

/** `t` (made or checked here) with no GPU: checked as it is (a topology's GPUs are optional), so the library's run takes it unchecked. */
export function withoutGpus(t: Topology): Topology {
  return mark({ ...t, name: t.name.replace(/\d+G$/, '0G'), gpus: [] });
}

/** A topology given to the library: an object (checked as a file is), a YAML path, or 'auto' / undefined. */
export function resolveTopology(t: Topology | string | undefined): Promise<Topology> {
  if (typeof t === 'object' && checked.get(t) === JSON.stringify(t)) return Promise.resolve(t);
  return typeof t === 'object' ? import('./parse.js').then((p) => mark(p.checkTopology(t))) : loadTopology(t);
}

/** A topology file's text (loadTopology's first step, no YAML read yet); undefined for 'auto' / undefined. */
export async function readTopologyFile(spec?: string): Promise<string | undefined> {
  if (spec === undefined || spec === 'auto') return undefined;
  try {
    return await readFile(spec, 'utf8');
  } catch {
    throw new TesseraError('topology file not found', { file: spec, fix: 'give a path to a YAML topology (see configs/) or --topology auto' });
  }
}

/** Loads a topology file, or detects the machine when `spec` is 'auto' / undefined; `text`: the file's, read already (readTopologyFile). */
export async function loadTopology(spec?: string, text?: string): Promise<Topology> {
  const t = text ?? (await readTopologyFile(spec));
  if (t === undefined) return mark(detectTopology());
  return mark((await import('./parse.js')).parseTopology(t, spec!));
}

