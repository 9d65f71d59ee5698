/**
 * The npm package's prebuilt host addon (scripts/prebuild.mjs at `npm pack`, node-gyp-build's
 * naming): in a package folder with prebuilds/ and no build/, on a PATH without cmake or a
 * compiler, the install script takes the prebuilt addon (status ok, which one and why no CUDA
 * addon), and the loader finds it there.
 */
import test from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './helpers/paths.js';

const host = path.join(REPO_ROOT, 'build', 'Release', 'tessera_native_host.node');

(existsSync(host) || process.env.TESSERA_REQUIRE_NATIVE === '1' ? test : test.skip)('a package with a prebuilt host addon installs and loads it without cmake or a compiler', (t) => {
  const pkg = mkdtempSync(path.join(os.tmpdir(), 'tessera-prebuilt-'));
  mkdirSync(path.join(pkg, 'scripts'));
  for (const f of ['package.json', 'scripts/build-native.mjs', 'scripts/prebuild.mjs']) copyFileSync(path.join(REPO_ROOT, f), path.join(pkg, f));
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(pkg, 'node_modules'), 'dir');
  // prebuild.mjs copies build/Release's host addon: give the temporary package one to copy.
  mkdirSync(path.join(pkg, 'build', 'Release'), { recursive: true });
  copyFileSync(host, path.join(pkg, 'build', 'Release', 'tessera_native_host.node'));
  execFileSync(process.execPath, [path.join(pkg, 'scripts', 'prebuild.mjs')]);
  const tuple = `${process.platform}-${process.arch}`;
  t.true(existsSync(path.join(pkg, 'prebuilds', tuple)), 'prebuilds/<platform>-<arch>');
  // The installed package has no build/: only the prebuilt addon, and a PATH with node alone.
  execFileSync('rm', ['-rf', path.join(pkg, 'build')]);
  const bin = mkdtempSync(path.join(os.tmpdir(), 'tessera-path-'));
  symlinkSync(process.execPath, path.join(bin, 'node'));
  const r = spawnSync(path.join(bin, 'node'), [path.join(pkg, 'scripts', 'build-native.mjs')], { encoding: 'utf8', env: { PATH: bin, HOME: os.tmpdir() } });
  t.is(r.status, 0, r.stderr);
  t.regex(r.stdout, /using the prebuilt host addon prebuilds\//);
  const status = JSON.parse(readFileSync(path.join(pkg, 'build', 'native-status.json'), 'utf8')) as { ok: boolean; host: boolean; prebuilt?: string; reason?: string };
  t.true(status.ok && status.host);
  t.regex(status.prebuilt ?? '', new RegExp(`^prebuilds/${tuple}/tessera_native_host\\..*napi\\.node$`));
  t.regex(status.reason ?? '', /no CUDA addon/);
  // node-gyp-build resolves it from the package folder (what actors/gpu/native.ts falls back to).
  const script = `const p=require('node-gyp-build').path(${JSON.stringify(pkg)});const m=require(p);process.stdout.write(p+' '+m.flavor)`;
  writeFileSync(path.join(pkg, 'probe.cjs'), script);
  const probe = spawnSync(process.execPath, [path.join(pkg, 'probe.cjs')], { encoding: 'utf8', cwd: pkg });
  t.is(probe.status, 0, probe.stderr);
  t.regex(probe.stdout, /prebuilds\/.* host$/);
});
