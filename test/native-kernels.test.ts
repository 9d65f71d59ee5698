/** The built-ins' native CPU kernels (native/src/addon_cpu.cpp) against the serial references. */
import test from 'ava';
import { nativeAvailable } from '../actors/gpu/native.js';
import { nativeCpuKernels } from '../actors/gpu/native-host.js';
import { checkKernelCases } from './helpers/kernel-cases.js';
import { loadGraph } from '../src/graph/load.js';
import { pr, pullTs } from '../src/programs/pr/kernels.js';

const avail = nativeAvailable();

test('the addon exports the CPU kernels where it loads', (t) => {
  if (!avail.ok && process.env.TESSERA_REQUIRE_NATIVE !== '1') return t.pass(`no addon here: ${avail.reason}`);
  t.truthy(nativeCpuKernels(), 'cpu kernels');
  for (const k of ['bfsPull', 'bfsPush', 'bfsTeam', 'wccTeam', 'prPull', 'ssspPush', 'ssspPull', 'ssspSelect', 'weightScan', 'undirectedFill', 'louvainIntra', 'louvainRenumber', 'louvainRounds', 'bcFwdPush', 'bcFwdPull', 'bcBackPull', 'bcBackPush'] as const) t.is(typeof nativeCpuKernels()![k], 'function', k);
});

test('bfs, wcc, sssp and bc with the native kernels equal the references', async (t) => {
  await checkKernelCases(t);
});

test('the native kernels check their arguments: one line, no crash', (t) => {
  const cpu = nativeCpuKernels();
  if (cpu === undefined) return t.pass('no addon here');
  const stats = new Float64Array(2);
  const off = new Uint32Array([0, 1, 2]);
  const nbrs = new Uint32Array([1, 0]);
  const depth = new Int32Array(2).fill(-1);
  const bytes = new Uint8Array(2);
  t.throws(() => cpu.bfsPull(off, nbrs, 0, 0, 3, depth, bytes, bytes, 1, stats), { message: /out of bounds/ });
  t.throws(() => cpu.bfsPull(off, nbrs, 0, 0, 2, new Int32Array(1), bytes, bytes, 1, stats), { message: /out of bounds/ });
  t.throws(() => cpu.affVertex(1, new Int32Array(2), new Uint32Array(2), 0, 5), { message: /out of bounds/ });
  t.throws(() => cpu.ssspPull!(off, nbrs, null, 0, 0, 2, new Float64Array(1), bytes, bytes, stats), { message: /out of bounds/ });
  t.throws(() => cpu.bcFwdPull!(off, nbrs, 0, 0, 3, new Int32Array(2), new Float64Array(2), bytes, bytes, 1, stats), { message: /bcFwdPull: range out of bounds/ });
  t.throws(() => cpu.bcBackPull!(off, nbrs, 1, 0, 2, new Int32Array(2), new Float64Array(2), new Float64Array(2), new Float64Array(2), bytes, 1, true, stats), { message: /bcBackPull: range out of bounds/ });
  t.throws(() => cpu.bcFwdPull!(off, nbrs, 0, 0, 2, new Int32Array(2), new Float64Array(2), bytes, bytes, -1, stats), { message: /level must be a whole number/ });
  t.throws(() => cpu.bcBackPull!(off, nbrs, 0, 0, 2, new Int32Array(2), new Float64Array(1), new Float64Array(2), new Float64Array(2), bytes, 1, false, stats), { message: /out of bounds/ });
  t.throws(() => cpu.louvainRenumber!(new Uint32Array([1]), new Int32Array([0, -1]), new Uint32Array(1)), { message: /no new one/ });
  t.throws(() => cpu.louvainIntra!(new Float64Array([0, 1]), new Uint32Array([0]), null, new Uint32Array(1), 0, 0, 2, stats), { message: /out of bounds/ });
  t.throws(() => cpu.ssspPull!(off, nbrs, new Float32Array(1), 0, 0, 2, new Float64Array(2), bytes, bytes, stats), { message: /out of bounds/ });
  t.throws(() => cpu.bfsPull(off, nbrs, 0, 0, 2, depth as never, new Int32Array(2) as never, bytes, 1, stats), { message: /frontier must be a Uint8Array .* or a Uint32Array/ });
  t.throws(() => cpu.bfsPull(off, nbrs, 0, 0, 2, depth, new Uint32Array(1), bytes, 1, stats), { message: /two kinds/ });
  // Vertex 0's in-neighbour 1 is in the frontier, vertex 1's (0) is not.
  const frontier = new Uint8Array([0, 1]);
  const next = new Uint8Array(2);
  cpu.bfsPull(off, nbrs, 0, 0, 2, depth, frontier, next, 1, stats);
  t.deepEqual([...depth, ...next, ...stats], [1, -1, 1, 0, 2, 1]);
  // The same as bits: vertex 1 flagged in the frontier's word; vertex 0's bit set in next.
  depth.fill(-1);
  stats.fill(0);
  const bits = new Uint32Array(1);
  cpu.bfsPull(off, nbrs, 0, 0, 2, depth, new Uint32Array([2]), bits, 1, stats);
  t.deepEqual([...depth, ...bits, ...stats], [1, -1, 1, 2, 1]);
});

