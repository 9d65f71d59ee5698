/**
 * Graphs read from disk page by page (src/graph/store.ts, actors/cpu/arena.ts): every built-in
 * program gives exactly the in-memory results with hostMemoryLimit at 1/8 of the pages' bytes, on
 * one socket of two threads and on two sockets; pages are read, the cache stays within the limit,
 * and damaged files, too small limits and unsupported set-ups are refused in one line.
 */
import test from 'ava';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildGraph } from '../src/graph/build.js';
import { generateEdges } from '../src/graph/generate/index.js';
import { writeTsr } from '../src/graph/tsr.js';
import { loadGraph } from '../src/graph/load.js';
import { arenaBytes, openStoredTsr, pageBytesOf, PageSource, RUN_PAGE, arenaShares, StoredPage, storeArenas } from '../src/graph/store.js';
import { graphIdentity } from '../src/checkpoint.js';
import { activeShares } from '../src/engine/tasks.js';
import { ARENA_CHUNK, PageArena } from '../actors/cpu/arena.js';
import { loadStoreFor, materializeGraph, shareGraph, withArena } from '../actors/cpu/share.js';
import { readTsrHeader } from '../src/graph/tsr-read.js';
import { PROGRAMS } from '../src/programs/index.js';
import { run } from '../src/api.js';
import { isTesseraError } from '../src/errors.js';
import type { Graph } from '../src/graph/types.js';
import { GPU, ONE, topo, TWO, withGpu } from './helpers/topologies.js';

/** An emulated GPU with little memory: its pages come from the file as it loads them. */
const SMALL_GPU = topo([2], [{ device: 0, emulated: true, streams: 2, memoryLimit: 3 << 20 }]);
/** One too small for PageRank's pages: they stream every pass, from the file or the host buffer. */
const TINY_GPU = topo([2], [{ device: 0, emulated: true, streams: 2, memoryLimit: 1 << 19 }]);
import { tessera } from './helpers/cli.js';
import { GpuController, pageWeightBytes, type RunStats } from '../actors/gpu/native.js';
import { nativeDropFileCache } from '../actors/gpu/native-host.js';
import { diskLoad } from '../src/model/disk.js';
import { predict, type ModelParams } from '../src/model/model.js';

const dir = mkdtempSync(path.join(tmpdir(), 'tessera-store-'));
test.after.always(() => rmSync(dir, { recursive: true, force: true }));

/**
 * RMAT 13 (82 k edges: supersteps over the whole graph go to the socket actors, not the
 * coordinator's thread), weighted, 128-edge pages (hubs span split pages), written to a .tsr.
 */
async function tsrOf(name: string, directed: boolean): Promise<{ file: string; graph: Graph; limit: number }> {
  const graph = buildGraph(generateEdges('rmat:13:ef=10:seed=3:weighted'), { pageEdges: 128, ...(directed ? {} : { directed: false }) });
  const file = path.join(dir, `${name}.tsr`);
  await writeTsr(graph, file);
  return { file, graph, limit: Math.floor(pageBytesOf(await readTsrHeader(file)) / 8) };
}

const directed = tsrOf('directed', true);
const undirected = tsrOf('undirected', false);

