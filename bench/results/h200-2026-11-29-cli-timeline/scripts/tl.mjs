// node --import ./tl.mjs dist/src/cli/main.js run ...: a `tessera run` process's timeline, ms since the process began: this hook's load, each method of GpuController, CpuSocketActor, Engine (create, run, close) and Prestart called (count, first start, last end), and the `exit` event; to stderr at exit. ROOT: the build (default the repository).
import path from 'node:path';
const T0 = performance.now();
const root = process.env.ROOT ?? process.cwd();
const dist = (p) => import(path.join(root, 'dist', p));
const agg = new Map();
const note = (k, s, e) => { const a = agg.get(k) ?? { n: 0, first: s, last: e }; a.n++; a.first = Math.min(a.first, s); a.last = Math.max(a.last, e); agg.set(k, a); };
const wrap = (obj, k, label) => { const f = obj[k]; if (typeof f !== 'function') return; obj[k] = function (...a) { const s = performance.now(); const r = f.apply(this, a); const name = typeof label === 'function' ? label(a) : label; if (r && typeof r.then === 'function') r.then(() => note(name, s, performance.now()), () => {}); else note(name, s, performance.now()); return r; }; };
const all = (C, prefix, skip = []) => { for (const k of Object.getOwnPropertyNames(C.prototype)) { const d = Object.getOwnPropertyDescriptor(C.prototype, k); if (k !== 'constructor' && !skip.includes(k) && typeof d.value === 'function') wrap(C.prototype, k, `${prefix}.${k}`); } };
const { GpuController } = await dist('actors/gpu/native.js');
const { CpuSocketActor } = await dist('actors/cpu/socket-actor.js');
const { Engine } = await dist('src/engine/coordinator.js');
const { Prestart } = await dist('src/engine/prestart.js');
wrap(GpuController, 'create', 'gpu.create');
all(GpuController, 'gpu', ['timed', 'spentSince']);
all(CpuSocketActor, 'socket');
wrap(Engine, 'create', 'Engine.create');
wrap(Engine.prototype, 'run', (a) => `Engine.run ${a[0]?.name}`);
wrap(Engine.prototype, 'close', 'Engine.close');
all(Prestart, 'prestart');
const HOOKED = performance.now();
process.on('exit', () => {
  const rows = [...agg.entries()].sort((a, b) => a[1].first - b[1].first).map(([k, a]) => `  ${a.first.toFixed(1)}-${a.last.toFixed(1)} x${a.n} ${k}`);
  process.stderr.write(`TL hook ${T0.toFixed(1)}-${HOOKED.toFixed(1)}, exit event ${performance.now().toFixed(1)}\n${rows.join('\n')}\n`);
});
