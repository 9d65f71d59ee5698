import path from 'node:path'; import fs from 'node:fs';
const dist = (p) => import(path.join(process.env.ROOT ?? '/work/main', 'dist', p));
const { generate } = await dist('src/api.js');
const a2 = process.argv[2]; const g0 = a2.endsWith(".tsr") ? await (await dist("src/graph/tsr.js")).readTsr(a2) : generate(`rmat:${a2}:weighted`); const g = g0.graph ?? g0;
const fd = fs.openSync(process.argv[3], 'w'); let buf = [];
for (const p of g.out.pages) { if (p.split) { for (let e = 0; e < p.edges; e++) buf.push(`${p.vBegin} ${p.nbrs[e]}`); } else for (let i = 0; i < p.vEnd - p.vBegin; i++) for (let e = p.offsets[i]; e < p.offsets[i + 1]; e++) buf.push(`${p.vBegin + i} ${p.nbrs[e]}`);
  fs.writeSync(fd, buf.join('\n') + '\n'); buf = []; }
fs.closeSync(fd);