for (const [label, made] of [['directed', directed], ['undirected', undirected]] as const) {
  test(`every program on a ${label} graph read from disk at 1/8 of its pages equals the in-memory run, on sockets and emulated GPUs`, async (t) => {
    const { file, graph, limit } = await made;
    const { graph: stored } = await loadGraph(file, { hostMemoryLimit: limit });
    t.truthy(stored.out.stored, 'read from disk');
    t.true(graph.out.pages.some((p) => p.split), 'split pages');
    for (const p of PROGRAMS) {
      const params = p.demoParams?.(graph) ?? {};
      // Louvain has no GPU kernels yet (issue 24).
      for (const topology of withGpu && p.gpu !== undefined ? [ONE, TWO, GPU, SMALL_GPU, ...(p.name === 'pr' ? [TINY_GPU] : [])] : [ONE, TWO]) {
        // Against the same topology in memory (a GPU adds floats in another order than sockets),
        // stealing off as a graph on disk has it (a stolen task is added on the thief's side).
        const want = await run(graph, p, { ...params, topology, steal: 'off' });
        const got = await run(stored, p, { ...params, topology });
        const a = got.values as ArrayLike<number>;
        const b = want.values as ArrayLike<number>;
        let bad = a.length === b.length ? -1 : 0;
        // Exact, but floats from GPU actors within 1e-12 relative: the emulated device's threads add
        // a split page's partial sums in the order they finish.
        const tol = topology.gpus.length > 0 && b instanceof Float64Array ? 1e-12 : 0;
        for (let v = 0; v < b.length && bad < 0; v++) if (!Object.is(a[v], b[v]) && !(Math.abs(a[v]! - b[v]!) <= tol * Math.abs(b[v]!))) bad = v;
        t.is(bad, -1, `${p.name} on ${topology.name}: vertex ${bad}: ${a[bad]} vs ${b[bad]}`);
        // PageRank's pulls walk every page each iteration: through the slots, which hold 1/8.
        const disk = got.report.steps.flatMap((s) => s.actors).reduce((a, x) => a + (x.disk?.pages ?? 0), 0);
        if (p.name === 'pr' && topology.gpus.length === 0) t.true(disk >= 10 * (stored.in.pages.length / 2), `${p.name} on ${topology.name}: ${disk} pages read into slots`);
        // The tiny GPU loads PageRank's pages again every pass (GTS streaming): from the file, and
        // from its share of hostMemoryLimit (the host buffer) once read.
        const gpu = (k: 'misses' | 'fileBytes' | 'bufferHits'): number[] => got.report.steps.map((s) => s.actors.reduce((a, x) => a + (x.gpu?.[k] ?? 0), 0));
        if (topology === TINY_GPU) {
          t.true(gpu('misses').slice(1).every((m) => m > 5), `${p.name} on ${topology.name}: ${gpu('misses')} pages loaded`);
          // (Pages without weights, as PageRank's run registers them, may all fit the buffer once read.)
          const sum = (xs: number[]): number => xs.reduce((a, x) => a + x, 0);
          t.true(sum(gpu('fileBytes')) > 0 && sum(gpu('bufferHits')) > 0 && gpu('fileBytes').every((b, i) => b > 0 || gpu('bufferHits')[i]! > 0), `${gpu('fileBytes')} bytes read, ${gpu('bufferHits')} buffer hits`);
        }
      }
    }
  });
}

test('the arenas of every socket fit the limit beside what each thread reads itself', async (t) => {
  const { file, limit } = await directed;
  const g = await openStoredTsr(file, limit);
  const st = g.out.stored!.store;
  for (const threads of [[2], [1, 1], [3, 1]]) {
    const shares = arenaShares(st, threads, 2);
    const readers = (2 + 2 * threads.reduce((a, b) => a + b, 0)) * st.maxBlob;
    t.true(shares.reduce((a, b) => a + b, 0) + readers <= limit, `${threads}`);
    t.true(shares.every((s) => s >= 4 * arenaBytes(st.maxBlob) && s % 8 === 0));
  }
});

test('a limit too small and steal always are refused in one line', async (t) => {
  const { file } = await directed;
  const { graph: tiny } = await loadGraph(file, { hostMemoryLimit: 4096 });
  const e1 = await t.throwsAsync(run(tiny, 'pr', { topology: ONE }));
  t.true(isTesseraError(e1) && /hostMemoryLimit .* is too small for pages of up to .*Fix: raise hostMemoryLimit .* to at least/.test(e1.message) && !e1.message.includes('\n'), e1?.message);
  const { graph } = await loadGraph(file, { hostMemoryLimit: (await directed).limit });
  const e3 = await t.throwsAsync(run(graph, 'pr', { topology: TWO, steal: 'always' }));
  t.true(isTesseraError(e3) && /steal 'always'/.test(e3.message), e3?.message);
});

