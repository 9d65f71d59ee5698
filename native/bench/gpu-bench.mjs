#!/usr/bin/env node
/**
 * Quick throughput check of the native GPU controller on one device (run after `npx tsc` and
 * `node scripts/build-native.mjs`):
 *   node native/bench/gpu-bench.mjs [--scale 22] [--ef 16] [--page-edges 1048576] [--emulated] [--pr-only] [--streams 4,8] [--out file.json]
 * Builds a skewed random graph (low ids are the hubs, as after degree renumbering) straight into
 * pages, then times pr_pull (cold: pages copied; warm: all resident), BFS push / pull, WCC pull,
 * one CDLP iteration, and pr_pull again with a memoryLimit that holds about a third of the pages
 * (streaming + eviction). Checks pr_pull and BFS against plain JS loops.
 */
import { writeFileSync } from 'node:fs';
import { GpuController, bitmapWords } from '../../dist/actors/gpu/native.js';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
};
const scale = Number(opt('scale', 22));
const ef = Number(opt('ef', 16));
const pageEdges = Number(opt('page-edges', 1 << 20));
const emulated = args.includes('--emulated');
const prOnly = args.includes('--pr-only');
// --streams 4,8: the controller's stream count (the first for everything; the others time resident pr_pull again)
const streamsList = String(opt('streams', '4')).split(',').map(Number); // PageRank resident + streaming only (profiling, A/B runs)
const outFile = opt('out', undefined);
const N = 2 ** scale;
const M = N * ef;
const log = (...a) => console.log(`[bench ${((performance.now() - T0) / 1000).toFixed(1)}s]`, ...a);
const T0 = performance.now();

// ---- graph ------------------------------------------------------------------------------------
let s = 0x9e3779b9 >>> 0;
const rnd = () => {
  s ^= s << 13;
  s >>>= 0;
  s ^= s >>> 17;
  s ^= s << 5;
  s >>>= 0;
  return s / 4294967296;
};
const src = new Uint32Array(M);
const dst = new Uint32Array(M);
for (let i = 0; i < M; i++) {
  const a = rnd();
  const b = rnd();
  src[i] = Math.floor(N * a * a * a);
  dst[i] = Math.floor(N * b * b);
}
log(`generated ${M} edges over ${N} vertices`);

function csr(keys, vals) {
  const off = new Uint32Array(N + 1);
  for (let i = 0; i < M; i++) off[keys[i] + 1]++;
  for (let v = 0; v < N; v++) off[v + 1] += off[v];
  const at = off.slice(0, N);
  const nb = new Uint32Array(M);
  for (let i = 0; i < M; i++) nb[at[keys[i]]++] = vals[i];
  return { off, nb };
}
const align8 = (x) => (x + 7) & ~7;
function pages(g) {
  const out = [];
  const make = (vb, ve, eb, ee, split) => {
    const nv = ve - vb;
    const E = ee - eb;
    const buf = new SharedArrayBuffer(align8(4 * (nv + 1)) + align8(4 * E));
    const o = new Uint32Array(buf, 0, nv + 1);
    if (split) o[1] = E;
    else for (let i = 0; i <= nv; i++) o[i] = g.off[vb + i] - eb;
    new Uint32Array(buf, align8(4 * (nv + 1)), E).set(g.nb.subarray(eb, ee));
    out.push({ index: out.length, vBegin: vb, vEnd: ve, edges: E, buffer: buf, split });
  };
  let begin = 0;
  let edges = 0;
  const close = (end) => {
    if (end > begin) make(begin, end, g.off[begin], g.off[end], false);
    begin = end;
    edges = 0;
  };
  for (let v = 0; v < N; v++) {
    const d = g.off[v + 1] - g.off[v];
    if (d > pageEdges) {
      close(v);
      for (let k = 0; k < d; k += pageEdges) make(v, v + 1, g.off[v] + k, g.off[v] + Math.min(d, k + pageEdges), true);
      begin = v + 1;
      continue;
    }
    if (edges + d > pageEdges || v - begin >= pageEdges) close(v);
    edges += d;
  }
  close(N);
  return out;
}
const gin = csr(dst, src);
const gout = csr(src, dst);
const inPages = pages(gin);
const outPages = pages(gout);
log(`${inPages.length} in-pages, ${outPages.length} out-pages (pageEdges ${pageEdges}); max in-degree ${Math.max(...Array.from({ length: 64 }, (_, v) => gin.off[v + 1] - gin.off[v]))}`);

