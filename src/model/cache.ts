/** The calibration cache: its file, keys, entries (stamped with ENGINE_COSTS) and atomic writes. */
import { cacheDir } from '../cache-dir.js';
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { TesseraError } from '../errors.js';
import type { Topology } from '../topology/schema.js';
import type { Mode } from '../wire/frames.js';
import { programProfile } from './profile.js';

const entrySchema = z.object({
  rCpu: z.number().positive().optional(),
  rCpuOn: z.string().optional(),
  rCpuVertices: z.number().positive().optional(),
  gpuVertices: z.number().positive().optional(),
  cpuOverheadS: z.number().nonnegative().optional(),
  cpuVertexS: z.number().nonnegative().optional(),
  gpuVertexS: z.number().nonnegative().optional(),
  cpuSetupSPerVertex: z.number().nonnegative().optional(),
  cpuStartSPerVertex: z.number().nonnegative().optional(),
  gpuStartSPerVertex: z.number().nonnegative().optional(),
  cpuCoordShare: z.number().min(0).max(1).optional(),
  gpuCoordShare: z.number().min(0).max(1).optional(),
  gpuPageBytesPerSec: z.number().positive().optional(),
  gpuStateBytesPerVertex: z.number().positive().optional(),
  rGpu: z.number().positive().optional(),
  gpuOverheadS: z.number().nonnegative().optional(),
  c: z.number().positive().optional(),
  linkBytesPerSec: z.number().positive().optional(),
  peerBytesPerSec: z.number().positive().optional(),
  /** A file system's cold sequential read rate (model/disk.ts; keys disk#...). */
  diskBytesPerSec: z.number().positive().optional(),
  gpuOn: z.string().optional(),
  measuredAt: z.string().optional(),
  host: z.string().optional(),
  /** ENGINE_COSTS of the build that measured it. */
  engine: z.string().optional(),
});
export type CacheEntry = z.infer<typeof entrySchema>;
// Version 3: rates from steady supersteps, one-time costs beside them (version 2 timed whole runs;
// traversal rates are per run since then, and the calibration graphs grow until they fit); older
// files are measured again.
/**
 * The engine's per-superstep costs as this build has them: entries another build measured (another
 * stamp, or none) are measured again. Change it with the coordinator's or the actors' fixed costs:
 * the coordinator shares and one-time costs calibrated before the fill/list/fold changes of
 * 2026-11-23 put the H100's GPU-only top-down BFS at 108 ms when it ran in 64 ms ('h': that
 * build; 'i': hubs cut across CPU push tasks, a GPU's depth upload skipped between its push levels;
 * 'j': a cost per vertex beside the one per edge for PageRank, CDLP and LCC, fitted from a third graph;
 * '2026-11-29a': the bytes a GPU holds per vertex beside its pages, measured: PageRank's 28 against
 * the 16 its profile declared left the model seeing ~90 page slots more on a GPU capped at 2 GiB).
 */
export const ENGINE_COSTS = '2026-11-29a';

const cacheSchema = z.object({ version: z.literal(3), entries: z.record(z.string(), entrySchema) });
type CacheFile = z.infer<typeof cacheSchema>;

/** The default cache file. */
export function defaultCacheFile(): string {
  return path.join(cacheDir(), 'calibration.json');
}

/** "name#hash": the hash covers the elements (threads, GPUs and their limits) and this host. */
export function topologyKey(t: Topology): string {
  const shape = {
    host: os.hostname(),
    sockets: t.sockets.map((s) => s.threads),
    gpus: t.gpus.map((g) => [g.device, g.emulated, g.memoryLimit ?? null, g.streams]),
  };
  const h = createHash('sha256').update(JSON.stringify(shape)).digest('hex').slice(0, 12);
  return `${t.name}#${h}`;
}

export function cacheKey(t: Topology, program: string, mode: Mode): string {
  return `${topologyKey(t)}|${programProfile(program).algo}|${mode}`;
}

/**
 * The key of the CPU values: the sockets' shape on this host alone, so every topology with the
 * same sockets shares one CPU calibration (a GPU's memory limit does not change the CPU's rate,
 * and two calibrations of the same sockets differ by noise: 10.7 M vs 43.6 M edges/s per thread
 * for BFS on the H100 host's two topologies, which put the 1 GiB curve 4x off).
 */
export function cpuCacheKey(t: Topology, program: string, mode: Mode): string {
  const h = createHash('sha256').update(JSON.stringify({ host: os.hostname(), sockets: t.sockets.map((s) => s.threads) })).digest('hex').slice(0, 12);
  return `sockets#${h}|${programProfile(program).algo}|${mode}`;
}

/**
 * The cache's entries. A missing or empty file is an empty cache, and so is a tessera cache of
 * another version (measured again); a current cache with a damaged entry is refused naming it (the
 * user removes it, the others kept); any other file is refused, never replaced: `--cache` naming
 * the graph or some other file would have turned it into JSON.
 */
export async function readCache(file: string): Promise<CacheFile> {
  const empty: CacheFile = { version: 3, entries: {} };
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return empty;
    throw notACache(file, (e as NodeJS.ErrnoException).code === 'EISDIR' ? 'a directory' : `unreadable (${(e as Error).message})`);
  }
  if (text.trim() === '') return empty;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw notACache(file, 'not JSON');
  }
  const parsed = cacheSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const j = json as { version?: unknown; entries?: unknown };
  if (typeof j === 'object' && j !== null && typeof j.version === 'number' && typeof j.entries === 'object' && j.entries !== null) {
    // A damaged entry in a current cache is refused, never dropped with the rest: the next write
    // would replace every other entry's measurement with this one run's.
    if (j.version === 3) throw damagedEntry(file, j.entries as Record<string, unknown>);
    // Another version's cache is still ours: its entries are measured again.
    return empty;
  }
  throw notACache(file, 'JSON, but no calibration cache (version and entries)');
}

function damagedEntry(file: string, entries: Record<string, unknown>): TesseraError {
  for (const [name, value] of Object.entries(entries)) {
    const r = entrySchema.safeParse(value);
    if (r.success) continue;
    const issue = r.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    return new TesseraError(`calibration cache entry '${name}' is damaged (${field ? `${field}: ` : ''}${issue?.message ?? 'invalid'})`, {
      file,
      key: `entries.${name}${field ? `.${field}` : ''}`,
      fix: 'remove that entry (it is measured again) or the file',
    });
  }
  return notACache(file, 'JSON, but its entries are not an object of entries');
}

function notACache(file: string, what: string): TesseraError {
  return new TesseraError(`this file is not a tessera calibration cache (${what}), and it would be overwritten`, {
    file,
    fix: 'remove it, or give tessera model --cache a new file or an existing calibration cache',
  });
}

/** Merges `entry` into the cached entry under `key` (atomic write). */
export async function writeCacheEntry(file: string, key: string, entry: CacheEntry): Promise<void> {
  const cache = await readCache(file);
  const old = cache.entries[key];
  cache.entries[key] = { ...(old?.engine === ENGINE_COSTS ? old : {}), ...entry, measuredAt: new Date().toISOString(), host: os.hostname(), engine: ENGINE_COSTS };
  const { default: writeFileAtomic } = await import('write-file-atomic');
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFileAtomic(file, JSON.stringify(cache, null, 2) + '\n');
  } catch (e) {
    throw new TesseraError(`cannot write the calibration cache: ${(e as Error).message}`, {
      file,
      fix: 'set TESSERA_CACHE_DIR to a writable directory',
    });
  }
}