test('a page damaged after opening is refused, naming the file and the page', async (t) => {
  const { graph, limit } = await directed;
  const file = path.join(dir, 'damaged.tsr');
  await writeTsr(graph, file);
  const { graph: stored } = await loadGraph(file, { hostMemoryLimit: limit });
  const h = await readTsrHeader(file);
  const e = h.pages.in[Math.floor(h.pages.in.length / 2)]!;
  const bytes = readFileSync(file);
  // A neighbour id in the middle of the page's edges (after its offsets).
  const at = e.offset + Math.ceil((4 * (e.vEnd - e.vBegin + 1)) / 8) * 8 + 4 * Math.floor(e.edges / 2);
  bytes.writeUInt32LE(bytes.readUInt32LE(at) ^ 1, at);
  writeFileSync(file, bytes);
  for (const topology of withGpu ? [ONE, TWO, GPU] : [ONE, TWO]) {
    const err = await t.throwsAsync(run(stored, 'pr', { topology }));
    t.true(isTesseraError(err) && err.message.startsWith(`${file}: `) && /page \d+ .*is corrupt/.test(err.message) && !err.message.includes('\n'), err?.message);
  }
});

test('a graph whose pages fit the limit stays in memory; a text graph over it is refused', async (t) => {
  const { file } = await directed;
  const { graph } = await loadGraph(file, { hostMemoryLimit: 1 << 30 });
  t.is(graph.out.stored, undefined);
  const err = await t.throwsAsync(loadGraph('rmat:10', { hostMemoryLimit: 4096 }));
  t.true(isTesseraError(err) && /only a \.tsr is read from disk page by page.*tessera convert/.test(err.message), err?.message);
});

test('tessera run --host-memory and a topology hostMemoryLimit read the .tsr from disk; a bad size is one line', async (t) => {
  const { file, limit } = await directed;
  const mem = path.join(dir, 'sssp.mem');
  const disk = path.join(dir, 'sssp.disk');
  const topoFile = path.join(dir, 'limited.yaml');
  writeFileSync(topoFile, `sockets:\n  - threads: 2\nhostMemoryLimit: ${limit}\n`);
  const common = ['run', '--algo', 'sssp', '--graph', file, '--source', '1'];
  const a = await tessera([...common, '--topology', 'configs/1S.yaml', '--out', mem]);
  const b = await tessera([...common, '--topology', 'configs/1S.yaml', '--host-memory', `${(limit / 1024).toFixed(0)}KiB`, '--out', disk]);
  t.is(a.code, 0, a.stderr);
  t.is(b.code, 0, b.stderr);
  t.regex(b.stdout, /pages from disk: \d+ read/);
  t.is(readFileSync(disk, 'utf8'), readFileSync(mem, 'utf8'));
  const c = await tessera([...common, '--topology', topoFile, '--out', disk]);
  t.is(c.code, 0, c.stderr);
  t.regex(c.stdout, /pages from disk: \d+ read/);
  t.is(readFileSync(disk, 'utf8'), readFileSync(mem, 'utf8'));
  const bad = await tessera([...common, '--host-memory', '12 parsecs']);
  t.is(bad.code, 1);
  t.regex(bad.stderr.trim(), /^[^\n]*--host-memory must be a size such as 8GiB[^\n]*$/);
});

test("the addon's dropFileCache lets a file range's cached pages go, and refuses negative arguments", async (t) => {
  const drop = nativeDropFileCache();
  if (drop === undefined) return t.falsy(process.env.TESSERA_REQUIRE_NATIVE, 'the addon must load');
  const { file } = await directed;
  const fd = openSync(file, 'r');
  try {
    t.is(drop(fd, 0, 1 << 20), 0);
    t.throws(() => drop(fd, -1, 4096), { message: /must be >= 0/ });
  } finally {
    closeSync(fd);
  }
});

