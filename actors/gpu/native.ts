/**
 * TS side of the native GPU controller (native/, built by scripts/build-native.mjs into
 * build/Release/). One GpuController per device: it keeps vertex state arrays on the device,
 * caches graph pages in the device memory left under memoryLimit (LRU, GTS), streams missing pages
 * through pinned staging buffers on K streams, and runs the kernels; every call runs on the
 * controller's own native thread and returns a Promise.
 *
 * Two addons, same kernels: tessera_native_cuda.node (CUDA; also runs emulated devices) and
 * tessera_native_host.node (emulated only). The CUDA one is preferred when both exist
 * (TESSERA_NATIVE_FLAVOR=host forces the host one; TESSERA_NATIVE_DIR points at another folder).
 *
 * Page layout (src/graph/types.ts): one SharedArrayBuffer per page,
 *   [offsets u32 x (vEnd-vBegin+1) | nbrs u32 x edges | weights f32/f64 x edges], each part 8-byte aligned.
 * Kernels and the state they use (role -> default array name; `state` in run() renames):
 *   pr_pull     contrib f64 (by neighbour), next f64 (by page vertex); params base, d:
 *               next[v] = base + d * sum of contrib[u] over in-neighbours u (in-pages); with
 *               optional outDeg u32 and nextContrib f64 also the vertex apply over the pages'
 *               vertices in [applyBegin, applyEnd): nextContrib[v] = next[v] / outDeg[v], or 0
 *               when outDeg[v] = 0, whose next[v] are summed into stats.sum (dangling mass)
 *   pr_push     contrib f64, next f64 (accumulated, not zeroed), optional frontier; outbox: sum
 *   bfs_push    depth u32/i32 (0xffffffff / -1 = unvisited), frontier | frontierList (+ frontierSize),
 *               optional next; params level; outbox: min (out-pages)
 *   bfs_pull    depth, frontier, optional next; params level (in-pages)
 *   sssp_push   dist f64, frontier | frontierList, optional next; page weights f32/f64 or 1; outbox: min
 *   wcc_pull    label u32/i32 (in place, min), optional next
 *   wcc_push    label, optional frontier (default: every vertex of the pages), optional next; outbox: min
 *   cdlp_pull   label u32/i32, next u32/i32; the page set must list every neighbour (in + out) of
 *               each vertex: most frequent label, ties to the smallest; a split vertex needs all
 *               its pages in the same call
 *   bc_forward  depth, sigma f64, frontier | frontierList, optional next; params level
 *   bc_forward_pull depth, sigma f64, frontier, optional next; params level (in-pages: an
 *               unvisited vertex sums sigma over its frontier in-neighbours, a positive sum claims it)
 *   bc_backward depth, sigma, delta f64 (zero before the first level of a source), optional bc f64;
 *               params level, source (out-pages; delta[v] for depth[v] == level, bc[v] += delta[v])
 *   lcc_tri     the forward triangle enumeration over N+ in state arrays (controller_tri.cpp)
 *   wcc_afforest Afforest's union-find: comp u32/i32 (scratch), label u32, orig u32;
 *               params phase 0 (rounds) and 1 (from, skip) over pages, 2 without (controller_aff.cpp)
 * An optional role binds to the array of its own name only when the type fits (name it in `state`
 * to be strict). frontier/next are a bitmap (u32 words, ceil(n/32)) or a byte per vertex (u8); `activated` counts
 * vertices newly put in next (or claimed, for BFS). Push kernels with params ownedBegin/ownedEnd
 * (one owned range), or with state role `owned` (a u8 byte map, 1 = owned: several ranges), send
 * updates for vertices they do not own to a device-side outbox instead (one entry per
 * destination, reduced with min or sum) returned as stats.outbox. pr_pull with `owned` applies
 * (next contribution, dangling mass) only to the owned vertices of its pages.
 */
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page, PageSet } from '../../src/graph/types.js';
import { pageView } from '../../src/graph/pages.js';
import type { CopyArrayFn, PopulateFn, FillArrayFn, FillIndexFn, CountEqualFn, FoldFlagsFn, ListFlagsFn, ModelCountFn, NativeCpuKernels, TsrCheckFn, TsrLoadFn } from './native-host.js';

