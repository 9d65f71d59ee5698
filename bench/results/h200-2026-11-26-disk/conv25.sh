#!/bin/bash
# Issue 25: bounded-memory conversion of an edge list about 2x the limit; peak RSS; same .tsr as in memory.
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
L=$OUT/log.txt
rss() { python3 -c "import resource,subprocess,sys,time; t=time.time(); r=subprocess.run(sys.argv[1:]); print('exit', r.returncode, 'wall_s %.2f' % (time.time()-t), 'maxrss_MiB %.0f' % (resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss/1024))" "$@"; }
{ date; nproc; free -g; df -h /tmp; } >> $L 2>&1
S=${SCALE:-23}
echo "== edge list" >> $L
rss node dist/src/cli/main.js generate rmat --scale $S --out /tmp/g.el >> $L 2>&1
ls -la /tmp/g.el >> $L
echo "== convert, bounded ${LIMIT:-1GiB}" >> $L
rss node dist/src/cli/main.js convert /tmp/g.el --out /tmp/b.tsr --host-memory ${LIMIT:-1GiB} >> $L 2>&1
echo "== convert, in memory" >> $L
rss node dist/src/cli/main.js convert /tmp/g.el --out /tmp/m.tsr >> $L 2>&1
ls -la /tmp/b.tsr /tmp/m.tsr >> $L
node .device/cmp-tsr.mjs /tmp/b.tsr /tmp/m.tsr >> $L 2>&1
echo "== generate .tsr, bounded ${LIMIT:-1GiB}" >> $L
rss node dist/src/cli/main.js generate rmat --scale $S --out /tmp/gb.tsr --host-memory ${LIMIT:-1GiB} >> $L 2>&1
node .device/cmp-tsr.mjs /tmp/gb.tsr /tmp/m.tsr >> $L 2>&1
date >> $L