// ---- runs ---------------------------------------------------------------------------------------
const result = { scale, ef, vertices: N, edges: M, pageEdges, inPages: inPages.length, outPages: outPages.length };
const reg = (c, set, ps) => Promise.all(ps.map((p) => c.registerPage(set, p.index, p.buffer, p.vBegin, p.vEnd, p.edges, 0, p.split)));
const ids = (ps) => ps.map((p) => p.index);

async function setup(memoryLimit, streams = streamsList[0]) {
  const c = await GpuController.create({ device: 0, emulated, memoryLimit, streams });
  await reg(c, 0, outPages);
  await reg(c, 1, inPages);
  await c.allocState('contrib', 'f64', N);
  await c.allocState('next', 'f64', N);
  await c.allocState('depth', 'u32', N);
  await c.allocState('fa', 'u32', bitmapWords(N));
  await c.allocState('fb', 'u32', bitmapWords(N));
  await c.allocState('label', 'u32', N);
  await c.allocState('label2', 'u32', N);
  return c;
}

const c = await setup(undefined);
const info = await c.info();
result.device = { name: info.name, cc: info.computeCapability, sms: info.multiProcessors, totalGiB: info.totalMemory / 2 ** 30, memoryLimitGiB: info.memoryLimit / 2 ** 30 };
log(`device: ${info.name} (${info.computeCapability}), limit ${(info.memoryLimit / 2 ** 30).toFixed(1)} GiB`);

const contrib = new Float64Array(N);
for (let v = 0; v < N; v++) contrib[v] = 1 / (1 + (v % 7));
await c.writeState('contrib', contrib);
const prRuns = [];
let resident;
for (let i = 0; i < 11; i++) {
  const t = performance.now();
  const st = await c.run('pr_pull', { setId: 1, pages: ids(inPages), params: { base: 0.15 / N, d: 0.85 } });
  prRuns.push({ wallMs: performance.now() - t, kernelMs: st.kernelMs, copyMs: st.copyMs, misses: st.misses, hits: st.hits, bytesCopied: st.bytesCopied });
}
{
  const got = await c.readState('next', new Float64Array(N));
  let bad = 0;
  for (let v = 0; v < N; v++) {
    let sum = 0;
    for (let e = gin.off[v]; e < gin.off[v + 1]; e++) sum += contrib[gin.nb[e]];
    const want = 0.15 / N + 0.85 * sum;
    if (Math.abs(got[v] - want) > 1e-9 * Math.max(1, Math.abs(want))) bad++;
  }
  result.prPullCorrect = bad === 0;
  resident = got;
  log(`pr_pull check: ${bad} mismatches`);
}
const warm = prRuns.slice(1);
const med = (xs) => xs.slice().sort((a, b) => a - b)[xs.length >> 1];
result.prPull = {
  cold: prRuns[0],
  warmWallMs: med(warm.map((r) => r.wallMs)),
  warmKernelMs: med(warm.map((r) => r.kernelMs)),
  gtepsWarm: M / med(warm.map((r) => r.wallMs)) / 1e6,
  coldCopyGBs: prRuns[0].bytesCopied / (prRuns[0].copyMs / 1000) / 1e9,
};
log('pr_pull', JSON.stringify(result.prPull));
result.prPullByStreams = { [streamsList[0]]: result.prPull.gtepsWarm };
for (const streams of streamsList.slice(1)) {
  const cs = await setup(undefined, streams);
  await cs.writeState('contrib', contrib);
  const walls = [];
  for (let i = 0; i < 11; i++) {
    const t = performance.now();
    await cs.run('pr_pull', { setId: 1, pages: ids(inPages), params: { base: 0.15 / N, d: 0.85 } });
    if (i > 0) walls.push(performance.now() - t);
  }
  result.prPullByStreams[streams] = M / med(walls) / 1e6;
  await cs.close();
}
log('pr_pull GTEPS by stream count', JSON.stringify(result.prPullByStreams));