export type StateType = 'f64' | 'f32' | 'u32' | 'i32' | 'u8';
export type StateArray = Float64Array | Float32Array | Uint32Array | Int32Array | Uint8Array;
export type KernelName =
  | 'pr_pull'
  | 'pr_push'
  | 'bfs_push'
  | 'bfs_pull'
  | 'sssp_push'
  | 'wcc_pull'
  | 'wcc_push'
  | 'cdlp_pull'
  | 'bc_forward'
  | 'bc_forward_pull'
  | 'bc_backward'
  /** Forward triangle enumeration over N+ lists in state arrays (native/src/controller_tri.cpp); no pages. */
  | 'lcc_tri'
  /** A synchronous sub-round of Louvain's local moving over its view in state arrays (native/src/controller_louvain.cpp); no pages. */
  | 'louvain_move'
  /** Afforest's three calls (native/src/controller_aff.cpp): params.phase 0 and 1 over pages, 2 without. */
  | 'wcc_afforest'
  /** A claim traversal's levels in one call (native/src/controller_levels.cpp): RunOptions.levels. */
  | 'levels'
  /** PageRank's fixed iterations in one call (native/src/controller_levels.cpp runPrIterations). */
  | 'pr_iterations'
  /** Delta-stepping's buckets in one call, on one GPU owning every vertex (native/src/controller_levels.cpp runSsspSteps). */
  | 'sssp_steps'
  /** Afforest's forests merged across GPUs owning every vertex together (native/src/controller_aff.cpp runAffMerge); no pages. */
  | 'aff_merge'
  /** Reads every offset and neighbour id of the pages and changes nothing (the engine's warm-up: native/src/kernels_util.h KTouch). */
  | 'touch'
  /** A program's GPU operator (operators.ts): user:<module key>:<operator>:<push|pull|vertex>. */
  | `user:${string}`;
export type NativeFlavor = 'cuda' | 'host';

export interface GpuCreateOptions {
  /** CUDA device index (emulated devices: 0..15). */
  device: number;
  /** Run the kernels on the host (no GPU needed); reports always say "emulated". */
  emulated: boolean;
  /** Bytes of device memory the controller may use (state + scratch + page cache). Default: free memory minus a reserve (CUDA), 2 GiB (emulated). */
  memoryLimit?: number;
  /** Streams for overlapping page copies with kernels (default 4). */
  streams?: number;
  /**
   * Page-locked host bytes the controller may keep pages read from disk in (GTS's main-memory
   * buffer, MMBuf): a page loaded from its file with room left stays there and later loads are one
   * DMA from it. Default 0: every load reads the file.
   */
  hostBuffer?: number;
}

export interface GpuTotals {
  calls: number;
  hits: number;
  misses: number;
  evictions: number;
  bytesCopied: number;
  /** Page bytes read from files, and file-backed pages loaded from the host buffer instead. */
  fileBytes: number;
  bufferHits: number;
  /** Times the page cache gave back allocations to make room (state or scratch grew: its last ones) or was resized (all). */
  cacheResets: number;
  /** State read-backs packed on the device into 1 or 2 bytes a value and widened on the host. */
  narrowReads: number;
  copyMs: number;
  kernelMs: number;
  wallMs: number;
}

export interface GpuDeviceInfo {
  device: number;
  name: string;
  emulated: boolean;
  /** Whether the loaded addon was built with CUDA. */
  cudaBuild: boolean;
  computeCapability: string;
  multiProcessors: number;
  totalMemory: number;
  freeMemory: number;
  memoryLimit: number;
  used: number;
  stateBytes: number;
  scratchBytes: number;
  cacheBytes: number;
  slotBytes: number;
  cacheSlots: number;
  residentPages: number;
  registeredPages: number;
  /** Registered pages whose host bytes are page-locked (they streamed: direct DMA from then on). */
  pinnedPages: number;
  /** Host bytes page-locked (pages, pinHost and pinAside views). */
  pinnedHostBytes: number;
  /** Of those, the views pinAside locked (this controller's). */
  pinnedAsideBytes: number;
  /** The host buffer of pages read from disk: page-locked bytes, its limit, the pages it holds. */
  hostBufferBytes: number;
  hostBufferLimit: number;
  bufferedPages: number;
  streams: number;
  totals: GpuTotals;
}

