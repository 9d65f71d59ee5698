#!/bin/bash
# Issue 25: BFS from disk before and after pullIf (pull levels skip tasks whose vertices are all reached), same call.
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
mkdir -p /tmp/before && tar xJf .device/before-dist.tar.xz -C /tmp/before && ln -sfn /tmp/node_modules /tmp/before/node_modules && mkdir -p /tmp/before/build && ln -sfn $PWD/build/Release /tmp/before/build/Release && cp package.json /tmp/before/
export TESSERA_CACHE_DIR=/tmp/tcache TESSERA_NATIVE_DIR=$PWD/build/Release
L=$OUT/log.txt
G=/tmp/g26.tsr
drop() { python3 -c "import os,sys; fd=os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED)" $G; }
node dist/src/cli/main.js generate rmat --scale 26 --out $G >> $L 2>&1
echo "== dd buffered (cold)" >> $L; drop; dd if=$G of=/dev/null bs=64M >> $L 2>&1
echo "== bfs in memory (after)" >> $L
node dist/src/cli/main.js run --algo bfs --source 0 --graph $G --topology configs/1S.yaml --out /tmp/bfs.mem >> $L 2>&1
for k in 1 2; do
  for b in before after; do
    D=dist; [ $b = before ] && D=/tmp/before/dist
    echo "== bfs from disk 2GiB, $b, run $k" >> $L; drop
    node $D/src/cli/main.js run --algo bfs --source 0 --graph $G --topology configs/1S.yaml --host-memory 2GiB --report $OUT/bfs-$b-$k.json --out /tmp/bfs.$b >> $L 2>&1
    cmp /tmp/bfs.mem /tmp/bfs.$b >> $L 2>&1 && echo "outputs identical" >> $L
  done
done
date >> $L
