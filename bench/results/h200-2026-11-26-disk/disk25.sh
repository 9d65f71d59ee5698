#!/bin/bash
# Issue 25 on the device: RMAT 26 .tsr, disk bandwidth (dd direct and buffered, cold), PageRank in
# memory and from disk at a 2 GiB limit (pages ~4x), outputs compared, peak RSS.
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
L=$OUT/log.txt
SCALE=${SCALE:-26}
G=/tmp/g$SCALE.tsr
rss() { python3 -c "import resource,subprocess,sys,time; t=time.time(); r=subprocess.run(sys.argv[1:]); print('exit', r.returncode, 'wall_s %.2f' % (time.time()-t), 'maxrss_MiB %.0f' % (resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss/1024))" "$@"; }
drop() { python3 -c "import os,sys; fd=os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd,0,0,os.POSIX_FADV_DONTNEED)" $G; }
{ date; nproc; free -g; df -h /tmp /; lsblk 2>/dev/null | head -20; grep -E ' / | /tmp ' /proc/mounts; } >> $L 2>&1
echo "== generate" >> $L
rss node dist/src/cli/main.js generate rmat --scale $SCALE --out $G >> $L 2>&1
ls -la $G >> $L
echo "== dd direct (cold)" >> $L; drop; dd if=$G of=/dev/null bs=64M iflag=direct >> $L 2>&1
echo "== dd buffered (cold)" >> $L; drop; dd if=$G of=/dev/null bs=64M >> $L 2>&1
echo "== pr in memory" >> $L
rss node dist/src/cli/main.js run --algo pr --graph $G --topology configs/1S.yaml --iterations 10 --report $OUT/pr-mem.json --out /tmp/pr-mem.txt >> $L 2>&1
for lim in ${LIMITS:-2GiB}; do
  echo "== pr from disk, host memory $lim" >> $L; drop
  rss node dist/src/cli/main.js run --algo pr --graph $G --topology configs/1S.yaml --iterations 10 --host-memory $lim --report $OUT/pr-disk-$lim.json --out /tmp/pr-disk.txt >> $L 2>&1
  cmp /tmp/pr-mem.txt /tmp/pr-disk.txt >> $L 2>&1 && echo "outputs identical" >> $L
done
echo "== bfs in memory" >> $L
rss node dist/src/cli/main.js run --algo bfs --source 0 --graph $G --topology configs/1S.yaml --out /tmp/bfs-mem.txt >> $L 2>&1
echo "== bfs from disk, 2GiB" >> $L; drop
rss node dist/src/cli/main.js run --algo bfs --source 0 --graph $G --topology configs/1S.yaml --host-memory 2GiB --report $OUT/bfs-disk.json --out /tmp/bfs-disk.txt >> $L 2>&1
cmp /tmp/bfs-mem.txt /tmp/bfs-disk.txt >> $L 2>&1 && echo "outputs identical" >> $L
date >> $L
