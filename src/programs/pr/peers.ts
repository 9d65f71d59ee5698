/** PageRank in the benchmark's peers: GAPBS's pull PageRank, graphology-metrics' pagerank. */
import { createRequire } from 'node:module';
import type { ProgramPeers } from '../../engine/define.js';

// graphology ships CommonJS and is the harness's optional peer: loaded only when it runs.
const require = createRequire(import.meta.url);

export const peers: ProgramPeers = {
  // -t 0: never converges early, so exactly -i iterations run (damping fixed at 0.85 in GAPBS).
  gapbs: ({ el, params, trials }) => ({ binary: 'pr', args: ['-f', el, '-i', String(params.iterations ?? 10), '-t', '0', '-n', String(trials)], note: 'pull PageRank, fixed iterations' }),
  graphology: {
    what: 'graphology-metrics pagerank (fixed iterations)',
    run(G, _source, p) {
      const pagerank = require('graphology-metrics/centrality/pagerank') as (g: unknown, o: object) => unknown;
      const iterations = (p.iterations as number | undefined) ?? 10;
      return () => {
        try {
          // tolerance -1 never converges: graphology runs maxIterations, then throws; the work is done.
          pagerank(G, { alpha: (p.damping as number | undefined) ?? 0.85, maxIterations: iterations, tolerance: -1, getEdgeWeight: null });
        } catch (e) {
          if (!/failed to converge/.test(String(e))) throw e;
        }
      };
    },
  },
};
