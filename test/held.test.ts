/**
 * State and frontiers a GPU owning every vertex keeps on its device (actors/gpu/held.ts), on an
 * emulated GPU: bfs and wcc (resident 'device', deviceNext) equal the CPU's results while no
 * superstep copies anything back; a user program's vertexMap between supersteps sees the
 * device's values (the engine brings them back first), and so does a checkpoint; a driver that
 * reads a held frontier's bitmap gets one clear error.
 */
import test from 'ava';
import { mkdtempSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generate, run, TesseraError, type Topology } from '../src/index.js';
import { nativeAvailable } from '../actors/gpu/native.js';
import { EventEmitter } from 'eventemitter3';
import type { EngineEvents } from '../src/engine/coordinator.js';
import type { RunReport } from '../src/engine/report.js';
import { hopsHeld, hopsPeek } from './fixtures/operators/held.js';
import { swapUpdates, type Updates } from '../actors/gpu/held.js';
import type { GpuActor } from '../actors/gpu/gpu-actor.js';
import { referenceBfs, referenceWcc } from './helpers/references.js';
import { rawFrom } from './helpers/raw.js';
import { buildGraph } from '../src/graph/build.js';

const avail = nativeAvailable();
const gpuTest = avail.ok || !avail.toolchainMissing ? test : test.skip;

const CPU: Topology = { name: '1S', source: 'test', sockets: [{ id: 0, threads: 2 }], gpus: [], interconnect: {}, model: {} };
const GPU: Topology = { ...CPU, name: '1S1G-emulated', gpus: [{ device: 0, emulated: true, streams: 2 }] };
const ALONE = { topology: GPU, gpuShare: 1, steal: 'off' } as const;

/** The GPU actor's copies each superstep: [bytes in, bytes out]. */
const copies = (r: RunReport): Array<[number, number]> => r.steps.map((s) => s.actors.filter((a) => a.kind === 'gpu').map((a): [number, number] => [a.gpu!.stateBytesIn, a.gpu!.stateBytesOut])[0]!);

for (const [label, g] of [['rmat:11:ef=8', generate('rmat:11:ef=8', { pageEdges: 256 })], ['rmat:10 undirected', generate('rmat:10', { undirected: true, pageEdges: 128 })]] as const) {
  gpuTest(`bfs and wcc on a GPU owning every vertex (${label}): the CPU's results, nothing copied back between supersteps`, async (t) => {
    const source = g.ids.toOriginal[0]!;
    for (const [name, params] of [['bfs', { source }], ['wcc', {}]] as const) {
      const want = await run(g, name, { ...params, topology: CPU, forceMode: 'pull' });
      for (const forceMode of ['push', 'pull', undefined] as const) {
        const got = await run(g, name, { ...params, ...ALONE, ...(forceMode ? { forceMode } : {}) });
        t.deepEqual(Array.from(got.values), Array.from(want.values), `${name} ${forceMode ?? 'switch'}`);
        const c = copies(got.report);
        // Without a forced mode, one superstep: wcc runs Afforest on the device, bfs every level
        // in one call (index.ts), as many levels as the CPU's supersteps.
        const oneCall = forceMode === undefined;
        t.is(got.report.notes.algorithm as string | undefined, name === 'wcc' ? (oneCall ? 'afforest' : 'label propagation') : undefined);
        t.is(got.report.notes.levels as number | undefined, name === 'bfs' && oneCall ? want.report.supersteps : undefined);
        t.true(oneCall ? c.length === 1 : c.length >= 2, `${name} ran ${c.length} supersteps`);
        // The state goes up once; the frontier never (it is the device's next flags); nothing comes
        // back. (wcc's first push over in-edges of a directed graph brings up the in-degrees, once.)
        const n = g.numVertices;
        t.true(c.slice(1).every(([i, o]) => o === 0 && (i === 0 || (name === 'wcc' && i === 4 * n))), `${name} ${forceMode ?? 'switch'}: ${JSON.stringify(c)}`);
        t.is(c[0]![1], 0);
      }
    }
  });
}

