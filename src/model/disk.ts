/**
 * The disk in the performance model (issue 25): a graph read from disk page by page
 * (graph/store.ts) costs each pass the bytes its socket actors read, at the disk's sequential read
 * rate, overlapped with their compute (GTS overlaps page transfers with kernels the same way). The
 * rate is measured once per file system on this host (a cold read of the graph file itself, its
 * kernel cache let go first) and cached beside the CPU and link rates.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import os from 'node:os';
import type { Graph } from '../graph/types.js';
import { KEEP, leastForSockets, readersBytes } from '../graph/store.js';
import type { Topology } from '../topology/schema.js';
import { nativeDropFileCache } from '../../actors/gpu/native-host.js';
import { defaultCacheFile, readCache, writeCacheEntry } from './cache.js';
import type { RateValue } from './calibrate.js';

/** What a pass over a graph on disk reads (ModelParams.disk). */
export interface DiskLoad {
  /** Sequential read bytes per second of the graph file's disk. */
  bytesPerSec: number;
  /** Bytes of pages the first pass reads (every page the sockets walk). */
  firstPassBytes: number;
  /** Bytes a later pass reads on sockets alone: the pages walked, less what the arenas keep from the last pass. */
  passBytes: number;
  /** hostMemoryLimit, what the sockets' single-page readers keep, and the least the sockets take of it (graph/store.ts storeArenas). */
  cacheBytes?: number;
  readersBytes?: number;
  socketLeastBytes?: number;
}

/** Bytes read to measure the disk (or the whole file when smaller). */
const SAMPLE = 256 << 20;
const CHUNK = 16 << 20;

/** The disk's read rate for `file`: cached per file system and host, else measured now (undefined without the addon: a read the kernel's cache may serve is no measurement). */
export async function diskRate(file: string, opts: { cacheFile?: string; refresh?: boolean } = {}): Promise<RateValue | undefined> {
  const cacheFile = opts.cacheFile ?? defaultCacheFile();
  const key = `disk#${createHash('sha256').update(JSON.stringify({ host: os.hostname(), dev: statSync(file).dev })).digest('hex').slice(0, 12)}`;
  const cached = opts.refresh ? undefined : (await readCache(cacheFile)).entries[key]?.diskBytesPerSec;
  if (cached !== undefined) return { value: cached, source: 'cache', note: `measured on ${file}'s file system (cached in ${cacheFile})` };
  const value = await measureDiskRead(file);
  if (value === undefined) return undefined;
  await writeCacheEntry(cacheFile, key, { diskBytesPerSec: value });
  return { value, source: 'measured', note: `cold read of ${file}` };
}

/** Bytes per second of a cold sequential read of up to SAMPLE bytes of `file` (4 reads of CHUNK in flight). */
export async function measureDiskRead(file: string): Promise<number | undefined> {
  const drop = nativeDropFileCache();
  if (drop === undefined) return undefined;
  const fh = await open(file, 'r');
  try {
    const size = Math.min(SAMPLE, (await fh.stat()).size);
    drop(fh.fd, 0, size);
    const bufs = Array.from({ length: 4 }, () => Buffer.allocUnsafe(CHUNK));
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      bufs.map(async (buf) => {
        for (let at = (next++) * CHUNK; at < size; at = (next++) * CHUNK) await fh.read(buf, 0, Math.min(CHUNK, size - at), at);
      }),
    );
    const s = (performance.now() - t0) / 1000;
    drop(fh.fd, 0, size);
    return s > 0 ? size / s : undefined;
  } finally {
    await fh.close();
  }
}

/**
 * The pages a pass walks over a graph on disk and what the socket actors' arenas keep of them:
 * they walk their batches forwards and backwards in turn (actors/cpu/slots.ts), so a pass starts on
 * the arena's worth of pages the last one ended with. Undefined for a graph in memory.
 */
export function diskLoad(graph: Graph, topology: Topology, orientation: 'in' | 'out', bytesPerSec: number): DiskLoad | undefined {
  const set = graph[orientation];
  const st = set.stored;
  if (st === undefined) return undefined;
  let walked = 0;
  for (let i = 0; i < set.pages.length; i++) walked += st.store.entries[st.base + i]!.length;
  const threads = topology.sockets.map((s) => s.threads);
  const readers = readersBytes(st.store, threads, KEEP);
  const arenas = Math.max(0, st.store.cacheBytes - readers);
  const socketLeastBytes = threads.length > 0 ? leastForSockets(st.store, threads, KEEP) : 0;
  return { bytesPerSec, firstPassBytes: walked, passBytes: Math.max(0, walked - arenas), cacheBytes: st.store.cacheBytes, readersBytes: readers, socketLeastBytes };
}
