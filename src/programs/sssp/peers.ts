/** SSSP in the benchmark's peers: GAPBS's delta-stepping, graphology-shortest-path's Dijkstra. */
import { createRequire } from 'node:module';
import type { ProgramPeers } from '../../engine/define.js';

// graphology ships CommonJS and is the harness's optional peer: loaded only when it runs.
const require = createRequire(import.meta.url);

export const peers: ProgramPeers = {
  gapbsWeighted: true,
  gapbs: ({ wel, params, source, meanWeight, weightScale, trials }) => {
    // Same window as tessera's default (the mean edge weight), in GAPBS's integer weights.
    const delta = Math.max(1, Math.round(((params.window as number | undefined) ?? meanWeight) * weightScale));
    return { binary: 'sssp', args: ['-f', wel, '-r', String(source), '-d', String(delta), '-n', String(trials)], note: `delta-stepping, delta ${delta} (weights x ${weightScale})` };
  },
  graphology: {
    what: 'graphology-shortest-path dijkstra.singleSource (also builds the paths)',
    run(G, source) {
      const dijkstra = require('graphology-shortest-path/dijkstra') as { singleSource(g: unknown, s: unknown, w: string): unknown };
      return () => void dijkstra.singleSource(G, source, 'weight');
    },
  },
};
