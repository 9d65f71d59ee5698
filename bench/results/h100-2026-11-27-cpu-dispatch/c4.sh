#!/bin/bash
# Session 34 call 10 (nvidia-h100-x1, 16 cores): the harness RMAT 22 (bfs, wcc; each cell a fresh
# process, 3 runs after 1) against GAPBS, "before" f126f76 and "after" (call 9's builds) in turn,
# two rounds each.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
[ -d /tmp/B/dist ] || { rm -rf /tmp/B; mkdir -p /tmp/B && tar xJf .device/before36.tar.xz -C /tmp/B && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp -r configs bench /tmp/B/; }
rm -rf /tmp/o; mkdir -p /tmp/o
{ nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
[ -x /tmp/gapbs/bfs ] || { cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc >/dev/null 2>&1); }
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for round in 1 2; do
  for b in before after; do
    R=$PWD; [ $b = before ] && R=/tmp/B
    (cd $R && timeout 120 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs,wcc --peer gapbs=/tmp/gapbs --out-dir /tmp/o/h-$b-$round --no-progress > /tmp/o/h-$b-$round.txt 2>&1); echo "harness $b $round rc=$?" >> /tmp/o/machine.txt
  done
done
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt; for b in before after; do for r in 1 2; do echo "## $b $r"; grep -A9 "Peers on the same" /tmp/o/h-$b-$r/*/results.md | grep rmat; done; done
