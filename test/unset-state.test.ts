/**
 * State declared `init: 'unset'` is not filled: a program promises to write every entry before
 * reading it. TESSERA_POISON_UNSET=1 (set for this file's process) starts such arrays as garbage,
 * so PageRank, which declares its three arrays unset, bfs (its depth), wcc (its labels, which
 * Afforest on the sockets starts in its final linking pass), sssp (dist) and bc (dist, sigma,
 * delta) are checked to keep the promise on sockets
 * and emulated GPUs, on fresh engines and on engines that reuse an earlier run's arrays.
 */
import test from 'ava';
import { nativeAvailable } from '../actors/gpu/native.js';
import { Engine, type EngineOptions } from '../src/engine/coordinator.js';
import { defineProgram } from '../src/engine/define.js';
import { isTesseraError } from '../src/errors.js';
import type { Topology } from '../src/topology/schema.js';
import { algorithm } from './helpers/programs.js';
import { firstMismatch, paramsFor, rmat } from './helpers/gpu-compare.js';

process.env.TESSERA_POISON_UNSET = '1';

const avail = nativeAvailable();
const withGpu = !avail.ok && avail.toolchainMissing ? test.skip : test;
const sockets = (threads: number[]): Topology => ({ name: `${threads.length}S`, source: 'test', sockets: threads.map((t, id) => ({ id, threads: t })), gpus: [], interconnect: {}, model: {} });
const oneGpu: Topology = { ...sockets([1]), name: '1S1G', gpus: [{ device: 0, emulated: true, streams: 2 }] };

test("an 'unset' array is not filled: here it starts as garbage, which a program that reads it first returns", async (t) => {
  const g = rmat(true);
  const spec = {
    name: 'peek',
    summary: 'returns an unset array unwritten',
    params: {},
    state: { x: { type: 'u32', init: 'unset', reduce: 'owner' }, y: { type: 'u32', init: 7, reduce: 'owner' } },
    output: 'int',
    kernels: new URL('./fixtures/operators/kernels.js', import.meta.url),
    profile: { mode: 'pull', stateBytesPerVertex: 8, passes: 1, unit: 'run', vertexTerm: false },
    async run(ctx: { state: { x: Uint32Array; y: Uint32Array } }) {
      t.is(ctx.state.y[0], 7, 'a numeric init is filled');
      return ctx.state.x;
    },
  } as const;
  const e = await Engine.create(g, sockets([1]), {});
  try {
    const r = await e.run(defineProgram(spec as never) as never, {} as never);
    t.true([...r.values].every((x) => x === 0x5a5a5a5a));
  } finally {
    await e.close();
  }
  const err = t.throws(() => defineProgram({ ...spec, state: { x: { type: 'u32', init: 'zero', reduce: 'owner' } } } as never), { message: /state 'x' has init 'zero'/ });
  t.true(isTesseraError(err));
});

const cases: Array<[string, Topology, EngineOptions]> = [
  ['1S', sockets([2]), {}],
  ['2S', sockets([1, 1]), {}],
  ['an emulated GPU at share 0.5', oneGpu, { gpuShare: 0.5 }],
  ['an emulated GPU at share 1', oneGpu, { gpuShare: 1 }],
];
for (const [label, topo, opts] of cases)
  (topo.gpus.length > 0 ? withGpu : test)(`PageRank, bfs, wcc, sssp and bc write their unset state before reading it: ${label}, two runs of one engine`, async (t) => {
    const g = rmat(true);
    const e = await Engine.create(g, topo, opts);
    try {
      // bfs: depth is unset; the driver fills it with -1 but where one GPU owning every vertex writes it whole.
      // sssp and bc: dist (sigma, delta) unset; the drivers fill them but where one GPU owning every vertex keeps its own.
      for (const name of ['pr', 'bfs', 'wcc', 'sssp', 'bc'] as const) {
        const p = algorithm(name).program;
        const want = p.reference!(g, paramsFor(g, name) as never) as Float64Array;
        for (let run = 0; run < 2; run++) {
          const r = await e.run(p, paramsFor(g, name) as never);
          t.false([...r.values].some(Number.isNaN), `${name} run ${run}: no NaN`);
          const bad = firstMismatch(r.values, want, name === 'pr' || name === 'sssp' || name === 'bc');
          t.is(bad, -1, `${name} run ${run}: vertex ${bad} got ${r.values[bad]} want ${want[bad]}`);
        }
      }
    } finally {
      await e.close();
    }
  });
