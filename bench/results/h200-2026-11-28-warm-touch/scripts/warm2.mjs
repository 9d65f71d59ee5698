// A candidate warm-up (not the engine's): warm-up.ts's two supersteps of `touch`, the pull passing a u8 array declared resident 'device' that one GPU owning every vertex holds (warm2-gpu.mjs) and the run's end reads back, as wcc's labels and bfs's depths are. For ft.mjs PRE=.../warm2.mjs.
import path from 'node:path';
const root = process.env.ROOT ?? process.cwd();
const { defineProgram } = await import(path.join(root, 'dist/src/engine/define.js'));
export default defineProgram({
  name: 'warm2',
  summary: 'warm-up candidate',
  params: {},
  state: { mark: { type: 'u8', init: 'unset', reduce: 'owner', resident: 'device' } },
  output: 'int',
  kernels: new URL(path.join('file://', root, 'dist/src/engine/warm-up-kernels.js')),
  gpu: new URL('./warm2-gpu.mjs', import.meta.url),
  profile: { mode: 'pull', stateBytesPerVertex: 0, passes: 1, unit: 'run', vertexTerm: false },
  async run(ctx) {
    const only = ctx.gpusOwnAll ? { gpuOnly: true } : {};
    const { next } = await ctx.edgeMap('touch', ctx.frontierOf([0]), {}, {}, { modes: ['push'], ...only });
    ctx.release(next);
    const all = await ctx.edgeMap('touch', ctx.all(), { mark: ctx.state.mark }, { x: 1 }, { modes: ['pull'], pullPages: 'out', ...only });
    ctx.release(all.next);
    return new Int32Array(0);
  },
});