gpuTest('bfs: every level in one call on a GPU owning every vertex equals the reference on random graphs (pages of 3 edges, hubs split, or 64, isolated vertices, any source, pages streaming)', async (t) => {
  const fc = (await import('fast-check')).default;
  const edges = fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 })), { minLength: 1, maxLength: 150 });
  await fc.assert(
    fc.asyncProperty(edges, fc.boolean(), fc.integer({ min: 0, max: 3 }), fc.constantFrom(3, 64), fc.nat(), fc.constantFrom(2, 20, 1000), async (es, undirected, isolated, pageEdges, pick, pullDivisor) => {
      const vertices = [...new Set([...es.flat(), ...Array.from({ length: isolated }, (_, i) => 100 + i)])];
      const g = buildGraph(rawFrom(es, { directed: !undirected, vertices }), { pageEdges });
      const src = pick % g.numVertices;
      const r = await run(g, 'bfs', { source: g.ids.toOriginal[src]!, ...ALONE, pullDivisor });
      t.is(r.report.supersteps, 1);
      t.deepEqual([...r.values], [...referenceBfs(g, src)]);
    }),
    { numRuns: 30 },
  );
  // A cache smaller than the graph: pages stream (loaded one at a time, evicted), the same depths.
  const es: Array<[number, number]> = Array.from({ length: 160 }, (_, i) => [(i * 7) % 53, (i * 13 + 5) % 53]);
  const g = buildGraph(rawFrom(es), { pageEdges: 3 });
  const small: Topology = { ...GPU, gpus: [{ device: 0, emulated: true, streams: 2, memoryLimit: 8192 }] };
  const r = await run(g, 'bfs', { source: g.ids.toOriginal[5]!, ...ALONE, topology: small });
  t.true(r.report.steps.some((st) => st.actors.some((x) => (x.gpu?.evictions ?? 0) > 0)), 'pages streamed');
  t.deepEqual([...r.values], [...referenceBfs(g, 5)]);
});

gpuTest('wcc: Afforest on a GPU owning every vertex equals the reference on random graphs (pages of 3 edges, hubs split, or 64, renumbered ids, isolated vertices)', async (t) => {
  const fc = (await import('fast-check')).default;
  const edges = fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 })), { minLength: 1, maxLength: 120 });
  await fc.assert(
    fc.asyncProperty(edges, fc.boolean(), fc.integer({ min: 0, max: 3 }), fc.constantFrom(3, 64), async (es, undirected, isolated, pageEdges) => {
      // Isolated vertices: listed ids that no edge names (renumbering puts them last).
      const vertices = [...new Set([...es.flat(), ...Array.from({ length: isolated }, (_, i) => 100 + i)])];
      const g = buildGraph(rawFrom(es, { directed: !undirected, vertices }), { pageEdges });
      const r = await run(g, 'wcc', ALONE);
      t.is(r.report.notes.algorithm, 'afforest');
      t.deepEqual([...r.values], [...referenceWcc(g)]);
    }),
    { numRuns: 30 },
  );
  // Cliques chained by single bridges: sampling (two edges a vertex) joins each clique; the other
  // members carry two leaves each, so they outrank the bridges' ends in the degree order and a
  // bridge comes last in both ends' lists: only the final pass can join the chain.
  const chain = fc.tuple(fc.integer({ min: 2, max: 6 }), fc.integer({ min: 4, max: 6 }), fc.array(fc.nat(), { minLength: 12, maxLength: 12 }));
  await fc.assert(
    fc.asyncProperty(chain, fc.boolean(), async ([k, m, picks], undirected) => {
      const es: Array<[number, number]> = [];
      const ends = new Set<number>();
      for (let c = 0; c < k; c++) for (let i = 0; i < m; i++) for (let j = i + 1; j < m; j++) es.push([c * m + i, c * m + j]);
      for (let c = 0; c + 1 < k; c++) {
        const [u, v] = [c * m + (picks[2 * c]! % m), (c + 1) * m + (picks[2 * c + 1]! % m)];
        es.push([u, v]);
        ends.add(u).add(v);
      }
      let leaf = k * m;
      for (let v = 0; v < k * m; v++) if (!ends.has(v)) es.push([v, leaf++], [v, leaf++]);
      const g = buildGraph(rawFrom(es, { directed: !undirected }), { pageEdges: 64 });
      const r = await run(g, 'wcc', ALONE);
      t.deepEqual([...r.values], [...referenceWcc(g)]);
    }),
    { numRuns: 20 },
  );
  // A cache smaller than the graph: pages stream (loaded one at a time, evicted), the same labels.
  const es: Array<[number, number]> = Array.from({ length: 120 }, (_, i) => [(i * 7) % 41, (i * 13 + 5) % 41]);
  const g = buildGraph(rawFrom(es), { pageEdges: 3 });
  const small: Topology = { ...GPU, gpus: [{ device: 0, emulated: true, streams: 2, memoryLimit: 16384 }] };
  const r = await run(g, 'wcc', { ...ALONE, topology: small });
  t.true(r.report.steps.some((st) => st.actors.some((x) => (x.gpu?.evictions ?? 0) > 0)), 'pages streamed');
  t.deepEqual([...r.values], [...referenceWcc(g)]);
});

