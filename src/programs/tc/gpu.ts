/** The GPU side of tc: lcc's triangle superstep (lcc/gpu.ts), run with every multiplicity 1 (`unit`). */
export { lccTri } from '../lcc/gpu.js';
