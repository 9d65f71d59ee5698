#!/bin/bash
# Session 35 call 5 (nvidia-h100-x1): bfs's team over frontier bitmaps, bottom-up pieces of 4096 vertices, barriers spinning up to 2 ms; GAPBS -l level times on the same edges; depths against the reference,
# tl.mjs warm runs team / supersteps alternating (3 rounds, the first team round traced on rank 0),
# the harness against GAPBS.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep -E "Model name|Thread|Core|Socket|NUMA"; } > /tmp/o/machine.txt 2>&1
[ -x /tmp/gapbs/bfs ] || { cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc >/dev/null 2>&1); }
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
node .device/check.mjs /tmp/g.tsr 4 16 > /tmp/o/check.txt 2>&1
TESSERA_TEAM_TRACE=1 node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/trace.txt 2>&1
for r in 1 2 3; do
  node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/tl-team-$r.txt 2>&1
  TESSERA_TEAM=0 node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/tl-steps-$r.txt 2>&1
done
TL_THREADS=15 node .device/tl.mjs bfs /tmp/g.tsr 30 > /tmp/o/tl15-team.txt 2>&1
timeout 200 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-team --no-progress > /tmp/o/harness-team.txt 2>&1
node .device/el.mjs /tmp/g.tsr /tmp/g.el > /tmp/o/el.txt 2>&1; for i in 1 2; do OMP_NUM_THREADS=16 /tmp/gapbs/bfs -f /tmp/g.el -r 0 -n 8 -l > /tmp/o/gapbs-l-$i.txt 2>&1; done
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt; tail -1 /tmp/o/check.txt; grep clear /tmp/o/trace.txt | tail -4; for f in /tmp/o/tl*.txt; do echo "== $f"; sed -n 2,4p $f | cut -c1-300; done; grep "| bfs" /tmp/o/harness-*/*/results.md
grep -E "Trial|td|bu|e |c " /tmp/o/gapbs-l-2.txt | tail -24