test('the arena ring: held pages hold their bytes, never overlap, and the running and next batches stay held', async (t) => {
  const { file, graph, limit } = await directed;
  const maxBlob = (await openStoredTsr(file, limit)).out.stored!.store.maxBlob;
  // The least arena, one of a third of the limit (pages placed as in the file and read in runs, and
  // not), and one of several chunks (a page never spans two).
  const page = arenaBytes(maxBlob, 0);
  for (const [arena, chunk, runPage] of [[4 * page, ARENA_CHUNK, 0], [Math.floor(limit / 3), ARENA_CHUNK, 0], [Math.floor(limit / 3), ARENA_CHUNK, RUN_PAGE], [12 * page, 3 * page + 64, 0]] as const) {
    // Its own pages per pool: a StoredPage keeps the view its source last gave.
    const stored = await openStoredTsr(file, limit);
    const st = stored.out.stored!.store;
    const total = st.entries.length;
    const share = withArena(shareGraph(stored, 1), arena, chunk);
    if (chunk < ARENA_CHUNK) t.true(share.load.store!.chunks!.length >= 4);
    const chunks = share.load.store!.chunks!.map((i) => share.shared[i]!);
    await loadStoreFor(share);
    const pool = new PageArena(st, share.shared[share.load.store!.where!]!, chunks, materializeGraph(share), runPage);
    const source = new PageSource(st, 2, { where: pool.where, chunks });
    let seed = 7;
    const rnd = (k: number): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % k);
    let running = new Set<number>();
    let placed = 0;
    let scanned = 0;
    let cursor = 0;
    for (let round = 0; round < 60; round++) {
      // Rounds 0-29: batches of keys from random places (some held already); 30-59: PageRank's
      // walk, consecutive keys up then down (the actor's passes), where every batch must fit.
      const keys: number[] = [];
      let bytes = 0;
      const scan = round >= 30;
      const up = Math.floor((round - 30) / 8) % 2 === 0;
      let k = scan ? cursor : rnd(total);
      while (keys.length < 64 && bytes + pool.pageBytes(k) <= pool.batchBytes) {
        if (!keys.includes(k)) keys.push(k), (bytes += pool.pageBytes(k));
        k = scan ? (up ? (k + 1) % total : (k + total - 1) % total) : (k + 1 + rnd(3)) % total;
      }
      if (scan) cursor = k;
      const loads = pool.stage(keys, running);
      await pool.fill(loads);
      pool.commit(loads);
      for (const k of running) t.true(pool.where[2 * k]! >= 0, `round ${round}: running page ${k} held`);
      const spans: Array<[number, number, number]> = [];
      for (let k = 0; k < total; k++) {
        if (pool.where[2 * k]! < 0) continue;
        const at = 8 * pool.where[2 * k + 1]!;
        spans.push([pool.where[2 * k]!, at, at + pool.pageBytes(k)]);
        const e = st.entries[k]!;
        const want = (k < graph.out.pages.length ? graph.out : graph.in).pages[e.index]!;
        const got = (k < stored.out.pages.length ? stored.out : stored.in).pages[e.index]!;
        const view = source.page(got as never);
        t.deepEqual(Array.from(view.nbrs), Array.from(want.nbrs), `round ${round}: page ${k}`);
      }
      spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      for (let i = 1; i < spans.length; i++) if (spans[i]![0] === spans[i - 1]![0]) t.true(spans[i]![1] >= spans[i - 1]![2], `round ${round}: overlap`);
      if (keys.every((k) => pool.where[2 * k]! >= 0)) (placed++, round >= 30 && scanned++);
      running = new Set(keys.filter((k) => pool.where[2 * k]! >= 0));
    }
    await pool.close();
    // Gaps left by pages the ring steps over may leave a page of a scattered batch unplaced (its
    // readers then read it themselves); a walk in order always fits.
    t.is(scanned, 30, `arena ${arena}: ${scanned} of 30 batches of a walk placed whole`);
    t.true(placed >= 40, `arena ${arena}: ${placed} of 60 batches placed whole`);
  }
});

