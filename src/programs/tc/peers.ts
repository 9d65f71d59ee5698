/** Triangle counting in the benchmark's peers: GAPBS tc on the symmetrised graph (its total). */
import type { ProgramPeers } from '../../engine/define.js';

export const peers: ProgramPeers = {
  gapbs: ({ el, trials }) => ({ binary: 'tc', args: ['-f', el, '-s', '-n', String(trials)], note: 'ordered triangle counting on the symmetrised graph' }),
};
