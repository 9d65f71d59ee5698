/** BFS in the benchmark's peers: GAPBS's direction-optimising BFS, graphology-traversal's BFS. */
import { createRequire } from 'node:module';
import type { ProgramPeers } from '../../engine/define.js';

const require = createRequire(import.meta.url); // graphology (CommonJS, optional): loaded when it runs

export const peers: ProgramPeers = {
  gapbs: ({ el, source, trials }) => ({ binary: 'bfs', args: ['-f', el, '-r', String(source), '-n', String(trials)], note: 'direction-optimising BFS' }),
  graphology: {
    what: 'graphology-traversal bfsFromNode (outbound)',
    run(G, source) {
      const { bfsFromNode } = require('graphology-traversal') as { bfsFromNode(g: unknown, n: unknown, cb: () => void, o: object): void };
      return () => bfsFromNode(G, source, () => undefined, { mode: 'outbound' });
    },
  },
};