export interface RunOptions {
  setId: number;
  /** Page indices of the set to process (duplicates ignored; resident pages go first). */
  pages: readonly number[] | Uint32Array;
  params?: Record<string, number>;
  /** role -> state array name, when it differs from the role. */
  state?: Record<string, string>;
  /** Kernel 'levels': the push and pull kernels, and the pull's page set and pages (setId/pages: the push's). */
  levels?: { push: KernelName; pull: KernelName; inSet: number; inPages: Uint32Array };
  /** GPU peers' exchange of the array this run writes (native ExchangeSpec; GpuGroup.exchangeFor). */
  exchange?: Exchange;
}

/**
 * Each member of one exchange (the same `tag`, at least 1) posts its array `slot` when its run
 * starts and, once its own kernels are done, copies its `ranges` (begin/end pairs) of it into each
 * peer's posted array, device to device, while the peers' kernels may still run.
 */
export interface Exchange {
  tag: number;
  slot: string;
  ranges: Float64Array;
  peers: GpuController[];
}

export interface RunStats {
  kernel: KernelName;
  /** Distinct pages of the call. */
  pages: number;
  hits: number;
  misses: number;
  evictions: number;
  bytesCopied: number;
  /** Page bytes read from files (disk), and file-backed pages loaded from the host buffer instead. */
  fileBytes: number;
  bufferHits: number;
  /** Sum over page copies (they overlap kernels on other streams). */
  copyMs: number;
  /** Sum over kernels (pages on different streams overlap). */
  kernelMs: number;
  wallMs: number;
  activated: number;
  cacheSlots: number;
  slotBytes: number;
  /** pr_pull with outDeg + nextContrib: the dangling mass of the applied vertices. */
  sum?: number;
  /** Present when params.ownedBegin/ownedEnd or state.owned asked for one; `sent`: messages before aggregation. */
  outbox?: { ids: Uint32Array; values: Float64Array; sent: number };
  /** An exchange: the bytes copied into the peers' arrays, and the wall ms waited for their posts. */
  peerBytes?: number;
  peerWaitMs?: number;
  /** Kernel 'levels': the levels run, the edges they walked, a letter a level (T push, B pull). */
  levels?: number;
  edges?: number;
  directions?: string;
  /** Kernel 'levels': each level's wall ms as [pages to walk, kernel call, meeting with the peers, next frontier]. */
  levelTimes?: number[][];
}

/** A page's bytes for the controller: a view of its buffer, or its place in a file (read whenever it is loaded). */
type PageBytes = Uint8Array | { fd: number; offset: number; length: number };

interface NativeControllerHandle {
  info(): Promise<GpuDeviceInfo>;
  allocState(name: string, type: StateType, n: number): Promise<void>;
  freeState(name: string): Promise<void>;
  freeScratch(): Promise<void>;
  writeState(name: string, data: StateArray, offset?: number): Promise<void>;
  readState<T extends StateArray>(name: string, into: T, offset?: number): Promise<T>;
  fillState(name: string, value: number): Promise<void>;
  copyState(dst: string, src: string, begin: number, end: number): Promise<void>;
  takeState(dst: string, src: string): Promise<void>;
  copyFromPeer(peer: NativeControllerHandle, src: string, dst: string, ranges: Float64Array): Promise<number>;
  enablePeer(peer: NativeControllerHandle): Promise<boolean>;
  flaggedDegrees(flags: string, deg: string, begin: number, end: number): Promise<number>;
  scatterState(name: string, ids: Uint32Array, values: StateArray, op?: 'claim' | 'min' | 'max', next?: string): Promise<void | number>;
  activePages(setId: number, pages: Uint32Array, state: string, value: number): Promise<Uint32Array>;
  preload(setId: number, pages: Uint32Array, reserve: number): Promise<number>;
  pinHost(view: StateArray): Promise<boolean>;
  unpinHost(view: StateArray): Promise<void>;
  pinAside(view: StateArray): Promise<boolean>;
  unpinAside(view: StateArray): Promise<void>;
  compact(flags: string, state: string, begin: number, end: number, mask?: string, before?: string, delta?: boolean): Promise<{ ids: Uint32Array; values: Float64Array }>;
  registerPage(setId: number, pageIndex: number, bytes: PageBytes, vBegin: number, vEnd: number, edges: number, weightBytes: number, split?: boolean): Promise<void>;
  registerPages(setId: number, pages: Array<[number, PageBytes, number, number, number, number, boolean | undefined]>): Promise<void>;
  unregisterSet(setId: number): Promise<void>;
  run(kernel: string, opts: Omit<RunOptions, 'exchange'> & { exchange?: Omit<Exchange, 'peers'> & { peers: NativeControllerHandle[] } }): Promise<RunStats>;
  abortExchanges(tag: number): void;
  loadOperators(key: string, path: string, source: string, cubin?: Uint8Array): Promise<Uint8Array | undefined>;
  close(): Promise<void>;
}