test('swapUpdates hands each GPU the updates of its vertices: by range among three, as sent between two, none to one owning nothing', (t) => {
  const member = (owned: Array<[number, number]>): GpuActor => ({ owned }) as unknown as GpuActor;
  const box = (ids: number[]): Updates => ({ state: 'depth', op: 'claim', activate: true, ids: Uint32Array.from(ids), values: Float64Array.from(ids, (v) => v + 0.5) });
  const [a, b, c] = [member([[0, 10], [20, 30]]), member([[10, 20]]), member([[30, 40]])];
  const got = swapUpdates([[a, box([15, 35, 12])], [b, box([0, 39, 25])], [c, undefined]]);
  t.deepEqual(got.map((u) => Array.from(u?.ids ?? [])), [[0, 25], [15, 12], [35, 39]]);
  t.deepEqual(got.map((u) => Array.from(u?.values ?? [])), [[0.5, 25.5], [15.5, 12.5], [35.5, 39.5]]);
  t.is(got[0]!.op, 'claim');
  const none = member([]);
  const two = swapUpdates([[a, box([12])], [none, undefined], [b, box([3, 22])]]);
  t.deepEqual(two.map((u) => Array.from(u?.ids ?? [])), [[3, 22], [], [12]]);
  t.deepEqual(swapUpdates([[a, undefined], [b, undefined], [c, undefined]]), [undefined, undefined, undefined]);
});

const TWO: Topology = { ...CPU, name: '1S2G-emulated', sockets: [{ id: 0, threads: 1 }], gpus: [0, 1].map((device) => ({ device, emulated: true, streams: 2 })) };

