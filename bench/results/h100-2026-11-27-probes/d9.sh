#!/bin/bash
# Call 9 (x1): call 8 again after the sink count moved to the coordinator (pr), reports of runs 1 and 6.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz -C /tmp && ln -sfn /tmp/node_modules node_modules
export TESSERA_CACHE_DIR=/tmp/tcache
rm -rf /tmp/o; mkdir -p /tmp/o
{ nvidia-smi -L; nproc; lscpu | grep "Model name"; } > /tmp/o/machine.txt 2>&1
[ -f /tmp/g24w.tsr ] || timeout 100 node dist/src/cli/main.js generate rmat --scale 24 --weighted --out /tmp/g24w.tsr > /tmp/o/gen24.txt 2>&1
for c in bfs wcc pr; do REPORTS=/tmp/o/reports.jsonl timeout 100 node .device/warm.mjs $PWD /tmp/g24w.tsr $c 2>>/tmp/o/warm.err >> /tmp/o/warm.jsonl; done
tar cJf $OUT/all.tar.xz -C /tmp o
cat /tmp/o/warm.jsonl; tail -3 /tmp/o/warm.err
python3 - <<'PY'
import json
for l in open('/tmp/o/reports.jsonl'):
    r=json.loads(l); print(r['cell'], r['run'], {k: round(v,1) for k,v in r['phases'].items()})
    for s in r['steps'][:3]:
        g=s['gpu'][0]; print('   ', s['step'], round(s['ms'],1), {k: (round(v,2) if isinstance(v,float) else v) for k,v in g.items() if k in ('computeMs','voteMs','runMs','writeMs','readMs','pinMs','copyMs','kernelMs','stateBytesIn','stateBytesOut','misses')})
PY
