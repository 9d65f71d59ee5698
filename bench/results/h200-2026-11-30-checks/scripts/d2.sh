#!/bin/bash
# Session 53 call 2: freeScratch (scratch freed when the program changes) on a real GPU: gpu-check
# every program GPU-only, and one session running programs in turn under a memoryLimit against
# fresh sessions.
set -u
xz -dc .device/node.xz > /tmp/node && chmod +x /tmp/node && export PATH=/tmp:$PATH
tar xJf .device/prod-modules.tar.xz
mkdir -p $OUT/r
timeout 240 node scripts/gpu-check.mjs --gpu-share 1 --no-bench > $OUT/r/gpu-check-1.txt 2>&1; echo "rc $?" >> $OUT/r/gpu-check-1.txt
ln -sfn "$PWD" /tmp/repo
cat > /tmp/sess.mjs <<'JS'
import { generate, openSession } from '/tmp/repo/dist/src/index.js';
const g = generate('rmat:16');
const topology = { name: 'g', source: 'device', sockets: [{ id: 0, threads: 4 }], gpus: [{ device: 0, memoryLimit: 96 * 2 ** 20 }], interconnect: {}, model: {} };
const seq = ['wcc', 'tc', 'bfs', 'pr', 'cdlp', 'lcc', 'sssp', 'bc', 'wcc', 'scc', 'kcore', 'pr'];
const params = (p) => (p === 'bfs' || p === 'sssp' ? { source: g.ids.toOriginal[0] } : p === 'bc' ? { sources: 4 } : {});
const fresh = {};
for (const p of new Set(seq)) { const s = await openSession(g, { topology, gpuShare: 1 }); try { fresh[p] = Array.from((await s.run(p, params(p))).values); } catch (e) { fresh[p] = 'ERR ' + e.message.slice(0, 200); } await s.close(); }
const s = await openSession(g, { topology, gpuShare: 1 });
for (const p of seq) {
  let got; try { got = Array.from((await s.run(p, params(p))).values); } catch (e) { got = 'ERR ' + e.message.slice(0, 200); }
  const want = fresh[p];
  const same = typeof got !== 'string' && typeof want !== 'string' && got.length === want.length && got.every((x, i) => x === want[i] || Math.abs(x - want[i]) <= 1e-9 * Math.max(1, Math.abs(want[i])));
  console.log(p, same ? 'same as a fresh session' : `DIFFERS: ${typeof got === 'string' ? got : 'values'} / ${typeof want === 'string' ? want : 'values'}`);
}
await s.close();
JS
timeout 200 node /tmp/sess.mjs > $OUT/r/session.txt 2>&1; echo "rc $?" >> $OUT/r/session.txt
tar czf $OUT/r.tgz -C $OUT r