gpuTest('two GPUs owning every vertex (multiGpu p and s): bfs and wcc hold their state, swap updates of each other\'s vertices, and equal the CPU', async (t) => {
  // The last: one page, so one GPU owns every vertex and the other none (it must not wait for updates).
  for (const g of [generate('rmat:11:ef=8', { pageEdges: 256 }), generate('rmat:10', { undirected: true, pageEdges: 128 }), generate('rmat:8:ef=8', { undirected: true })]) {
    const single = g.in.pages.length === 1;
    const source = g.ids.toOriginal[0]!;
    for (const [name, params] of [['bfs', { source }], ['wcc', {}]] as const) {
      const want = await run(g, name, { ...params, topology: CPU, forceMode: 'pull' });
      for (const multiGpu of ['p', 's'] as const)
        for (const forceMode of ['push', 'pull', undefined] as const) {
          const what = `${g.directed ? 'directed' : 'undirected'} ${name} ${multiGpu} ${forceMode ?? 'switch'}`;
          const got = await run(g, name, { ...params, topology: TWO, gpuShare: 1, steal: 'off', multiGpu, ...(forceMode ? { forceMode } : {}) });
          t.deepEqual(Array.from(got.values), Array.from(want.values), what);
          // Nothing comes back to the host between supersteps; the state goes up in the first only.
          const rows = got.report.steps.map((st) => st.actors.filter((a) => a.kind === 'gpu').map((a) => a.gpu!));
          t.true(rows.every((r) => r.length === 2 && r.every((x) => x.stateBytesOut === 0)), `${what}: nothing read back`);
          t.true(rows.slice(1).every((r) => r.every((x) => x.stateBytesIn === 0 || (name === 'wcc' && x.stateBytesIn === 4 * g.numVertices))), `${what}: nothing uploaded after the first superstep`);
          // Without a forced mode one superstep: bfs's levels in one call on each GPU (each claim
          // written into the other's copy: a GPU whose peer claimed everything first sends none),
          // wcc's Afforest on each (forests merged after each phase).
          const sent = (x: { peerSent?: number }) => (x.peerSent ?? 0) > 0;
          if (rows.length === 1) t.true(forceMode === undefined && (name === 'bfs' ? rows[0]!.some(sent) : rows[0]!.every(sent)), `${what}: one superstep, state exchanged`);
          else {
            t.true(forceMode !== undefined, `${what}: ${rows.length} supersteps without a forced mode`);
            if (!single) t.true(rows.slice(1).some((r) => r.some((x) => (x.peerBytes ?? 0) > 0)), `${what}: the GPUs' ranges went device to device`);
          }
        }
    }
  }
});

gpuTest('a vertexMap between held supersteps reads the device values; a held frontier is not the driver\'s to read', async (t) => {
  const g = generate('rmat:11:ef=8', { pageEdges: 256 });
  const source = g.ids.toOriginal[0]!;
  const cpu = await run(g, hopsHeld, { source, topology: CPU });
  const held = await run(g, hopsHeld, { source, ...ALONE });
  t.deepEqual(Array.from(held.values), Array.from(referenceBfs(g, g.ids.byOriginal[source]!)));
  const counts = (r: RunReport): Array<[string, unknown]> => Object.entries(r.notes).filter(([k]) => k.startsWith('reached'));
  t.true(counts(cpu.report).length >= 1);
  t.deepEqual(counts(held.report), counts(cpu.report));
  // The CPU's frontiers are the driver's; a held one says what to change.
  await t.notThrowsAsync(run(g, hopsPeek, { source, topology: CPU }));
  const err = await t.throwsAsync(run(g, hopsPeek, { source, ...ALONE }));
  t.true(err instanceof TesseraError, String(err));
  t.regex(err!.message, /hops-peek.*deviceNext.*Fix: leave deviceNext out/);
});

gpuTest('a checkpoint of a held run holds the device values: resumed, it ends as the whole run does', async (t) => {
  const g = generate('rmat:11:ef=8', { pageEdges: 256 });
  const source = g.ids.toOriginal[0]!;
  const whole = await run(g, 'bfs', { source, ...ALONE });
  const ck = path.join(mkdtempSync(path.join(os.tmpdir(), 'tessera-held-')), 'ck');
  const stop = new EventEmitter<EngineEvents>();
  stop.on('superstep', (s) => {
    if (s.step === 2) throw new Error('stopped after superstep 2');
  });
  await t.throwsAsync(run(g, 'bfs', { source, ...ALONE, events: stop, checkpoint: { dir: ck, every: 1 } }), { message: /stopped after superstep 2/ });
  const resumed = await run(g, 'bfs', { source, ...ALONE, resume: ck });
  t.true(resumed.report.notes.resumedAt as number >= 2);
  t.deepEqual(Array.from(resumed.values), Array.from(whole.values));
  t.deepEqual(await readdir(ck), []);
});
