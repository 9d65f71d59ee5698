/**
 * warm-up.ts's GPU side. `touch` changes nothing (transient: the preloaded program's device arrays
 * stay); in the pull over every vertex it reads the actor's pages on the device (the native
 * kernel 'touch'), where its start put them there whole (never a streaming pass at create): a
 * session's first run then does not find the device cold (a first run's kernel calls were slower
 * than later ones, and no slower after another program's run).
 */
import { SET_IN, SET_OUT, type GpuHandler } from '../../actors/gpu/handler.js';

export const touch: GpuHandler = {
  modes: ['push', 'pull'],
  transient: true,
  async run(a, s) {
    if (s.f.mode === 'pull') {
      for (const setId of a.directed ? [SET_OUT, SET_IN] : [SET_OUT]) {
        if (!a.preloaded.has(setId)) continue;
        const pages = a.rangePages(setId);
        // The warm-up's earlier rounds (args.onePage) take the same calls over one page only.
        await a.run('touch', { setId, pages: s.f.args.onePage === 1 ? pages.slice(0, 1) : pages, params: {}, state: {} });
      }
    }
    return a.out({});
  },
};
