/**
 * `tessera run --resume DIR`: a checkpoint records the flags of the run that wrote it (graph,
 * program, parameters, outputs, set-up), so `--resume DIR` alone continues that run. A flag given
 * on the command line wins; a graph, program or parameter that differs from the checkpoint's is
 * then refused by the identity check (src/checkpoint.ts), one line naming both.
 */
import path from 'node:path';
import type { Command } from 'commander';
import type { Json } from '../engine/checkpoint.js';

/** The run flags a checkpoint records (not the checkpoint flags themselves, nor --topology: the topology is recorded resolved). */
const RECORDED = [
  'algo', 'graph', 'vertices', 'undirected', 'names', 'header', 'allowNegativeWeights', 'pageEdges', 'source', 'iterations', 'damping', 'window',
  'sources', 'sourceList', 'seed', 'param', 'out', 'report', 'parents', 'mode', 'alpha', 'partition', 'multiGpu', 'partitionSeed', 'steal',
] as const;
/** Flags that name files: recorded absolute, so a resume from another folder finds them. */
const PATHS = new Set<string>(['vertices', 'sourceList', 'out', 'report']);

const isSpec = (g: string): boolean => /^(rmat|uniform):/.test(g);
const isModule = (a: string): boolean => /[\\/]/.test(a) || /\.(m?js|cjs)$/.test(a);

/** Numbers JSON cannot hold (a window of Infinity) survive as tagged strings. */
function enc(x: unknown): Json {
  if (typeof x === 'number') return Number.isFinite(x) ? x : { $n: String(x) };
  if (Array.isArray(x)) return x.map(enc);
  if (x !== null && typeof x === 'object') return Object.fromEntries(Object.entries(x).filter(([, v]) => v !== undefined).map(([k, v]) => [k, enc(v)]));
  return (x ?? null) as Json;
}

function dec(x: Json): unknown {
  if (Array.isArray(x)) return x.map(dec);
  if (x !== null && typeof x === 'object') return '$n' in x ? Number(x.$n) : Object.fromEntries(Object.entries(x).map(([k, v]) => [k, dec(v)]));
  return x;
}

/** The record of a run's flags for its checkpoints (paths made absolute). */
export function recordFlags(f: object): Json {
  const out: Record<string, unknown> = {};
  for (const k of RECORDED) {
    let v = (f as Record<string, unknown>)[k];
    if (v === undefined) continue;
    if (typeof v === 'string' && v !== '-' && (PATHS.has(k) || (k === 'graph' && !isSpec(v)) || (k === 'algo' && isModule(v)))) v = path.resolve(v);
    out[k] = v;
  }
  return enc(out);
}

/**
 * Fills `f` with the checkpoint's recorded flags where the command line gave none (commander's
 * option value source tells given from defaulted). Returns the flags taken from the record.
 */
export function mergeRecordedFlags(f: object, recorded: Json, cmd: Command): string[] {
  if (recorded === null || typeof recorded !== 'object' || Array.isArray(recorded)) return [];
  const rec = dec(recorded) as Record<string, unknown>;
  const taken: string[] = [];
  for (const k of RECORDED) {
    if (!(k in rec)) continue;
    const given = cmd.getOptionValueSource(k) === 'cli' || (k === 'param' && Object.keys((f as Record<string, unknown>).param ?? {}).length > 0);
    if (given) continue;
    (f as Record<string, unknown>)[k] = rec[k];
    taken.push(k);
  }
  return taken;
}