test('bfsPull over bits: ranges of any length and alignment, pieces of a page, set the bits the byte maps do, keeping those set before', (t) => {
  const cpu = nativeCpuKernels();
  if (cpu === undefined) return t.pass('no addon here');
  // A page of n vertices (not a multiple of 32) starting at vBegin, in-degrees 0-5, random ends.
  let seed = 12345;
  const rand = (k: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % k;
  const vBegin = 40, n = 997, total = vBegin + n + 21;
  const off = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) off[i + 1] = off[i]! + rand(6);
  const nbrs = Uint32Array.from({ length: off[n]! }, () => rand(total));
  const frBytes = Uint8Array.from({ length: total }, () => (rand(10) < 3 ? 1 : 0));
  const frBits = new Uint32Array((total + 31) >>> 5);
  frBytes.forEach((b, v) => void (frBits[v >>> 5]! |= b << (v & 31)));
  const depth0 = Int32Array.from({ length: total }, () => (rand(2) === 0 ? -1 : 0));
  // Bits set before the pass (outside and inside the page) must stay.
  const before = Uint32Array.from({ length: frBits.length }, () => (rand(4) === 0 ? 1 << rand(32) : 0));
  const wantDepth = depth0.slice(), wantNext = new Uint8Array(total), s1 = new Float64Array(2);
  cpu.bfsPull(off, nbrs, vBegin, 0, n, wantDepth, frBytes, wantNext, 3, s1);
  for (let round = 0; round < 3; round++) {
    // The page cut into pieces of 1-70 vertices, run in a shuffled order.
    const cuts: Array<[number, number]> = [];
    for (let lo = 0; lo < n; ) {
      const hi = Math.min(n, lo + 1 + rand(70));
      cuts.push([lo, hi]);
      lo = hi;
    }
    for (let i = cuts.length - 1; i > 0; i--) {
      const j = rand(i + 1);
      [cuts[i], cuts[j]] = [cuts[j]!, cuts[i]!];
    }
    const depth = depth0.slice(), next = before.slice(), s2 = new Float64Array(2);
    for (const [lo, hi] of cuts) cpu.bfsPull(off, nbrs, vBegin, lo, hi, depth, frBits, next, 3, s2);
    t.deepEqual(Array.from(depth), Array.from(wantDepth), `round ${round}: depths`);
    for (let v = 0; v < total; v++) {
      const bit = (next[v >>> 5]! >>> (v & 31)) & 1;
      const was = (before[v >>> 5]! >>> (v & 31)) & 1;
      if (bit !== (wantNext[v]! | was)) return t.fail(`round ${round}: vertex ${v} bit ${bit}, want ${wantNext[v]! | was}`);
    }
    t.deepEqual(Array.from(s2), Array.from(s1), `round ${round}: edges and vertices found`);
  }
  t.true(s1[1]! > 50, `the pass found ${s1[1]} vertices`);
});

