/**
 * Runs the built CLI (dist/src/cli/main.js) as a child process, from the repository root, the
 * way a user does. Spawns are limited to a few at a time: ava runs a file's tests concurrently,
 * and every `tessera run` starts its own worker threads.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './paths.js';

export const CLI = path.join(REPO_ROOT, 'dist/src/cli/main.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

const LIMIT = Math.max(1, Math.min(2, os.availableParallelism()));
let running = 0;
const waiting: Array<() => void> = [];

async function slot<T>(f: () => Promise<T>): Promise<T> {
  if (running >= LIMIT) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await f();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** `tessera ...args`; stderr is not a TTY, so no progress bars are drawn. */
export function tessera(args: string[], opts: { cwd?: string; timeoutMs?: number; env?: Record<string, string> } = {}): Promise<CliResult> {
  return slot(
    () =>
      new Promise<CliResult>((resolve, reject) => {
        const child = spawn(process.execPath, [CLI, ...args], {
          cwd: opts.cwd ?? REPO_ROOT,
          env: { ...process.env, TESSERA_DEBUG: '', ...opts.env },
          stdio: ['ignore', 'pipe', 'pipe'],
          timeout: opts.timeoutMs ?? 120_000,
        });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        child.once('error', reject);
        child.once('close', (code) => resolve({ code, stdout, stderr }));
      }),
  );
}

const made: string[] = [];

/** A fresh temporary directory (removed by removeTempDirs). */
export async function tempDir(prefix = 'tessera-cli-'): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every directory tempDir made (call from test.after.always). */
export async function removeTempDirs(): Promise<void> {
  await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/** Writes a one-socket topology with a fixed thread count (results must not depend on the machine). */
export async function writeTopology(dir: string, threads: number, name = `test-${threads}t`): Promise<string> {
  const file = path.join(dir, `${name}.yaml`);
  await writeFile(file, `name: ${name}\nsockets:\n  - id: 0\n    threads: ${threads}\n`);
  return file;
}
