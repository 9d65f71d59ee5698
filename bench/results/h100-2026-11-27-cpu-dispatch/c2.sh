#!/bin/bash
# Session 34 call 8 (nvidia-h100-x1, 16 cores; a build with two knobs for the background faulting of
# a run's fresh arrays, not committed: TESSERA_POPULATE_THREADS (default 8) and
# TESSERA_POPULATE_SHIFT (a thread per 2^SHIFT bytes at least, default 24)): CPU bfs and wcc on
# RMAT 22 (tl.mjs, 30 runs, 16 threads), two rounds of: default; s21 (a thread per 2 MiB, up to
# 8); s21t16 (up to 16); sync (TESSERA_NO_POPULATE=1: faulted in before the run goes on).
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache ROOT=$PWD
rm -rf /tmp/o; mkdir -p /tmp/o
{ nproc; lscpu | grep "Model name"; for f in enabled defrag; do echo "thp $f: $(cat /sys/kernel/mm/transparent_hugepage/$f)"; done; } > /tmp/o/machine.txt 2>&1
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for round in 1 2; do
  for v in default s21 s21t16 sync; do
    case $v in default) E="";; s21) E="TESSERA_POPULATE_SHIFT=21";; s21t16) E="TESSERA_POPULATE_SHIFT=21 TESSERA_POPULATE_THREADS=16";; sync) E="TESSERA_NO_POPULATE=1";; esac
    for c in bfs wcc; do echo "== $v $round" >> /tmp/o/tl.txt; env $E node .device/tl.mjs $c /tmp/g.tsr 30 2>&1 | head -3 >> /tmp/o/tl.txt; done
  done
done
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt; grep -v "runs" /tmp/o/tl.txt | cut -c1-200
