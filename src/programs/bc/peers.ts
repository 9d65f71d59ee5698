/** Betweenness in the benchmark's peers: GAPBS's sampled Brandes (exact bc has no equivalent). */
import type { ProgramPeers } from '../../engine/define.js';

export const peers: ProgramPeers = {
  gapbs: ({ el, params, trials }) =>
    params.sources === undefined
      ? null
      : { binary: 'bc', args: ['-f', el, '-i', String(params.sources), '-n', String(trials)], note: `Brandes from ${String(params.sources)} random sources (not tessera's sample)` },
};
