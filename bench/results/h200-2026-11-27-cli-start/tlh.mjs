// node --import ./.device/tlh.mjs ...: GpuController calls of the process, per method: count, first start, last end (ms since process start), to stderr at exit
import path from 'node:path';
const root = process.env.ROOT ?? process.cwd();
const { GpuController } = await import(path.join(root, 'dist/actors/gpu/native.js'));
const agg = new Map();
const note = (k, s, e) => { const a = agg.get(k) ?? { n: 0, first: s, last: e, sum: 0 }; a.n++; a.first = Math.min(a.first, s); a.last = Math.max(a.last, e); a.sum += e - s; agg.set(k, a); };
const wrap = (obj, k) => { const f = obj[k]; obj[k] = function (...a) { const s = performance.now(); const r = f.apply(this, a); if (r && typeof r.then === 'function') r.then(() => note(k, s, performance.now()), () => {}); else note(k, s, performance.now()); return r; }; };
wrap(GpuController, 'create');
for (const k of Object.getOwnPropertyNames(GpuController.prototype)) if (!['constructor', 'timed', 'spentSince'].includes(k) && typeof Object.getOwnPropertyDescriptor(GpuController.prototype, k).value === 'function') wrap(GpuController.prototype, k);
process.on('exit', () => { const rows = [...agg.entries()].sort((a, b) => a[1].first - b[1].first).map(([k, a]) => `${k}x${a.n} ${a.first.toFixed(0)}-${a.last.toFixed(0)}`); process.stderr.write(`TL exit ${performance.now().toFixed(0)}: ${rows.join(' | ')}\n`); });