/** The addon's exports (native/src/addon_info.cpp ExportFunctions). */
export interface NativeModule {
  create(opts: GpuCreateOptions): Promise<NativeControllerHandle>;
  cudaDeviceCount(): { count: number; reason?: string };
  foldFlags?: FoldFlagsFn;
  listFlags?: ListFlagsFn;
  fillArray?: FillArrayFn;
  populate?: PopulateFn;
  copyArray?: CopyArrayFn;
  fillIndex?: FillIndexFn;
  countEqual?: CountEqualFn;
  tsrCheck?: TsrCheckFn;
  modelCount?: ModelCountFn;
  tsrLoad?: TsrLoadFn;
  tsrStop?: () => void;
  dropFileCache?: (fd: number, offset: number, length: number) => number;
  cpu?: NativeCpuKernels;
  nvrtc?: () => { ok: boolean; reason?: string };
  flavor: NativeFlavor;
  napiVersion: number;
  abiVersion: number;
}

/** build/native-status.json as scripts/build-native.mjs writes it. */
export interface NativeBuildStatus {
  ok: boolean;
  toolchainMissing: boolean;
  host: boolean;
  cuda: boolean;
  reason?: string;
  seconds?: number;
  builtAt?: string;
}

export type NativeAvailability =
  | { ok: true; flavor: NativeFlavor; file: string; cudaDevices: number; cudaReason?: string; cudaLoadError?: string }
  | { ok: false; reason: string; toolchainMissing: boolean; status?: NativeBuildStatus };

const here = path.dirname(fileURLToPath(import.meta.url));

