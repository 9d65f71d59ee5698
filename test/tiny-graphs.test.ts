/**
 * Every built-in on graphs of one to three vertices, on a socket and beside emulated GPUs owning
 * part or all of them: a state array of a few vertices is padded to 8 bytes, so arrays of
 * different types differ in length there (bc's native steps took dist's length for n and refused
 * a one-vertex graph whose vertex a GPU owned: "bcFwdPull: range out of bounds").
 */
import test from 'ava';
import { buildGraph, openSession, PROGRAMS, run, TesseraError, type Topology } from '../src/index.js';
import { nativeAvailable } from '../actors/gpu/native.js';
import { prepareRun } from '../src/api.js';

const ONE: Topology = { name: 'one', source: 'test', sockets: [{ id: 0, threads: 1 }], gpus: [], interconnect: {}, model: {} };
const EMU: Topology = { ...ONE, name: 'emu', gpus: [{ device: 0, emulated: true, streams: 2 }] };

const graphs: Array<[string, Parameters<typeof buildGraph>[0]]> = [
  ['a self-loop alone', { src: [13], dst: [13], directed: true }],
  ['one edge', { src: [4], dst: [9], directed: true }],
  ['one undirected edge and an isolated vertex', { src: [0], dst: [1], vertices: [0, 1, 2], directed: false }],
  ['a weighted triangle', { src: [0, 1, 2], dst: [1, 2, 0], weights: [1, 2, 3], directed: true }],
];

test('every built-in on one to three vertices equals its reference, on a socket and beside a GPU owning some or all', async (t) => {
  const setups: Array<[string, Record<string, unknown>]> = [['1S', { topology: ONE }]];
  if (nativeAvailable().ok) setups.push(['GPU low 0.6', { topology: EMU, gpuShare: 0.6, partition: 'low' }], ['GPU-only', { topology: EMU, gpuShare: 1 }]);
  for (const [gname, edges] of graphs) {
    const g = buildGraph(edges);
    for (const p of PROGRAMS) {
      // Vertex parameters: the first vertex (original id); weighted programs on the weighted graph only.
      if (p.profile.weighted === true && edges.weights === undefined) continue;
      const first = g.ids.toOriginal[0]!;
      const params: Record<string, unknown> = {};
      for (const [k, spec] of Object.entries(p.params)) if (spec.type === 'vertex') params[k] = first;
      for (const [name, setup] of setups) {
        const label = `${p.name} on ${gname}, ${name}`;
        const r = await run(g, p, { ...params, ...setup } as never);
        const resolved = prepareRun(g, p, params).params;
        const want = p.reference!(g, resolved as never);
        const got = Array.from(r.values as ArrayLike<number>);
        t.is(got.length, want.length, label);
        for (let v = 0; v < got.length; v++) {
          const [a, b] = [got[v]!, want[v]!];
          t.true(a === b || Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b)), `${label}: vertex ${v} ${a} against ${b}`);
        }
      }
    }
  }
});

test('a GPU out of memory while it prepares the program is an error the caller catches (it ended the process)', async (t) => {
  if (!nativeAvailable().ok) return t.pass('no native addon here');
  const g = buildGraph({ src: [0, 1, 2, 2, 3], dst: [1, 2, 0, 3, 0], vertices: [0, 1, 2, 3], directed: true });
  for (const memoryLimit of [400, 600, 800]) {
    const topology: Topology = { ...ONE, name: 'small-gpu', gpus: [{ device: 0, emulated: true, streams: 2, memoryLimit }] };
    await t.throwsAsync(run(g, 'pr', { iterations: 8, topology }), { instanceOf: TesseraError, message: /preparing program 'pr': GPU out of memory/ }, `memoryLimit ${memoryLimit}`);
  }
});

test("in a session under a memoryLimit, another program's run starts without the earlier ones' scratch", async (t) => {
  if (!nativeAvailable().ok) return t.pass('no native addon here');
  const g = buildGraph({ src: [0, 1, 2, 2, 3], dst: [1, 2, 0, 3, 0], vertices: [0, 1, 2, 3], directed: true });
  const topology: Topology = { ...ONE, name: 'small-gpu', gpus: [{ device: 0, emulated: true, streams: 2, memoryLimit: 10000 }] };
  const s = await openSession(g, { topology, gpuShare: 1 });
  try {
    t.deepEqual([...(await s.run('wcc')).values], [0, 0, 0, 0]);
    // Alone, each fits; after wcc, its 8 KiB of sampling scratch left them too little.
    t.deepEqual([...(await s.run('tc')).values], [2, 2, 1, 1]);
    t.deepEqual([...(await s.run('bfs', { source: 0 })).values], [0, 2, 1, 3]);
  } finally {
    await s.close();
  }
});