test('the model charges a graph on disk its page reads: every page the first pass, the arenas keep the rest later', async (t) => {
  const { file, limit } = await directed;
  const { graph } = await loadGraph(file, { hostMemoryLimit: limit });
  const st = graph.in.stored!;
  const walked = graph.in.pages.reduce((a, p) => a + st.store.entries[st.base + p.index]!.length, 0);
  const load = diskLoad(graph, ONE, 'in', 1e8)!;
  t.is(load.firstPassBytes, walked);
  t.is(load.passBytes, Math.max(0, walked - (limit - (2 + 2 * 2) * st.store.maxBlob)));
  t.true(load.passBytes > 0 && load.passBytes < walked);
  // One socket, compute far below the disk's time: passes x the reads, plus the first pass's extra.
  const params: ModelParams = { elements: [{ name: 'socket0', kind: 'cpu', rate: 1e12, threads: 2 }], c: Infinity, messageBytes: 12, passes: 10, disk: load };
  const p = predict(params, [{ edges: graph.numEdges }], { messages: 0 });
  const want = (load.firstPassBytes - load.passBytes) / 1e8 + 10 * (load.passBytes / 1e8);
  t.true(Math.abs(p.makespanS - want) < 1e-9 * want, `${p.makespanS} vs ${want}`);
  t.true(Math.abs(p.cpuOnlyS - want) < 1e-9 * want);
  t.is(diskLoad((await directed).graph, ONE, 'in', 1e8), undefined, 'a graph in memory reads nothing');
});

