#!/bin/bash
# Session 38 call 3: where B's first bfs run goes (each team thread's entry, page sets and addon call
# against the run's start), and the GAPBS harness on RMAT 22 (bfs and wcc), A (8398b9a) and B.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
[ -d .device/A2 ] || tar xJf .device/A2.tar.xz -C .device; ln -sfn /tmp/node_modules .device/A2/node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
nproc > /tmp/o/machine.txt; lscpu | grep -E 'Model name|NUMA|Thread' >> /tmp/o/machine.txt
[ -x /tmp/gapbs/cc ] || { rm -rf /tmp/gapbs; cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc >/dev/null 2>&1); }
[ -f /tmp/g22.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g22.tsr > /dev/null 2>&1
cp dist/src/programs/bfs/team.js /tmp/team.clean.js; cp .device/team-trace.js dist/src/programs/bfs/team.js
for r in 1 2; do echo "== B traced $r" >> /tmp/o/trace-runs.txt; node .device/cvt.mjs bfs /tmp/g22.tsr 4 >> /tmp/o/trace-runs.txt 2>&1; mkdir -p /tmp/o/t$r; mv /tmp/o/trace-*.txt /tmp/o/t$r/ 2>/dev/null; mv /tmp/o/t$r/trace-runs.txt /tmp/o/; done
cp /tmp/team.clean.js dist/src/programs/bfs/team.js
A() { TESSERA_NATIVE_DIR=$PWD/.device/A2/build/Release TESSERA_NATIVE_FLAVOR=host "$@"; }
timeout 150 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs,wcc --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-B1 --no-progress > /tmp/o/harness-B1.txt 2>&1
A timeout 150 node .device/A2/dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs,wcc --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-A1 --no-progress > /tmp/o/harness-A1.txt 2>&1
timeout 150 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs,wcc --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-B2 --no-progress > /tmp/o/harness-B2.txt 2>&1
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/trace-runs.txt; for d in /tmp/o/t1 /tmp/o/t2; do echo $d; cat $d/* | sort -k1,1n -k2,2n | awk '{print $1, $2, $3, $4}' | head -40; done
for f in /tmp/o/harness-*/*/results.md; do echo "$f"; grep -h "gapbs (16 threads) |" $f | grep "×" | cut -c1-150; done
