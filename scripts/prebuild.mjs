#!/usr/bin/env node
/**
 * `npm pack` (prepack): puts the host addon this checkout built (build/Release) into
 * prebuilds/<platform>-<arch>/ under node-gyp-build's naming, so that the package installs with
 * a working native controller (emulated GPU, the coordinator's native passes) on a machine of the
 * same platform without cmake or a compiler. The CUDA addon is built where a CUDA toolkit exists.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const host = path.join(root, 'build', 'Release', 'tessera_native_host.node');
const out = path.join(root, 'prebuilds');
rmSync(out, { recursive: true, force: true });
if (!existsSync(host)) {
  console.warn('[tessera] prebuild: no build/Release/tessera_native_host.node (run node scripts/build-native.mjs); the package will build from source');
  process.exit(0);
}
const glibc = process.platform === 'linux' && process.report?.getReport?.().header?.glibcVersionRuntime !== undefined;
const dir = path.join(out, `${process.platform}-${process.arch}`);
mkdirSync(dir, { recursive: true });
const file = path.join(dir, `tessera_native_host${glibc ? '.glibc' : ''}.napi.node`);
copyFileSync(host, file);
console.log(`[tessera] prebuild: ${path.relative(root, file)}`);
