/** WCC in the benchmark's peers: GAPBS's Afforest, graphology-components. */
import { createRequire } from 'node:module';
import type { ProgramPeers } from '../../engine/define.js';

// graphology ships CommonJS and is the harness's optional peer: loaded only when it runs.
const require = createRequire(import.meta.url);

export const peers: ProgramPeers = {
  gapbs: ({ el, trials }) => ({ binary: 'cc', args: ['-f', el, '-n', String(trials)], note: 'Afforest connected components' }),
  graphology: {
    what: 'graphology-components connectedComponents',
    run(G) {
      const { connectedComponents } = require('graphology-components') as { connectedComponents(g: unknown): unknown };
      return () => void connectedComponents(G);
    },
  },
};
