/** The built-ins' native CPU kernels (native/src/addon_cpu.cpp) against the serial references. */
import test from 'ava';
import { nativeAvailable } from '../actors/gpu/native.js';
import { nativeCpuKernels } from '../actors/gpu/native-host.js';
import { checkKernelCases } from './helpers/kernel-cases.js';

const avail = nativeAvailable();

test('the addon exports the CPU kernels where it loads', (t) => {
  if (!avail.ok && process.env.TESSERA_REQUIRE_NATIVE !== '1') return t.pass(`no addon here: ${avail.reason}`);
  t.truthy(nativeCpuKernels(), 'cpu kernels');
});

test('bfs, wcc and sssp with the native kernels equal the references', async (t) => {
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
  t.throws(() => cpu.bfsPull(off, nbrs, 0, 0, 2, depth as never, new Int32Array(2) as never, bytes, 1, stats), { message: /wrong type/ });
  // Vertex 0's in-neighbour 1 is in the frontier, vertex 1's (0) is not.
  const frontier = new Uint8Array([0, 1]);
  const next = new Uint8Array(2);
  cpu.bfsPull(off, nbrs, 0, 0, 2, depth, frontier, next, 1, stats);
  t.deepEqual([...depth, ...next, ...stats], [1, -1, 1, 0, 2, 1]);
});