/** The package root: the nearest folder above this module whose package.json is tessera's. */
function packageRoot(): string {
  let dir = here;
  for (let i = 0; i < 8; i++) {
    const pj = path.join(dir, 'package.json');
    if (existsSync(pj)) {
      try {
        if ((JSON.parse(readFileSync(pj, 'utf8')) as { name?: string }).name === 'tessera') return dir;
      } catch {
        // keep looking
      }
    }
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return path.resolve(here, '../../..');
}

function addonDir(): string {
  return process.env.TESSERA_NATIVE_DIR ?? path.join(packageRoot(), 'build', 'Release');
}

/** What the last build recorded, if it ran. */
export function nativeBuildStatus(): NativeBuildStatus | undefined {
  const f = path.join(process.env.TESSERA_NATIVE_DIR ? path.dirname(process.env.TESSERA_NATIVE_DIR) : path.join(packageRoot(), 'build'), 'native-status.json');
  try {
    return JSON.parse(readFileSync(f, 'utf8')) as NativeBuildStatus;
  } catch {
    return undefined;
  }
}

let loaded: { mod: NativeModule; file: string; cudaLoadError?: string } | { error: string } | undefined;

function load(): { mod: NativeModule; file: string; cudaLoadError?: string } | { error: string } {
  if (loaded) return loaded;
  const req = createRequire(import.meta.url);
  const dir = addonDir();
  const order: NativeFlavor[] = process.env.TESSERA_NATIVE_FLAVOR === 'host' ? ['host'] : ['cuda', 'host'];
  const errors: string[] = [];
  let cudaLoadError: string | undefined;
  for (const flavor of order) {
    const file = path.join(dir, `tessera_native_${flavor}.node`);
    if (!existsSync(file)) continue;
    try {
      const mod = req(file) as NativeModule;
      loaded = { mod, file, cudaLoadError };
      return loaded;
    } catch (e) {
      const msg = `${path.basename(file)}: ${(e as Error).message}`;
      errors.push(msg);
      if (flavor === 'cuda') cudaLoadError = msg;
    }
  }
  // The npm package's prebuilt host addon (prebuilds/<platform>-<arch>/, node-gyp-build).
  if (!process.env.TESSERA_NATIVE_DIR && errors.length === 0) {
    try {
      const file = (req('node-gyp-build') as { path(dir: string): string }).path(packageRoot());
      const mod = req(file) as NativeModule;
      loaded = { mod, file };
      return loaded;
    } catch (e) {
      if (!/No native build was found/.test((e as Error).message)) errors.push(`prebuilt: ${(e as Error).message.split('\n')[0]}`);
    }
  }
  loaded = { error: errors.length > 0 ? `the native addon does not load (${errors.join('; ')})` : `no native addon in ${dir}` };
  return loaded;
}

/**
 * Whether the native controller can be used here, and if not why. `toolchainMissing` is true only
 * when the build found no cmake or no C++ compiler (then running without it is expected).
 */
export function nativeAvailable(): NativeAvailability {
  const l = load();
  if ('mod' in l) {
    const c = l.mod.cudaDeviceCount();
    return { ok: true, flavor: l.mod.flavor, file: l.file, cudaDevices: c.count, cudaReason: c.reason, cudaLoadError: l.cudaLoadError };
  }
  const status = nativeBuildStatus();
  // TESSERA_REQUIRE_NATIVE=1 (CI, which has the toolchain): a missing toolchain is a failure too.
  if (status && !status.ok) return { ok: false, reason: status.reason ?? l.error, toolchainMissing: status.toolchainMissing && process.env.TESSERA_REQUIRE_NATIVE !== '1', status };
  const hint = status ? '' : ' Fix: run `node scripts/build-native.mjs` (needs cmake >= 3.18 and a C++17 compiler; nvcc for CUDA).';
  return { ok: false, reason: `${l.error}.${hint}`, toolchainMissing: false, status };
}

/** Whether GPU operators can be compiled for a real GPU here (NVRTC loads), and if not why. */
export function nvrtcStatus(): { ok: boolean; reason?: string } {
  const l = load();
  if (!('mod' in l)) {
    const a = nativeAvailable();
    return { ok: false, reason: a.ok ? l.error : a.reason };
  }
  return l.mod.nvrtc?.() ?? { ok: false, reason: 'the native addon predates GPU operators; rebuild it (node scripts/build-native.mjs)' };
}

function nativeModule(): NativeModule {
  const l = load();
  if ('mod' in l) return l.mod;
  const a = nativeAvailable();
  const e = new Error(`GPU controller unavailable: ${a.ok ? l.error : a.reason}`) as Error & { code: string };
  e.code = 'TS_NO_NATIVE';
  throw e;
}

/** The loaded addon's exports, or undefined without an addon (native-host.ts reads its host passes from here). */
export function addonModule(): NativeModule | undefined {
  const l = load();
  return 'mod' in l ? l.mod : undefined;
}

/** A page read from disk's place in its file (graph/store.ts StoredPage.blob), else undefined. */
function fileBlob(p: Page): { file: string; offset: number; length: number; weightBytes: number } | undefined {
  return (p as { blob?: { file: string; offset: number; length: number; weightBytes: number } }).blob;
}

/** Bytes per weight of a page (0 when unweighted), without reading a page on disk. */
export function pageWeightBytes(p: Page): number {
  const blob = fileBlob(p);
  if (blob !== undefined) return blob.weightBytes;
  return p.weights === undefined ? 0 : p.weights.BYTES_PER_ELEMENT;
}

/** Bytes of a page's buffer, without reading a page on disk. */
export function pageBufferBytes(p: Page): number {
  return fileBlob(p)?.length ?? pageView(p).byteLength;
}

/** Bytes a GPU holds of a page registered without its weights (registerPageSet): its offsets and neighbours, 8-byte aligned each. */
export function pageBytesWithoutWeights(p: Page): number {
  const align8 = (x: number): number => Math.ceil(x / 8) * 8;
  return align8(4 * (p.vEnd - p.vBegin + 1)) + align8(4 * p.edges);
}

/** Words of a frontier bitmap for n vertices. */
export function bitmapWords(n: number): number {
  return Math.ceil(n / 32);
}

/** GpuController.spent: wall ms awaiting page-locks (and unlocks), uploads, readbacks. */
export interface GpuSpent {
  pinMs: number;
  writeMs: number;
  readMs: number;
}

export class GpuController {
  private constructor(
    private readonly h: NativeControllerHandle,
    readonly flavor: NativeFlavor,
    readonly options: Readonly<GpuCreateOptions>,
  ) {}

  /** Opens a device (off the JS thread). Rejects with code TS_BAD_DEVICE / TS_NO_DEVICE / TS_NO_CUDA / TS_NO_NATIVE. */
  static async create(opts: GpuCreateOptions): Promise<GpuController> {
    const mod = nativeModule();
    const h = await mod.create({ ...opts });
    return new GpuController(h, mod.flavor, { ...opts });
  }

  info(): Promise<GpuDeviceInfo> {
    return this.h.info();
  }

  /** Allocates (or reallocates when type/length differ) a zeroed device array. */
  allocState(name: string, type: StateType, n: number): Promise<void> {
    return this.h.allocState(name, type, n);
  }

  freeState(name: string): Promise<void> {
    return this.h.freeState(name);
  }

  /** Frees the device's scratch buffers (Controller::freeScratch): another program runs next. */
  freeScratch(): Promise<void> {
    return this.h.freeScratch();
  }

  /**
   * Wall ms callers spent awaiting page-locks, state uploads and readbacks (for the report: a GPU
   * superstep's time outside its kernels). Overlapping calls each count their own wait.
   */
  readonly spent: GpuSpent = { pinMs: 0, writeMs: 0, readMs: 0 };

  /** What `spent` grew by since `mark` (a copy taken earlier). */
  spentSince(mark: GpuSpent): GpuSpent {
    return { pinMs: this.spent.pinMs - mark.pinMs, writeMs: this.spent.writeMs - mark.writeMs, readMs: this.spent.readMs - mark.readMs };
  }

  private async timed<T>(key: keyof GpuSpent, p: Promise<T>): Promise<T> {
    const t0 = performance.now();
    try {
      return await p;
    } finally {
      this.spent[key] += performance.now() - t0;
    }
  }

  /** Copies data into state[name][offset, offset + data.length); the typed array type must match. */
  writeState(name: string, data: StateArray, offset = 0): Promise<void> {
    return this.timed('writeMs', this.h.writeState(name, data, offset));
  }

  /** Copies state[name][offset, offset + into.length) into `into` and resolves with it. */
  readState<T extends StateArray>(name: string, into: T, offset = 0): Promise<T> {
    return this.timed('readMs', this.h.readState(name, into, offset));
  }

  fillState(name: string, value: number): Promise<void> {
    return this.h.fillState(name, value);
  }

  /** state[dst][begin, end) = state[src][begin, end), on the device (same type; nothing crosses the link). */
  copyState(dst: string, src: string, begin: number, end: number): Promise<void> {
    return this.h.copyState(dst, src, begin, end);
  }

  /** state[dst] takes state[src]'s values and state[src] is zeroed (one type and length): the arrays swap names on the device, nothing is copied. */
  takeState(dst: string, src: string): Promise<void> {
    return this.h.takeState(dst, src);
  }

  /**
   * dst[b, e) = the peer controller's src[b, e) for each range, device to device (GTS §4.1's
   * peer copies; through the host where the devices cannot reach each other). The peer must run
   * nothing meanwhile (GpuGroup's barrier). Resolves with the bytes copied.
   */
  copyFromPeer(peer: GpuController, src: string, dst: string, ranges: ReadonlyArray<readonly [number, number]>): Promise<number> {
    return this.h.copyFromPeer(peer.h, src, dst, Float64Array.from(ranges.flat()));
  }

  /** Sum of deg[v] (a u32 array) over the v in [begin, end) whose u8 flag is set, on the device. */
  flaggedDegrees(flags: string, deg: string, begin: number, end: number): Promise<number> {
    return this.h.flaggedDegrees(flags, deg, begin, end);
  }

  /**
   * state[name][ids[i]] = values[i] on the device (values of the array's type): a few scattered
   * entries without copying the range around them (a frontier list, the host's folded changes).
   */
  scatterState(name: string, ids: Uint32Array, values: StateArray): Promise<void> {
    return this.timed('writeMs', this.h.scatterState(name, ids, values) as Promise<void>);
  }

  /**
   * name[ids[i]] reduced with values[i] on the device ('claim': set where -1; 'min'; 'max'; values
   * of the array's type), marking the u8 array `next` where a value changed: resolves with the
   * fresh marks (updates other GPUs sent for the vertices this one owns).
   */
  mergeState(name: string, ids: Uint32Array, values: StateArray, op: 'claim' | 'min' | 'max', next: string): Promise<number> {
    return this.timed('writeMs', this.h.scatterState(name, ids, values, op, next) as Promise<number>);
  }

  /**
   * The pages of `pages` (set setId) holding a vertex v whose i32 array state[v] equals `value`
   * (EdgeMapOptions.pullIf: a pull need walk no other); all of them for an array of another type.
   */
  activePages(setId: number, pages: Uint32Array, state: string, value: number): Promise<Uint32Array> {
    return this.h.activePages(setId, pages, state, value);
  }

  /**
   * Copies the registered pages `pages` of set setId into the page cache before any run, where the
   * cache holds every registered page and `reserve` bytes stay free (else none): resolves with the
   * number copied.
   */
  preload(setId: number, pages: Uint32Array, reserve: number): Promise<number> {
    return this.h.preload(setId, pages, reserve);
  }

  /** Lets this device read the peer's memory directly (NVLink, PCIe P2P); false where it cannot. */
  enablePeer(peer: GpuController): Promise<boolean> {
    return this.h.enablePeer(peer.h);
  }

  /**
   * Page-locks the bytes of `view` (cudaHostRegister) so writeState/readState from/to views inside
   * it are direct DMA at link speed instead of pageable copies. Resolves false when the device
   * cannot (e.g. the range overlaps one already locked); copies then still work. The controller
   * keeps the view alive until unpinHost(view) with the same view, or close.
   */
  pinHost(view: StateArray): Promise<boolean> {
    return this.timed('pinMs', this.h.pinHost(view));
  }

  unpinHost(view: StateArray): Promise<void> {
    return this.timed('pinMs', this.h.unpinHost(view));
  }

  /**
   * pinHost on the controller's side thread: its calls go on meanwhile (not timed: off every
   * run's path). Once it resolves true, every GPU's copies to and from views inside it are direct
   * DMA. Held, the view kept alive, until unpinAside(view) or close.
   */
  pinAside(view: StateArray): Promise<boolean> {
    return this.h.pinAside(view);
  }

  /** Unlocks a view pinAside locked, after the side thread's earlier jobs; no copy may still use it. */
  unpinAside(view: StateArray): Promise<void> {
    return this.h.unpinAside(view);
  }

  /**
   * The vertices v in [begin, end) whose u8 array `flags` is non-zero, with state[v] as a double,
   * in no particular order (compacted on the device: O(changed) bytes cross the link). `mask`
   * names a u8 array: only the vertices whose byte is set.
   */
  compact(flags: string, state: string, begin: number, end: number, mask?: string): Promise<{ ids: Uint32Array; values: Float64Array }> {
    return mask === undefined ? this.h.compact(flags, state, begin, end) : this.h.compact(flags, state, begin, end, mask);
  }

  /**
   * The vertices of [begin, end) whose value of `state` differs from the device array `before`
   * (same type), with their new values, or with `delta` the differences: a changed set read back
   * in O(changed) bytes, found on the device.
   */
  changes(state: string, before: string, begin: number, end: number, delta: boolean): Promise<{ ids: Uint32Array; values: Float64Array }> {
    return this.h.compact('', state, begin, end, undefined, before, delta);
  }

  /**
   * Registers one page (the controller keeps a reference to its bytes until the page is replaced,
   * its set unregistered or the controller closed). split: undefined infers it from neighbours.
   */
  registerPage(setId: number, pageIndex: number, bytes: SharedArrayBuffer | Uint8Array, vBegin: number, vEnd: number, edges: number, weightBytes: number, split?: boolean): Promise<void> {
    return this.h.registerPage(setId, pageIndex, bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes), vBegin, vEnd, edges, weightBytes, split);
  }

  /** Files that pages read from disk come from (pageArgs), open while the controller is. */
  private readonly files = new Map<string, number>();

  /**
   * Registers every page of a PageSet under setId in one call: the controller checks and tiles
   * them on its copy threads together (one call a page ran each after the other on its thread:
   * RMAT 24's 527 pages took 250-370 ms of an engine's start on an H200 host, ~100 together). A
   * page read from disk (graph/store.ts) is registered as its place in the file, which the
   * controller reads whenever it loads the page (disk -> pinned staging -> device). `weights`
   * false: each page as if unweighted (its offsets and neighbours, the buffer's leading bytes):
   * kernels then read every weight as 1, for programs that read none.
   */
  async registerPageSet(setId: number, set: PageSet | readonly Page[], weights = true): Promise<void> {
    const pages = Array.isArray(set) ? (set as readonly Page[]) : (set as PageSet).pages;
    if (pages.length > 0) await this.h.registerPages(setId, pages.map((p) => this.pageArgs(p, weights)));
  }

  /** registerPage's arguments for page p after the set: its bytes, or for a page read from disk (graph/store.ts) its place in the file. */
  private pageArgs(p: Page, weights: boolean): [number, PageBytes, number, number, number, number, boolean | undefined] {
    const blob = fileBlob(p);
    if (blob === undefined) return [p.index, pageView(p), p.vBegin, p.vEnd, p.edges, weights ? pageWeightBytes(p) : 0, p.split];
    // Checked here once (checksum, ids: PageSource's first read); the controller has no checksum.
    void p.nbrs;
    let fd = this.files.get(blob.file);
    if (fd === undefined) this.files.set(blob.file, (fd = openSync(blob.file, 'r')));
    return [p.index, { fd, offset: blob.offset, length: blob.length }, p.vBegin, p.vEnd, p.edges, weights ? blob.weightBytes : 0, p.split];
  }

  unregisterSet(setId: number): Promise<void> {
    return this.h.unregisterSet(setId);
  }

  run(kernel: KernelName, opts: RunOptions): Promise<RunStats> {
    const x = opts.exchange;
    if (x === undefined) return this.h.run(kernel, opts as Omit<RunOptions, 'exchange'>);
    return this.h.run(kernel, { ...opts, exchange: { ...x, peers: x.peers.map((p) => p.h) } });
  }

  /** Ends (TS_PEER) this controller's waits for peers' exchange posts up to `tag`: a run torn down. Not queued. */
  abortExchanges(tag: number): void {
    this.h.abortExchanges(tag);
  }

  /**
   * Loads user operator module `key` (native/src/controller_user.cpp): emulated, the shared object
   * at `path`; CUDA, `cubin`, else `source` compiled by NVRTC (resolves with that cubin).
   */
  loadOperators(key: string, path: string, source: string, cubin?: Uint8Array): Promise<Uint8Array | undefined> {
    return this.h.loadOperators(key, path, source, cubin);
  }

  /** Frees the device memory and stops the controller's thread; later calls reject with TS_CLOSED. */
  async close(): Promise<void> {
    await this.h.close();
    for (const fd of this.files.values()) closeSync(fd);
    this.files.clear();
  }
}

/** Same as GpuController.create. */
export function createGpuController(opts: GpuCreateOptions): Promise<GpuController> {
  return GpuController.create(opts);
}
