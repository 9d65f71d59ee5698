#!/bin/bash
# Session 26 call 11 (x1): the session's build: harness RMAT 22 (bfs, wcc, sssp, pr) vs GAPBS on the 16
# cores; tl medians of bfs and wcc (30 warm runs); gpu-check at shares 1 and 0.6.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; git log --oneline -1; uptime; } > /tmp/o/machine.txt 2>&1
cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc sssp pr >/dev/null 2>&1)
timeout 330 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness --no-progress > /tmp/o/harness.txt 2>&1; echo "harness rc=$?" >> /tmp/o/machine.txt
node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for c in bfs wcc; do node .device/tl.mjs $c /tmp/g.tsr 30 > /tmp/o/tl-$c.txt 2>&1; done
timeout 120 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench --json /tmp/o/gc1.json > /tmp/o/gc1.txt 2>&1; echo "gpu-check 1 rc=$?" >> /tmp/o/machine.txt
timeout 120 node scripts/gpu-check.mjs --gpus 1 --gpu-share 0.6 --scale 20 --no-bench --json /tmp/o/gc06.json > /tmp/o/gc06.txt 2>&1; echo "gpu-check 0.6 rc=$?" >> /tmp/o/machine.txt
tar cJf $OUT/all.tar.xz -C /tmp o
cd /tmp/o; cat machine.txt | grep -v "^GPU"; grep -A8 "Peers on the same" harness/*/results.md; for f in tl-*.txt; do sed -n 2,3p $f | cut -c1-200; done; tail -1 gc1.txt gc06.txt
