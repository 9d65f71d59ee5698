/**
 * The built-ins whose CPU kernels have a native twin, run with their TypeScript kernels
 * (TESSERA_NATIVE_KERNELS=0, set before any kernel module loads; the workers inherit it): the
 * path that runs where the addon does not load.
 */
import test from 'ava';

process.env.TESSERA_NATIVE_KERNELS = '0';
const { nativeCpuKernels } = await import('../actors/gpu/native-host.js');
const { checkKernelCases } = await import('./helpers/kernel-cases.js');

test('TESSERA_NATIVE_KERNELS=0 turns the native kernels off', (t) => {
  t.is(nativeCpuKernels(), undefined);
});

test('bfs, wcc, sssp and bc with the TypeScript kernels equal the references', async (t) => {
  await checkKernelCases(t);
});
