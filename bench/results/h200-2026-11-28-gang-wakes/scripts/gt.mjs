// node gt.mjs < output of cv with GANG_TL: per generation, the threads' start spread (ms) and the slowest thread's run
import fs from 'node:fs';
const lines = fs.readFileSync(0, 'utf8').split('\n');
const gens = new Map(); const runs = [];
for (const l of lines) {
  const m = l.match(/^GT (\d+) (\d+) ([\d.]+) ([\d.]+) ([\d.]+)/);
  if (m) { const g = +m[2]; if (!gens.has(g)) gens.set(g, []); gens.get(g).push({ t: +m[1], at: +m[3], ran: +m[4] }); }
  else if (/^\d+ /.test(l)) runs.push(l.split(' ').slice(0, 5).join(' '));
}
const out = [];
for (const [g, xs] of [...gens].sort((a, b) => a[0] - b[0])) {
  const first = Math.min(...xs.map((x) => x.at)), last = Math.max(...xs.map((x) => x.at));
  const end = Math.max(...xs.map((x) => x.at + x.ran));
  const late = xs.filter((x) => x.at - first > 0.5).length;
  out.push(`gen ${g}: threads ${xs.length}, start spread ${(last - first).toFixed(2)} ms (${late} over 0.5), first start to last end ${(end - first).toFixed(2)}`);
}
console.log(runs.join('\n')); console.log(out.join('\n'));