test('tessera model --host-memory measures the disk once, caches it and predicts the reads', async (t) => {
  if (nativeDropFileCache() === undefined) return t.falsy(process.env.TESSERA_REQUIRE_NATIVE, 'the addon must load');
  const { file, limit } = await directed;
  const cache = path.join(dir, 'model-cache');
  const args = ['model', '--graph', file, '--algo', 'pr', '--topology', 'configs/1S.yaml', '--host-memory', String(limit), '--cache', path.join(cache, 'calibration.json')];
  const a = await tessera(args);
  t.is(a.code, 0, a.stderr);
  t.regex(a.stdout, /disk\s+\S+ bytes\/s read from disk\s+cold read of /);
  t.regex(a.stdout, /pages from disk: [\d.]+ MiB the first pass, [\d.]+ MiB each later one/);
  t.regex(a.stdout, /disk reads [\d.]+ ms \(overlapped\)/);
  const b = await tessera(args);
  t.regex(b.stdout, /disk\s+\S+ bytes\/s read from disk\s+measured on .* file system \(cached in /);
});

test("a graph on disk is known by its file's page table (no page read) as the same graph in memory, and a checkpointed run on it resumes", async (t) => {
  const { file, limit } = await directed;
  const { graph: stored } = await loadGraph(file, { hostMemoryLimit: limit });
  const { graph: held } = await loadGraph(file);
  t.is(graphIdentity(stored).hash, graphIdentity(held).hash);
  t.is((stored.out.pages[0] as StoredPage).source.bytesRead, 0, 'no page read for the identity');
  const ck = path.join(dir, 'ck');
  const out = path.join(dir, 'pr-resumed');
  const want = path.join(dir, 'pr-whole');
  const args = ['run', '--algo', 'pr', '--graph', file, '--topology', 'configs/1S.yaml', '--host-memory', String(limit)];
  t.is((await tessera([...args, '--out', want, '-q'])).code, 0);
  const killed = await tessera([...args, '--checkpoint', ck, '--checkpoint-every', '2', '--out', out, '-q'], { env: { TESSERA_FAULT: 'worker-exit@5' } });
  t.is(killed.code, 1, killed.stderr);
  const resumed = await tessera(['run', '--resume', ck, '-q']);
  t.is(resumed.code, 0, resumed.stderr);
  t.is(readFileSync(out, 'utf8'), readFileSync(want, 'utf8'));
});

test("pullIf drops the sockets' pull tasks without an active vertex (their pages are not read), not the GPUs'", async (t) => {
  const { graph } = await directed;
  const pages = graph.in.pages;
  const tasks = pages.filter((p) => !p.split).map((p) => ({ page: p.index, count: 1, lo: 0, hi: p.vEnd - p.vBegin, edges: p.edges }));
  const state = new Int32Array(graph.numVertices);
  const target = pages.find((p) => !p.split && p.vEnd - p.vBegin > 1)!;
  state[target.vBegin + 1] = -1;
  const [cpu, gpu] = activeShares([tasks, tasks], 1, pages, state, -1);
  t.deepEqual(cpu!.map((x) => x.page), [target.index]);
  t.is(gpu, tasks);
  // BFS over a graph on disk: its later pull levels leave out the tasks whose vertices are all
  // reached (in memory every level has them all), and give the same depths.
  const { graph: stored } = await loadGraph((await directed).file, { hostMemoryLimit: (await directed).limit });
  const source = graph.ids.toOriginal[0]!;
  const r = await run(stored, 'bfs', { source, topology: ONE, forceMode: 'pull' });
  const m = await run(graph, 'bfs', { source, topology: ONE, forceMode: 'pull' });
  const perLevel = (x: typeof r): number[] => x.report.steps.map((s) => s.actors.reduce((a, y) => a + y.tasks, 0));
  t.true(perLevel(r).at(-1)! < perLevel(r)[0]!, `tasks per level ${perLevel(r)}`);
  t.is(new Set(perLevel(m)).size, 1, `in memory: ${perLevel(m)}`);
  t.deepEqual(Array.from(r.values as Int32Array), Array.from(m.values as Int32Array));
  if (!withGpu) return;
  // GPU actors walk only the pages holding an unreached vertex too (the controller's activePages),
  // in memory as on disk: BFS's later pull levels name fewer pages, with the same depths.
  const GPU_ONLY = { ...GPU, model: { gpuShare: 1 } };
  for (const g of [graph, stored]) {
    const x = await run(g, 'bfs', { source, topology: GPU_ONLY, forceMode: 'pull' });
    const pages = x.report.steps.map((s) => s.actors.reduce((a, y) => a + (y.gpu?.pages ?? 0), 0));
    t.true(pages.at(-1)! < pages[0]!, `GPU pages per level ${pages}`);
    t.deepEqual(Array.from(x.values as Int32Array), Array.from(m.values as Int32Array));
  }
  // The native call itself: pages with a vertex whose i32 state is the value.
  const c = await GpuController.create({ device: 0, emulated: true, streams: 1 });
  try {
    await c.registerPageSet(3, graph.in.pages);
    await c.allocState('depth', 'i32', graph.numVertices);
    await c.writeState('depth', state);
    const want = graph.in.pages.filter((p) => { for (let v = p.vBegin; v < p.vEnd; v++) if (state[v] === -1) return true; return false; }).map((p) => p.index);
    t.deepEqual(Array.from(await c.activePages(3, Uint32Array.from(graph.in.pages, (p) => p.index), 'depth', -1)), want);
    t.true(want.length > 0 && want.length < graph.in.pages.length);
    // u8 flags (a frontier held on the device): pages with a set flag, one flag in every seventh page.
    const flags = new Uint8Array(graph.numVertices);
    const flagged = graph.in.pages.filter((p, i) => i % 7 === 3 && p.vEnd > p.vBegin);
    for (const p of flagged) flags[p.vEnd - 1] = 1;
    await c.allocState('flags', 'u8', graph.numVertices);
    await c.writeState('flags', flags);
    const wantFlags = graph.in.pages.filter((p) => { for (let v = p.vBegin; v < p.vEnd; v++) if (flags[v] === 1) return true; return false; }).map((p) => p.index);
    t.true(wantFlags.length >= flagged.length && wantFlags.length > 0);
    t.deepEqual(Array.from(await c.activePages(3, Uint32Array.from(graph.in.pages, (p) => p.index), 'flags', 1)), wantFlags);
    await t.throwsAsync(c.activePages(3, Uint32Array.of(0), 'nope', -1), { code: 'TS_NO_STATE' });
  } finally {
    await c.close();
  }
});

test("a GPU actor keeps the pages it reads from disk in its host buffer (GTS's MMBuf): later loads skip the file", async (t) => {
  if (!withGpu) return t.pass('no native addon');
  const { file, limit } = await directed;
  const stored = await openStoredTsr(file, limit);
  const pages = stored.in.pages;
  // The controller's page bytes: [offsets u32 x (nv + 1) | nbrs u32 | weights], 8-byte aligned.
  const a8 = (x: number): number => Math.ceil(x / 8) * 8;
  const bytes = pages.reduce((a, p) => a + a8(4 * (p.vEnd - p.vBegin + 1)) + a8(4 * p.edges) + pageWeightBytes(p) * p.edges, 0);
  const n = stored.numVertices;
  // A device that holds two pages at most: every call streams; the host buffer holds them all,
  // none, or some.
  for (const hostBuffer of [4 * bytes, 0, Math.floor(bytes / 3)]) {
    const c = await GpuController.create({ device: 0, emulated: true, memoryLimit: 2 * n * 8 + 40 * 1024, streams: 2, hostBuffer });
    try {
      await c.registerPageSet(1, pages);
      await c.allocState('contrib', 'f64', n);
      await c.allocState('rank', 'f64', n);
      await c.fillState('contrib', 1);
      const call = (): Promise<RunStats> => c.run('pr_pull', { setId: 1, pages: pages.map((p) => p.index), params: { base: 0, d: 1 }, state: { next: 'rank' } });
      const first = await call();
      const second = await call();
      const info = await c.info();
      t.true(info.hostBufferBytes <= hostBuffer, `${info.hostBufferBytes} of ${hostBuffer}`);
      t.true(second.misses > pages.length / 2, `${second.misses} pages loaded again`);
      // Every load of a page not resident on the device reads the file or the buffer, once.
      t.is(first.fileBytes, bytes, `${hostBuffer}: the first call reads every page once`);
      if (hostBuffer >= bytes) {
        t.is(second.fileBytes, 0);
        t.is(second.bufferHits, second.misses);
        t.is(info.bufferedPages, pages.length);
      } else if (hostBuffer === 0) {
        t.is(second.bufferHits, 0);
        t.is(info.bufferedPages, 0);
      } else {
        t.true(second.bufferHits > 0 && second.bufferHits < second.misses, `${second.bufferHits} of ${second.misses}`);
        t.true(second.fileBytes > 0 && second.fileBytes < bytes);
      }
      const rank = await c.readState('rank', new Float64Array(n));
      let bad = -1;
      for (let v = 0; v < n && bad < 0; v++) if (rank[v] !== stored.inDegree[v]) bad = v;
      t.is(bad, -1, `${hostBuffer}: vertex ${bad}`);
    } finally {
      await c.close();
    }
  }
  // A device that holds every page reads each once and buffers none (no page is loaded twice).
  const big = await GpuController.create({ device: 0, emulated: true, streams: 2, hostBuffer: 4 * bytes });
  try {
    await big.registerPageSet(1, pages);
    await big.allocState('contrib', 'f64', n);
    await big.allocState('rank', 'f64', n);
    const call = (): Promise<RunStats> => big.run('pr_pull', { setId: 1, pages: pages.map((p) => p.index), params: { base: 0, d: 1 }, state: { next: 'rank' } });
    t.is((await call()).fileBytes, bytes);
    const again = await call();
    t.is(again.fileBytes + again.misses, 0);
    t.is((await big.info()).bufferedPages, 0);
  } finally {
    await big.close();
  }
  // On a topology, the GPU actor's buffer is its share of hostMemoryLimit; the rest the sockets'.
  const shares = storeArenas(stored, ONE, undefined, [[[0, n]]])!;
  t.true(shares.gpus[0]! > 0 && shares.sockets[0]! > 0);
  t.true(shares.gpus[0]! + shares.sockets[0]! + (2 + 2 * 2) * stored.out.stored!.store.maxBlob <= limit);
  t.is(storeArenas(stored, ONE, undefined, [])!.gpus.length, 0);
});
