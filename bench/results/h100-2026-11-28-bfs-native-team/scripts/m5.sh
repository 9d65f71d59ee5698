#!/bin/bash
# Session 38 call 5: B now runs wcc as one team on the addon (wccTeam): wcc and bfs, A (8398b9a) against B in turn (a fresh engine's runs, the GAPBS harness), gpu-check of B.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
[ -d .device/A2 ] || tar xJf .device/A2.tar.xz -C .device; ln -sfn /tmp/node_modules .device/A2/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep -E 'Model name|NUMA'; } > /tmp/o/machine.txt 2>&1
[ -x /tmp/gapbs/cc ] || { rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc >/dev/null 2>&1); }
[ -f /tmp/g22.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g22.tsr > /dev/null 2>&1
A() { ROOT=$PWD/.device/A2 TESSERA_NATIVE_DIR=$PWD/.device/A2/build/Release TESSERA_NATIVE_FLAVOR=host "$@"; }
B() { ROOT=$PWD "$@"; }
for r in 1 2; do for b in A B; do for p in wcc bfs; do echo "== $b $p $r" >> /tmp/o/cv.txt; $b node .device/cv.mjs $p /tmp/g22.tsr 12 >> /tmp/o/cv.txt 2>&1; done; done; done
ROOT=$PWD node .device/wcheck2.mjs /tmp/g22.tsr > /tmp/o/wcheck.txt 2>&1
for r in 1 2; do
  A timeout 120 node .device/A2/dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs,wcc --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-A$r --no-progress > /tmp/o/harness-A$r.txt 2>&1
  timeout 120 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs,wcc --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-B$r --no-progress > /tmp/o/harness-B$r.txt 2>&1
done
ROOT=$PWD node .device/check.mjs /tmp/g22.tsr 3 16 > /tmp/o/check.txt 2>&1; timeout 150 node scripts/gpu-check.mjs --gpus 1 --gpu-share 1 --scale 20 --no-bench --json /tmp/o/gc1.json > /tmp/o/gc1.txt 2>&1; echo "gpu-check rc=$?" >> /tmp/o/machine.txt
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt /tmp/o/wcheck.txt; tail -1 /tmp/o/check.txt; tail -1 /tmp/o/gc1.txt
awk '/^==/{h=$0; next} /^create/{next} {a[h]=a[h]" "$2} END{for(k in a) print k, a[k]}' /tmp/o/cv.txt | sort
for f in /tmp/o/harness-*/*/results.md; do echo "$f"; grep -h "gapbs (16 threads) |" $f | grep "×" | cut -c1-150; done
