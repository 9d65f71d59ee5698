#!/usr/bin/env node
/**
 * Builds tessera's native GPU controller (native/) with cmake-js into build/Release/:
 *   tessera_native_host.node  always: the same kernels compiled for the host ("emulated GPU")
 *   tessera_native_cuda.node  when nvcc is found: CUDA (sm_90 + compute_90 PTX), static cudart
 *
 * Never fails an install: when cmake or a C++ compiler is missing it prints a warning and exits 0;
 * when nvcc is missing (or the CUDA part fails to compile) it builds the host addon only. What
 * happened is written to build/native-status.json, which actors/gpu/native.ts reads to say why an
 * addon is missing (tests skip only when the toolchain is missing).
 *
 * Usage: node scripts/build-native.mjs [--host-only] [--debug] [--jobs N] [--verbose] [--from-source]
 * A prebuilt host addon (prebuilds/, in the npm package) is used when it fits and loads; the source
 * build then runs only where nvcc exists (for the CUDA addon), or with --from-source.
 * Env:   TESSERA_SKIP_NATIVE=1   do nothing (status says so)
 *        TESSERA_NATIVE_CUDA=0   host addon only
 *        CUDACXX=/path/to/nvcc   which nvcc (else PATH, then /usr/local/cuda/bin/nvcc)
 *        TESSERA_CUDA_ARCHS="90" SASS targets (PTX of the last one is embedded too)
 *        TESSERA_NATIVE_DEPS=dir a directory whose node_modules holds cmake-js and node-addon-api,
 *                                when they are not installed in this package
 *        CMAKE=/path/to/cmake, CXX=/path/to/c++
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const nativeDir = path.join(root, 'native');
const outDir = path.join(root, 'build');
const releaseDir = path.join(outDir, 'Release');
const statusFile = path.join(outDir, 'native-status.json');
const argv = process.argv.slice(2);
const flag = (f) => argv.includes(f);
const hostOnly = flag('--host-only') || process.env.TESSERA_NATIVE_CUDA === '0';
const debug = flag('--debug');
const verbose = flag('--verbose');
const jobsArg = argv.indexOf('--jobs');
const jobs = jobsArg >= 0 ? Number(argv[jobsArg + 1]) : Math.max(1, os.availableParallelism?.() ?? os.cpus().length);
const t0 = Date.now();

function warn(msg) {
  process.stderr.write(`\n[tessera] WARNING: ${msg}\n\n`);
}

function writeStatus(status) {
  mkdirSync(outDir, { recursive: true });
  const full = { ...status, seconds: (Date.now() - t0) / 1000, builtAt: new Date().toISOString(), node: process.version, platform: `${process.platform}-${process.arch}` };
  writeFileSync(statusFile, JSON.stringify(full, null, 2) + '\n');
  return full;
}

/** First executable named `name` on PATH (or an absolute path that exists). */
function which(name) {
  if (!name) return undefined;
  if (path.isAbsolute(name)) return isExecutable(name) ? name : undefined;
  const exts = process.platform === 'win32' ? ['.exe', '.cmd', ''] : [''];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const p = path.join(dir, name + ext);
      if (isExecutable(p)) return p;
    }
  }
  return undefined;
}

