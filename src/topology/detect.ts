/**
 * The current machine as a topology: one socket actor per physical package (Linux sysfs), one
 * thread per core of it; GPUs from nvidia-smi when present.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import type { Topology } from './schema.js';

function socketsFromSysfs(): Map<number, number> {
  const counts = new Map<number, number>();
  try {
    const base = '/sys/devices/system/cpu';
    for (const d of readdirSync(base)) {
      if (!/^cpu\d+$/.test(d)) continue;
      try {
        const pkg = Number(readFileSync(`${base}/${d}/topology/physical_package_id`, 'utf8').trim());
        counts.set(pkg, (counts.get(pkg) ?? 0) + 1);
      } catch {
        // offline CPU or no topology directory: skip it
      }
    }
  } catch {
    // not Linux
  }
  return counts;
}

function gpusFromNvidiaSmi(): Topology['gpus'] {
  try {
    const out = execFileSync('nvidia-smi', ['--query-gpu=index,memory.total', '--format=csv,noheader,nounits'], {
      encoding: 'utf8',
      timeout: 5000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return out
      .trim()
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => ({ device: Number(l.split(',')[0]), emulated: false, streams: 4 }));
  } catch {
    return [];
  }
}

export function detectTopology(): Topology {
  const cores = os.availableParallelism();
  const pk = socketsFromSysfs();
  // Threads are capped by what this process may use (cgroups / affinity), spread over sockets.
  const total = [...pk.values()].reduce((a, b) => a + b, 0);
  let sockets = [...pk.keys()].sort((a, b) => a - b).map((id) => ({ id, threads: Math.max(1, Math.round((pk.get(id)! / total) * cores)) }));
  if (sockets.length === 0 || total > cores * 2) sockets = [{ id: 0, threads: cores }];
  const gpus = gpusFromNvidiaSmi();
  return {
    name: `detected-${sockets.length}S${gpus.length}G`,
    source: 'detected',
    sockets,
    gpus,
    interconnect: {},
    model: {},
  };
}

/** YAML text for a topology (tessera topology detect --out). */
export function topologyToYaml(t: Topology): string {
  const lines = [`# Written by 'tessera topology detect' on ${os.hostname()}`, `name: ${t.name}`, 'sockets:'];
  for (const s of t.sockets) lines.push(`  - id: ${s.id}`, `    threads: ${s.threads}`);
  if (t.gpus.length === 0) lines.push('gpus: []');
  else {
    lines.push('gpus:');
    for (const g of t.gpus) lines.push(`  - device: ${g.device}`, `    streams: ${g.streams}`);
  }
  return lines.join('\n') + '\n';
}