async function bfs(mode, source) {
  await c.fillState('depth', 0xffffffff);
  await c.fillState('fa', 0);
  await c.fillState('fb', 0);
  await c.writeState('depth', Uint32Array.of(0), source);
  await c.writeState('fa', Uint32Array.of(1 << (source & 31)), source >> 5);
  let [cur, nxt] = ['fa', 'fb'];
  const t = performance.now();
  let kernelMs = 0;
  let level = 0;
  let reached = 1;
  for (; ; level++) {
    const st =
      mode === 'push'
        ? await c.run('bfs_push', { setId: 0, pages: ids(outPages), params: { level }, state: { frontier: cur, next: nxt } })
        : await c.run('bfs_pull', { setId: 1, pages: ids(inPages), params: { level }, state: { frontier: cur, next: nxt } });
    kernelMs += st.kernelMs;
    reached += st.activated;
    if (st.activated === 0) break;
    await c.fillState(cur, 0);
    [cur, nxt] = [nxt, cur];
  }
  return { mode, levels: level, reached, wallMs: performance.now() - t, kernelMs };
}
result.bfs = [];
for (const mode of prOnly ? [] : ['push', 'pull']) {
  const r = await bfs(mode, 0);
  result.bfs.push(r);
  log('bfs', JSON.stringify(r));
}
if (!prOnly) {
  const depth = await c.readState('depth', new Uint32Array(N));
  const want = new Uint32Array(N).fill(0xffffffff);
  want[0] = 0;
  let q = [0];
  while (q.length) {
    const nq = [];
    for (const u of q) for (let e = gout.off[u]; e < gout.off[u + 1]; e++) {
      const v = gout.nb[e];
      if (want[v] === 0xffffffff) {
        want[v] = want[u] + 1;
        nq.push(v);
      }
    }
    q = nq;
  }
  let bad = 0;
  for (let v = 0; v < N; v++) if (depth[v] !== want[v]) bad++;
  result.bfsCorrect = bad === 0;
  log(`bfs check: ${bad} mismatches`);
}
if (!prOnly) {
  await c.writeState('label', Uint32Array.from({ length: N }, (_, i) => i));
  const t = performance.now();
  let rounds = 0;
  let kernelMs = 0;
  for (;;) {
    rounds++;
    const a = await c.run('wcc_pull', { setId: 1, pages: ids(inPages) });
    const b = await c.run('wcc_pull', { setId: 0, pages: ids(outPages) });
    kernelMs += a.kernelMs + b.kernelMs;
    if (a.activated + b.activated === 0 || rounds > 100) break;
  }
  result.wccPull = { rounds, wallMs: performance.now() - t, kernelMs };
  log('wcc_pull', JSON.stringify(result.wccPull));
}
if (!prOnly) {
  await c.writeState('label', Uint32Array.from({ length: N }, (_, i) => i % 1000));
  const t = performance.now();
  const st = await c.run('cdlp_pull', { setId: 1, pages: ids(inPages), state: { label: 'label', next: 'label2' } });
  result.cdlpPull = { wallMs: performance.now() - t, kernelMs: st.kernelMs };
  log('cdlp_pull (in-lists, one iteration)', JSON.stringify(result.cdlpPull));
}
const full = await c.info();
await c.close();

