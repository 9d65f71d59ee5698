/** Machine facts recorded with every sweep: CPU, cores, memory, GPUs, Node, tessera revision. */
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MachineInfo } from './schema.js';

/** The repository (or package) root: dist/src/bench/machine.js is three folders down. */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * A command's trimmed output, or null when it is missing, fails or takes over 10 s (execa,
 * imported here: ~140 ms of module loading that every CLI command paid at start).
 */
async function quiet(cmd: string, args: string[], cwd?: string): Promise<string | null> {
  const { execa } = await import('execa');
  const r = await execa(cmd, args, { cwd, stdin: 'ignore', stderr: 'ignore', timeout: 10_000, reject: false });
  return r.failed ? null : String(r.stdout).trim();
}

export async function machineInfo(): Promise<MachineInfo> {
  const gpus = await quiet('nvidia-smi', ['--query-gpu=name,memory.total', '--format=csv,noheader']);
  const rev = await quiet('git', ['rev-parse', 'HEAD'], PACKAGE_ROOT);
  const dirty = rev === null ? null : ((await quiet('git', ['status', '--porcelain', '--untracked-files=no'], PACKAGE_ROOT)) ?? '') !== '';
  return {
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism(),
    memoryBytes: os.totalmem(),
    gpus: gpus ? gpus.split('\n').map((l) => l.trim()).filter(Boolean) : [],
    node: process.version,
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    tesseraRevision: rev,
    tesseraDirty: dirty,
  };
}
