// node rt.mjs G.tsr [busy]: readTsr alone, its wall ms; with `busy`, this thread kept busy meanwhile in 20 ms slices with
// 1 ms gaps (as the CLI's module compiles keep it during a load), to see what the load loses when its batches wait for it.
const R = process.env.ROOT ?? process.cwd();
const { readTsr } = await import(R + '/dist/src/graph/tsr-read.js');
let stop = false;
if (process.argv[3] === 'busy') { const spin = () => { if (stop) return; const t = performance.now(); while (performance.now() - t < 20); setTimeout(spin, 1); }; setTimeout(spin, 0); }
const t0 = performance.now();
const g = await readTsr(process.argv[2]);
stop = true;
console.log(`${process.argv[3] ?? 'idle'} readTsr ${(performance.now() - t0).toFixed(0)} ms, ${g.out.pages.length + (g.in === g.out ? 0 : g.in.pages.length)} pages`);
