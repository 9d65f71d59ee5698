#!/bin/bash
# Session 34 call 9 (nvidia-h100-x1, 16 cores): "before" f126f76 ( a run's fresh arrays faulted
# in on other threads while it goes on) against "after" (on CPU sockets alone, faulted in before the
# run goes on), interleaved: tl.mjs bfs and wcc on RMAT 22 (30 runs, 16 threads), three rounds; the
# harness RMAT 22 (bfs, wcc, sssp, pr; each cell a fresh process, 3 runs after 1) against GAPBS,
# after then before.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
[ -d /tmp/node_modules ] || tar xJf .device/prod-modules.tar.xz -C /tmp
ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/B; mkdir -p /tmp/B && tar xJf .device/before36.tar.xz -C /tmp/B && ln -sfn /tmp/node_modules /tmp/B/node_modules && cp -r configs bench /tmp/B/
rm -rf /tmp/o; mkdir -p /tmp/o
{ nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
[ -x /tmp/gapbs/bfs ] || { cp -r .device/gapbs /tmp/gapbs && (cd /tmp/gapbs && make -j16 bfs cc sssp pr >/dev/null 2>&1); }
[ -f /tmp/g.tsr ] || node dist/src/cli/main.js generate rmat --scale 22 --weighted --out /tmp/g.tsr > /tmp/o/gen.txt 2>&1
for round in 1 2 3; do
  for b in before after; do
    R=$PWD; [ $b = before ] && R=/tmp/B
    for c in bfs wcc; do echo "== $b $round" >> /tmp/o/tl.txt; ROOT=$R node .device/tl.mjs $c /tmp/g.tsr 30 2>&1 | head -3 >> /tmp/o/tl.txt; done
  done
done
timeout 200 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs,wcc,sssp,pr --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-after --no-progress > /tmp/o/harness-after.txt 2>&1; echo "harness after rc=$?" >> /tmp/o/machine.txt
(cd /tmp/B && timeout 200 node dist/src/cli/main.js bench --config bench/gapbs-rmat22.yaml --programs bfs,wcc,sssp,pr --peer gapbs=/tmp/gapbs --out-dir /tmp/o/harness-before --no-progress > /tmp/o/harness-before.txt 2>&1); echo "harness before rc=$?" >> /tmp/o/machine.txt
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/machine.txt; grep -v "runs" /tmp/o/tl.txt | cut -c1-160; for h in after before; do echo "## $h"; grep -A9 "Peers on the same" /tmp/o/harness-$h/*/results.md | grep rmat; done
