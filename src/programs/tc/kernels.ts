/**
 * tc's CPU kernels: LCC's degree-ordered enumeration (lcc/kernels.ts), run with every
 * multiplicity 1 (index.ts).
 */
export { lccCount, lccFill, lccTri } from '../lcc/kernels.js';
