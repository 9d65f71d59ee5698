#!/bin/bash
# Issue 25: tessera model's prediction for PageRank from disk against the run, same call.
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
L=$OUT/log.txt
G=/tmp/g26.tsr
drop() { python3 -c "import os,sys; fd=os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED)" $G; }
node dist/src/cli/main.js generate rmat --scale 26 --out $G >> $L 2>&1
echo "== dd buffered (cold)" >> $L; drop; dd if=$G of=/dev/null bs=64M >> $L 2>&1
for lim in 2GiB 1GiB; do
  echo "== model pr, host memory $lim" >> $L
  node dist/src/cli/main.js model --graph $G --algo pr --topology configs/1S.yaml --host-memory $lim --passes 10 >> $L 2>&1
  echo "== run pr, host memory $lim" >> $L; drop
  node dist/src/cli/main.js run --algo pr --graph $G --topology configs/1S.yaml --iterations 10 --host-memory $lim --report $OUT/pr-$lim.json >> $L 2>&1
done
date >> $L