test("degreeSum: a push's listed vertices and a pull's flagged range sum the out-degrees the engine counts", (t) => {
  const cpu = nativeCpuKernels();
  if (cpu?.degreeSum === undefined) return process.env.TESSERA_REQUIRE_NATIVE === '1' ? t.fail('the addon has no degreeSum') : t.pass('no addon here');
  const n = 5000;
  const deg = new Uint32Array(n);
  for (let v = 0; v < n; v++) deg[v] = (v * 2654435761) % 1000;
  const ids = new Uint32Array(n);
  for (let i = 0; i < n; i++) ids[i] = (i * 7919) % n;
  const flags = new Uint8Array(n);
  for (let v = 0; v < n; v += 3) flags[v] = 1;
  for (const k of [0, 1, 17, n]) {
    let want = 0;
    for (let i = 0; i < k; i++) want += deg[ids[i]!]!;
    t.is(cpu.degreeSum(deg, ids, k, null, 0, 0), want, `ids, k ${k}`);
  }
  for (const [lo, hi] of [[0, 0], [0, n], [10, 11], [999, 4001]] as const) {
    let want = 0;
    for (let v = lo; v < hi; v++) if (flags[v] !== 0) want += deg[v]!;
    t.is(cpu.degreeSum(deg, null, 0, flags, lo, hi), want, `flags, [${lo}, ${hi})`);
  }
  t.throws(() => cpu.degreeSum!(deg, ids, n + 1, null, 0, 0), { message: /k out of bounds/ });
  t.throws(() => cpu.degreeSum!(deg, new Uint32Array([n]), 1, null, 0, 0), { message: /id out of bounds/ });
  t.throws(() => cpu.degreeSum!(deg, null, 0, flags, 10, n + 1), { message: /range out of bounds/ });
});

test("prPull equals the TypeScript pull to the bit: the first iteration's r0 and later contributions, pieces of pages, sinks", async (t) => {
  const cpu = nativeCpuKernels();
  if (cpu === undefined) return t.pass('no addon here');
  t.truthy(cpu.prPull);
  const { graph: g } = await loadGraph('rmat:12');
  const n = g.numVertices;
  const args = { base: 0.15 / n, damping: 0.85 };
  const fresh = (): { rank: Float64Array; nextContrib: Float64Array } => ({ rank: new Float64Array(n), nextContrib: new Float64Array(n) });
  let contrib: Float64Array | undefined;
  for (const it of [0, 1, 2]) {
    const [a, b] = [fresh(), fresh()];
    const ta = { active: 0, sum: 0, edges: 0, discovered: undefined }, tb = { ...ta };
    const extra = it === 0 ? { r0: 1 / n } : {};
    for (const p of g.in.pages) {
      if (p.split) continue;
      // Each page in two pieces (tasks cut pages by vertices).
      const cut = (p.vEnd - p.vBegin) >> 1;
      for (const [lo, hi] of [[0, cut], [cut, p.vEnd - p.vBegin]] as const) {
        const ctx = (s: object): never => ({ graph: g, state: { ...s, ...(contrib ? { contrib } : {}) }, args: { ...args, ...extra } }) as never;
        pr.pull!(ctx(a), [p], lo, hi, ta);
        pullTs(ctx(b), [p], lo, hi, tb);
      }
    }
    t.deepEqual([a.rank, a.nextContrib, ta.sum, ta.edges], [b.rank, b.nextContrib, tb.sum, tb.edges], `iteration ${it}`);
    t.true(ta.sum > 0, 'sinks');
    contrib = a.nextContrib;
  }
  t.throws(() => cpu.prPull!(new Uint32Array([0, 1]), new Uint32Array([0]), 0, 0, 2, new Uint32Array(1), null, new Float64Array(1), new Float64Array(1), 0, 1, 1, new Float64Array(2)), { message: /out of bounds/ });
});
