/**
 * The current machine as a topology: one socket actor per physical package (Linux sysfs), one
 * thread per core of it; the GPUs this process can open (the NVIDIA driver's, narrowed by
 * CUDA_VISIBLE_DEVICES).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/**
 * The driver's GPUs, by UUID: one /proc/driver/nvidia/gpus/<bus id>/information file each where
 * the driver is loaded (read in microseconds), else nvidia-smi's list (~30 ms on an H200 host: a
 * tenth of `tessera run`'s start on a small graph); none where neither answers. An entry whose
 * device file (/dev/nvidia<minor>) this process lacks is left out: CUDA cannot open it either.
 */
export function driverGpus(procDir = '/proc/driver/nvidia/gpus', devDir = '/dev'): string[] {
  try {
    const uuids: string[] = [];
    const dirs = readdirSync(procDir).sort();
    for (const d of dirs) {
      let info: string;
      try {
        info = readFileSync(`${procDir}/${d}/information`, 'utf8');
      } catch {
        continue;  // not a GPU's entry
      }
      const minor = /^Device Minor:\s*(\d+)/m.exec(info)?.[1];
      if (minor !== undefined && !existsSync(`${devDir}/nvidia${minor}`)) continue;
      uuids.push(/^GPU UUID:\s*(\S+)/m.exec(info)?.[1] ?? '');
    }
    if (dirs.length > 0) return uuids;
  } catch {
    // no driver entries here (no NVIDIA driver, or a container without them): ask nvidia-smi
  }
  try {
    const out = execFileSync('nvidia-smi', ['--query-gpu=uuid', '--format=csv,noheader'], { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'] });
    return out
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '');
  } catch {
    return [];
  }
}

/**
 * How many of `uuids` the CUDA runtime numbers 0..k-1 under CUDA_VISIBLE_DEVICES, read as CUDA
 * reads it: a comma list of ordinals or UUIDs (a unique prefix will do; MIG instances count as
 * one device each), cut at its first entry that names no GPU or one named already; unset, all of
 * them. (nvidia-smi lists every GPU whatever the variable says: a topology from it opened devices
 * this process cannot see.)
 */
export function visibleGpus(uuids: string[], visible: string | undefined): number {
  if (visible === undefined) return uuids.length;
  const seen = new Set<number>();
  let count = 0;
  for (const raw of visible.split(',')) {
    const e = raw.trim();
    let i = -1;
    if (/^\d+$/.test(e)) i = Number(e) < uuids.length ? Number(e) : -1;
    else if (e.startsWith('MIG-')) {
      count++;
      continue;
    } else if (e !== '') {
      const id = e.startsWith('GPU-') ? e : `GPU-${e}`;
      const hits = uuids.map((u, j) => (u.startsWith(id) ? j : -1)).filter((j) => j >= 0);
      i = hits.length === 1 ? hits[0]! : -1;
    }
    if (i < 0 || seen.has(i)) break;
    seen.add(i);
    count++;
  }
  return count;
}

export function detectTopology(): Topology {
  const cores = os.availableParallelism();
  const pk = socketsFromSysfs();
  // Threads are capped by what this process may use (cgroups / affinity), spread over sockets.
  const total = [...pk.values()].reduce((a, b) => a + b, 0);
  let sockets = [...pk.keys()].sort((a, b) => a - b).map((id) => ({ id, threads: Math.max(1, Math.round((pk.get(id)! / total) * cores)) }));
  if (sockets.length === 0 || total > cores * 2) sockets = [{ id: 0, threads: cores }];
  // TESSERA_NVIDIA_PROC: another folder of driver entries (tests give a GPU-less machine one).
  const gpus = Array.from({ length: visibleGpus(driverGpus(process.env.TESSERA_NVIDIA_PROC), process.env.CUDA_VISIBLE_DEVICES) }, (_, device) => ({ device, emulated: false, streams: 4 }));
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
