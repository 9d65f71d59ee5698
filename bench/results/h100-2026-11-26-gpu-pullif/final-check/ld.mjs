// node .device/ld.mjs FILE: readTsr of FILE (page cache warm) with the addon's page check and with TypeScript's, twice each.
import { execFileSync } from 'node:child_process';
const [f, mode] = process.argv.slice(2);
if (mode === undefined) {
  for (const m of ['native', 'ts', 'native', 'ts']) {
    const env = { ...process.env, ...(m === 'ts' ? { TESSERA_NATIVE_KERNELS: '0' } : {}) };
    process.stdout.write(execFileSync(process.execPath, [process.argv[1], f, m], { env }));
  }
} else {
  const { readTsr } = await import(`${process.cwd()}/dist/src/graph/tsr-read.js`);
  const { statSync } = await import('node:fs');
  const t0 = performance.now();
  await readTsr(f);
  const s = (performance.now() - t0) / 1000;
  console.log(`${mode}: ${s.toFixed(2)} s, ${(statSync(f).size / s / 1e9).toFixed(2)} GB/s`);
}
