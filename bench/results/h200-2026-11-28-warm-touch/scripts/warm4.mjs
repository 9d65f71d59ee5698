// A candidate longer warm-up (not the engine's): the engine's warm-up-gpu program's push, then its pull over every vertex three more times (each reads the preloaded pages once: the 'touch' kernel). For ft.mjs PRE=.../warm4.mjs: does more of the coordinator's JavaScript warm up?
import path from 'node:path';
const root = process.env.ROOT ?? process.cwd();
const { defineProgram } = await import(path.join(root, 'dist/src/engine/define.js'));
export default defineProgram({
  name: 'warm4',
  summary: 'warm-up candidate',
  params: {},
  state: {},
  output: 'int',
  kernels: new URL(path.join('file://', root, 'dist/src/engine/warm-up-kernels.js')),
  gpu: new URL(path.join('file://', root, 'dist/src/engine/warm-up-gpu.js')),
  profile: { mode: 'pull', stateBytesPerVertex: 0, passes: 1, unit: 'run', vertexTerm: false },
  async run(ctx) {
    const only = ctx.gpusOwnAll ? { gpuOnly: true } : {};
    const from = ctx.frontierOf([0]);
    const { next } = await ctx.edgeMap('touch', from, {}, {}, { modes: ['push'], ...only });
    ctx.release(next);
    ctx.release(from);
    for (let i = 0; i < 3; i++) {
      const all = await ctx.edgeMap('touch', ctx.all(), {}, {}, { modes: ['pull'], ...only });
      ctx.release(all.next);
    }
    return new Int32Array(0);
  },
});
