/**
 * Ctrl-C / SIGTERM during a write: the CLI removes its partial `FILE.tmp-<pid>` output, prints one
 * line and exits 130 / 143; the library alone never listens to signals. The jobs are big enough
 * that the temporary file lives for a while (hundreds of ms at least) on a small machine: the test
 * waits for it to appear, then signals.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { generateToEdgeList } from '../src/graph/generate/index.js';
import { installSignalCleanup, trackTemp, trackedTemps, untrackTemp } from '../src/tmp-files.js';
import { CLI, removeTempDirs, tempDir } from './helpers/cli.js';
import { REPO_ROOT } from './helpers/paths.js';

test.after.always(removeTempDirs);

interface Interrupted {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  left: string[];
  sawTemp: boolean;
}

/** Runs `tessera ...args` writing into `dir`; sends `sig` as soon as a `*.tmp-*` file exists there. */
function interruptDuringWrite(args: string[], dir: string, sig: NodeJS.Signals): Promise<Interrupted> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, TESSERA_DEBUG: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 120_000,
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    let sawTemp = false;
    let done = false;
    const poll = async (): Promise<void> => {
      while (!done && !sawTemp) {
        const names = await readdir(dir).catch(() => [] as string[]);
        if (names.some((n) => n.includes('.tmp-'))) {
          sawTemp = true;
          child.kill(sig);
          return;
        }
        await new Promise((r) => setTimeout(r, 3));
      }
    };
    void poll();
    child.once('error', reject);
    child.once('close', (code, signal) => {
      done = true;
      readdir(dir).then((left) => resolve({ code, signal, stderr, left, sawTemp }), reject);
    });
  });
}

const LINE = /^tessera: interrupted; removed 1 partial output file\n$/;

test.serial('SIGINT while generate streams an edge list: temp file removed, exit 130', async (t) => {
  const dir = await tempDir('tessera-sig-');
  const r = await interruptDuringWrite(['generate', 'rmat', '--scale', '22', '--out', path.join(dir, 'g.el')], dir, 'SIGINT');
  t.true(r.sawTemp, `no temporary file appeared (stderr: ${r.stderr})`);
  t.is(r.signal, null, 'killed by the signal instead of handling it');
  t.is(r.code, 130, r.stderr);
  t.regex(r.stderr, LINE);
  t.deepEqual(r.left, [], 'neither the temporary file nor the output may remain');
});

test.serial('SIGTERM while run writes --out: temp file removed, exit 143', async (t) => {
  const dir = await tempDir('tessera-sig-');
  const r = await interruptDuringWrite(['run', '--algo', 'pr', '--graph', 'rmat:21', '--out', path.join(dir, 'r.txt')], dir, 'SIGTERM');
  t.true(r.sawTemp, `no temporary file appeared (stderr: ${r.stderr})`);
  t.is(r.signal, null, 'killed by the signal instead of handling it');
  t.is(r.code, 143, r.stderr);
  t.regex(r.stderr, LINE);
  t.deepEqual(r.left, []);
});

test.serial('SIGINT while convert writes a .tsr: temp file removed, exit 130', async (t) => {
  const dir = await tempDir('tessera-sig-');
  const r = await interruptDuringWrite(['convert', 'rmat:21', '--out', path.join(dir, 'g.tsr')], dir, 'SIGINT');
  t.true(r.sawTemp, `no temporary file appeared (stderr: ${r.stderr})`);
  t.is(r.signal, null, 'killed by the signal instead of handling it');
  t.is(r.code, 130, r.stderr);
  t.regex(r.stderr, LINE);
  t.deepEqual(r.left, []);
});

test.serial('SIGINT while a bounded-memory build writes: runs and partial .tsr removed, exit 130', async (t) => {
  const dir = await tempDir('tessera-sig-');
  // The partial .tsr appears once the out-runs are written, beside them (and the in-runs).
  const r = await interruptDuringWrite(['generate', 'rmat', '--scale', '19', '--out', path.join(dir, 'g.tsr'), '--host-memory', '300MiB'], dir, 'SIGINT');
  t.true(r.sawTemp, `no temporary file appeared (stderr: ${r.stderr})`);
  t.is(r.signal, null, 'killed by the signal instead of handling it');
  t.is(r.code, 130, r.stderr);
  t.regex(r.stderr, /tessera: interrupted; removed 3 partial output files\n$/);
  t.deepEqual(r.left, [], 'neither a run file nor the partial output may remain');
});

test.serial('the library listens to no signal unless installSignalCleanup is called', (t) => {
  // This test process never calls installSignalCleanup (only the CLI does).
  const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];
  trackTemp('/nonexistent/x.tmp-1');
  t.deepEqual([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')], before);
  untrackTemp('/nonexistent/x.tmp-1');
  t.deepEqual(trackedTemps(), []);
  t.is(typeof installSignalCleanup, 'function');
});

test.serial('installSignalCleanup listens only while a partial file exists, then removes it and exits 128+n', async (t) => {
  const dir = await tempDir('tessera-sig-');
  const mod = path.join(REPO_ROOT, 'dist/src/tmp-files.js');
  const script = `
    import { writeFileSync } from 'node:fs';
    import { installSignalCleanup, trackTemp, untrackTemp } from ${JSON.stringify(mod)};
    const n = () => process.listenerCount('SIGINT') + ',' + process.listenerCount('SIGTERM');
    const f = ${JSON.stringify(path.join(dir, 'a.tmp-1'))};
    const seen = [n()];
    installSignalCleanup();
    seen.push(n());
    trackTemp(f);
    seen.push(n());
    untrackTemp(f);
    seen.push(n());
    process.stdout.write(seen.join(' '));
    trackTemp(f);
    trackTemp(f + 'x'); // tracked, never created
    writeFileSync(f, 'partial');
    process.kill(process.pid, 'SIGTERM');
    setTimeout(() => process.exit(7), 10000);
  `;
  const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
  t.is(r.stdout, '0,0 0,0 1,1 0,0');
  t.is(r.code, 143, r.stderr);
  t.is(r.stderr, 'tessera: interrupted; removed 1 partial output file\n');
  t.deepEqual(await readdir(dir), []);
});

test.serial('writers forget their temporary file on success and on failure', async (t) => {
  const dir = await tempDir('tessera-sig-');
  await generateToEdgeList('rmat:8', path.join(dir, 'ok.el'));
  t.deepEqual(trackedTemps(), []);
  await t.throwsAsync(generateToEdgeList('rmat:8', path.join(dir, 'missing', 'bad.el')));
  t.deepEqual(trackedTemps(), []);
  t.deepEqual(await readdir(dir), ['ok.el']);
});