function isExecutable(p) {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function run(cmd, args, opts = {}) {
  if (verbose) process.stderr.write(`[tessera] $ ${[cmd, ...args].join(' ')}\n`);
  return spawnSync(cmd, args, { cwd: root, encoding: 'utf8', stdio: opts.capture ? 'pipe' : 'inherit', env: process.env, ...opts });
}

function resolveFrom(dirs, request) {
  for (const dir of dirs) {
    if (!dir) continue;
    try {
      return createRequire(path.join(dir, 'package.json')).resolve(request);
    } catch {
      // next
    }
  }
  return undefined;
}

if (process.env.TESSERA_SKIP_NATIVE === '1') {
  writeStatus({ ok: false, toolchainMissing: false, host: false, cuda: false, reason: 'native build skipped: TESSERA_SKIP_NATIVE=1' });
  console.log('[tessera] native build skipped (TESSERA_SKIP_NATIVE=1)');
  process.exit(0);
}

// ---- a prebuilt host addon (npm package: prebuilds/, node-gyp-build's naming) ----------------
// Where one fits this platform and loads, it is the host addon; the source build runs only to add
// the CUDA addon where a CUDA toolkit exists (or with --from-source).
function prebuilt() {
  if (flag('--from-source')) return undefined;
  process.env.PREBUILDS_ONLY = '1';
  try {
    const ngb = createRequire(path.join(root, 'package.json'))('node-gyp-build');
    const file = ngb.path(root);
    return loads(file) === undefined ? file : undefined;
  } catch {
    return undefined;
  } finally {
    delete process.env.PREBUILDS_ONLY;
  }
}
const pre = prebuilt();
/** Ends the install on the prebuilt host addon, saying why no CUDA addon is built. */
function usePrebuilt(why) {
  writeStatus({ ok: true, toolchainMissing: false, host: true, cuda: false, prebuilt: path.relative(root, pre), reason: `prebuilt host addon; no CUDA addon: ${why}` });
  console.log(`[tessera] using the prebuilt host addon ${path.relative(root, pre)} (no CUDA addon: ${why}; GPUs run emulated only)`);
  process.exit(0);
}
if (pre !== undefined && (hostOnly || !(which(process.env.CUDACXX || '') ?? which('nvcc') ?? which('/usr/local/cuda/bin/nvcc')))) usePrebuilt('no CUDA toolkit here');

// ---- toolchain ------------------------------------------------------------------------------
const cmake = which(process.env.CMAKE || 'cmake');
const cxx = which(process.env.CXX || '') ?? which('c++') ?? which('g++') ?? which('clang++');
const missing = [];
if (!cmake) missing.push('cmake (>= 3.18)');
if (!cxx) missing.push('a C++17 compiler (g++ or clang++)');
if (cmake) {
  const v = run(cmake, ['--version'], { capture: true });
  const m = /cmake version (\d+)\.(\d+)/.exec(v.stdout ?? '');
  if (!m || Number(m[1]) < 3 || (Number(m[1]) === 3 && Number(m[2]) < 18)) missing.push(`cmake >= 3.18 (found ${m ? `${m[1]}.${m[2]}` : 'an unusable cmake'})`);
}
if (missing.length > 0 && pre !== undefined) usePrebuilt(`building it needs ${missing.join(' and ')}`);
if (missing.length > 0) {
  const reason = `cannot build the native GPU controller: ${missing.join(' and ')} not found. tessera works without it (CPU actors only). Fix: install ${missing.join(' and ')}, then run \`node scripts/build-native.mjs\`.`;
  writeStatus({ ok: false, toolchainMissing: true, host: false, cuda: false, reason });
  warn(reason);
  process.exit(0);
}

const depDirs = [root, process.env.TESSERA_NATIVE_DEPS];
const cmakeJsPkg = resolveFrom(depDirs, 'cmake-js/package.json');
const addonApiPkg = resolveFrom(depDirs, 'node-addon-api/package.json');
if (!cmakeJsPkg || !addonApiPkg) {
  const which_ = [!cmakeJsPkg && 'cmake-js', !addonApiPkg && 'node-addon-api'].filter(Boolean).join(' and ');
  const reason = `cannot build the native GPU controller: ${which_} is not installed. Fix: npm install (they are dependencies of tessera), or point TESSERA_NATIVE_DEPS at a directory that has them.`;
  writeStatus({ ok: false, toolchainMissing: false, host: false, cuda: false, reason });
  warn(reason);
  process.exit(0);
}
const cmakeJs = path.join(path.dirname(cmakeJsPkg), 'bin', 'cmake-js');
const addonApiInclude = path.dirname(addonApiPkg);

let nvcc;
if (!hostOnly) nvcc = which(process.env.CUDACXX || '') ?? which('nvcc') ?? which('/usr/local/cuda/bin/nvcc');

// ---- configure + build ----------------------------------------------------------------------
const common = ['-d', nativeDir, '-O', outDir, '-c', cmake, '-m'];
if (debug) common.push('-B', 'Debug');
if (!verbose) common.push('-l', 'warn');
const defs = [`--CDTESSERA_CUDA=${nvcc ? 'ON' : 'OFF'}`, `--CDNODE_ADDON_API_DIR=${addonApiInclude}`];
if (nvcc) defs.push(`--CDCMAKE_CUDA_COMPILER=${nvcc}`);
if (process.env.TESSERA_CUDA_ARCHS) defs.push(`--CDTESSERA_CUDA_ARCHS=${process.env.TESSERA_CUDA_ARCHS.replace(/[ ,]+/g, ';')}`);
if (cxx && !process.env.CXX) defs.push(`--CDCMAKE_CXX_COMPILER=${cxx}`);

const config = debug ? 'Debug' : 'Release';
const hostNode = path.join(outDir, config, 'tessera_native_host.node');
const cudaNode = path.join(outDir, config, 'tessera_native_cuda.node');
console.log(`[tessera] building the native GPU controller (${nvcc ? `host + CUDA with ${nvcc}` : 'host only: nvcc not found'})`);

const conf = run(process.execPath, [cmakeJs, 'configure', ...common, ...defs]);
if (conf.status !== 0) {
  // A compiler that cmake cannot use counts as a missing toolchain; anything else is a real failure.
  const reason = `cmake-js configure failed (exit ${conf.status}); see the output above. Fix the toolchain, then run \`node scripts/build-native.mjs --verbose\`.`;
  writeStatus({ ok: false, toolchainMissing: false, host: false, cuda: false, reason });
  warn(reason);
  process.exit(0);
}

const hostBuild = run(process.execPath, [cmakeJs, 'build', ...common, '-T', 'tessera_native_host', '-p', String(jobs)]);
const hostOk = hostBuild.status === 0 && existsSync(hostNode);
let cudaOk = false;
let cudaReason;
if (nvcc) {
  const cudaBuild = run(process.execPath, [cmakeJs, 'build', ...common, '-T', 'tessera_native_cuda', '-p', String(jobs)]);
  cudaOk = cudaBuild.status === 0 && existsSync(cudaNode);
  if (!cudaOk) cudaReason = `the CUDA addon failed to build (exit ${cudaBuild.status}); see the output above`;
} else {
  cudaReason = hostOnly ? 'CUDA disabled (--host-only / TESSERA_NATIVE_CUDA=0)' : 'nvcc not found (set CUDACXX or put nvcc on PATH)';
}
if (!cudaOk && existsSync(cudaNode)) rmSync(cudaNode); // never leave a stale CUDA addon that the loader would prefer

// ---- check that what was built loads --------------------------------------------------------
function loads(file) {
  const r = spawnSync(process.execPath, ['-e', `const m=require(${JSON.stringify(file)});if(typeof m.create!=='function')process.exit(3);console.log(m.flavor)`], { encoding: 'utf8' });
  return r.status === 0 ? undefined : (r.stderr || r.stdout || `exit ${r.status}`).trim().split('\n').slice(-3).join(' ');
}
let hostLoadError;
if (hostOk) hostLoadError = loads(hostNode);
let cudaLoadError;
if (cudaOk) {
  cudaLoadError = loads(cudaNode);
  if (cudaLoadError) cudaReason = `the CUDA addon was built but does not load: ${cudaLoadError}`;
}

const status = writeStatus({
  ok: hostOk && !hostLoadError,
  toolchainMissing: false,
  host: hostOk && !hostLoadError,
  cuda: cudaOk && !cudaLoadError,
  nvcc: nvcc ?? null,
  config,
  reason: !hostOk ? `the host addon failed to build (exit ${hostBuild.status}); see the output above` : hostLoadError ? `the host addon does not load: ${hostLoadError}` : cudaOk && !cudaLoadError ? undefined : cudaReason,
});
const secs = status.seconds.toFixed(1);
if (!status.ok) {
  warn(`${status.reason} (after ${secs} s). tessera still works with CPU actors only.`);
  process.exit(0);
}
console.log(`[tessera] built ${path.relative(root, hostNode)}${status.cuda ? ` and ${path.relative(root, cudaNode)}` : ''} in ${secs} s`);
if (!status.cuda) warn(`no CUDA addon: ${cudaReason}. GPUs run emulated only.`);