// state copies: a whole f64 array each way, pageable (fresh buffer per readback, as before) vs
// page-locked with pinHost (reused buffer)
if (!prOnly) {
  const cs = await GpuController.create({ device: 0, emulated, streams: 4 });
  await cs.allocState('x', 'f64', N);
  const host = new Float64Array(new SharedArrayBuffer(8 * N));
  host.fill(1.5);
  const gbs = (ms) => (8 * N) / (ms / 1000) / 1e9;
  const timeIt = async (fn) => {
    const xs = [];
    for (let i = 0; i < 4; i++) {
      const t = performance.now();
      await fn();
      xs.push(performance.now() - t);
    }
    return med(xs.slice(1));
  };
  const h2dPageable = await timeIt(() => cs.writeState('x', host));
  const d2hFresh = await timeIt(() => cs.readState('x', new Float64Array(new SharedArrayBuffer(8 * N))));
  const t0 = performance.now();
  const pinned = await cs.pinHost(host);
  const pinMs = performance.now() - t0;
  const h2dPinned = await timeIt(() => cs.writeState('x', host));
  const d2hPinned = await timeIt(() => cs.readState('x', host));
  result.stateCopy = {
    bytes: 8 * N,
    pinned,
    pinMs,
    h2dPageableGBs: gbs(h2dPageable),
    d2hFreshBufferGBs: gbs(d2hFresh),
    h2dPinnedGBs: gbs(h2dPinned),
    d2hPinnedGBs: gbs(d2hPinned),
  };
  log('state copies', JSON.stringify(result.stateCopy));
  await cs.unpinHost(host);
  await cs.close();
}

// streaming: room for about a third of the in-pages; page bytes staged through the pinned ring
// (TESSERA_PIN_PAGES=0, as before) vs page-locked once they stream (the default); then room for
// 8 pages only, so that nearly every page crosses the link every iteration (the link-bound case
// the 55 GB/s figure is about). Results must equal the all-resident run's.
const LINK_GBS = 55;
for (const [key, pin, slots] of [['prPullStreamingStaged', '0', Math.ceil(inPages.length / 3)], ['prPullStreaming', '1', Math.ceil(inPages.length / 3)], ['prPullStreaming8', '1', 8]]) {
  process.env.TESSERA_PIN_PAGES = pin;
  const limit = full.stateBytes + full.scratchBytes + slots * full.slotBytes;
  const cs = await setup(limit);
  await cs.writeState('contrib', contrib);
  const runs = [];
  for (let i = 0; i < 4; i++) {
    const t = performance.now();
    const st = await cs.run('pr_pull', { setId: 1, pages: ids(inPages), params: { base: 0.15 / N, d: 0.85 } });
    runs.push({ wallMs: performance.now() - t, kernelMs: st.kernelMs, copyMs: st.copyMs, hits: st.hits, misses: st.misses, evictions: st.evictions, bytesCopied: st.bytesCopied, slots: st.cacheSlots });
  }
  const last = runs[runs.length - 1];
  const ci = await cs.info();
  const got = await cs.readState('next', new Float64Array(N));
  let bad = 0;
  for (let v = 0; v < N; v++) if (Math.abs(got[v] - resident[v]) > 1e-12 * Math.max(1e-300, Math.abs(resident[v]))) bad++;
  // Edges that crossed the link this iteration (bytes copied / image bytes per edge) and the rate
  // a link-bound pass would reach for them: GTEPS_link = LINK_GBS / bytes per edge.
  const bytesPerEdge = prRuns[0].bytesCopied / M; // the cold pass copied every in-page once
  const h2dGBs = last.bytesCopied / (last.wallMs / 1000) / 1e9;
  result[key] = {
    memoryLimitGiB: limit / 2 ** 30, slots: last.slots, pinnedPages: ci.pinnedPages, runs, correct: bad === 0,
    gteps: M / last.wallMs / 1e6, h2dGBs, bytesPerEdge, linkGBs: LINK_GBS, ofLink: h2dGBs / LINK_GBS,
    gtepsVsLinkBound: M / last.wallMs / 1e6 / (LINK_GBS / bytesPerEdge),
  };
  log(key, JSON.stringify(result[key]));
  await cs.close();
}
delete process.env.TESSERA_PIN_PAGES;
console.log(JSON.stringify(result, null, 2));
if (outFile) writeFileSync(outFile, JSON.stringify(result, null, 2));
