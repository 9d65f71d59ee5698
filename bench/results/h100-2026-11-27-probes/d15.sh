#!/bin/bash
# Call 15 (x1): the review build (wcc_afforest's one launch path, native-host.ts split): gpu-check at share 1,
# and RMAT 22 wcc GPU-only against the reference on a cache smaller than the graph (pages streamed).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
timeout 200 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench --json /tmp/o/gc1.json > /tmp/o/gc1.txt 2>&1; echo "gpu-check rc=$?" >> /tmp/o/machine.txt
cat > /tmp/stream.mjs <<'JS'
import { run, generate } from '/work/main/dist/src/index.js';
const root = process.argv[2];
const { run: r2, generate: gen } = await import(root + '/dist/src/index.js');
const g = gen('rmat:22:ef=16', {});
const cpu = await r2(g, 'wcc', { topology: { name: '1S', source: 'x', sockets: [{ id: 0, threads: 16 }], gpus: [], interconnect: {}, model: {} } });
const topo = { name: 'g', source: 'x', sockets: [{ id: 0, threads: 16 }], gpus: [{ device: 0, emulated: false, streams: 4, memoryLimit: 256 * 2 ** 20 }], interconnect: {}, model: {} };
const gpu = await r2(g, 'wcc', { topology: topo, gpuShare: 1, steal: 'off' });
let bad = -1; for (let i = 0; i < cpu.values.length; i++) if (cpu.values[i] !== gpu.values[i]) { bad = i; break; }
const ev = gpu.report.steps.reduce((x, s) => x + s.actors.reduce((y, a) => y + (a.gpu?.evictions ?? 0), 0), 0);
console.log(JSON.stringify({ algorithm: gpu.report.notes.algorithm, evictions: ev, firstMismatch: bad, ms: gpu.report.totalMs }));
JS
sed -i "1d" /tmp/stream.mjs
timeout 120 node /tmp/stream.mjs $PWD > /tmp/o/stream.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt; tail -1 /tmp/o/gc1.txt; cat /tmp/o/stream.txt
