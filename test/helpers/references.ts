/** The built-ins' serial references (each lives in its program's folder), for the tests. */
export { flatten, outCsr, inCsr, undirectedCsr, degree, type Csr } from '../../src/programs/adjacency.js';
export { referenceBfs } from '../../src/programs/bfs/reference.js';
export { referencePageRank, type ReferencePageRankParams } from '../../src/programs/pr/reference.js';
export { referenceSssp } from '../../src/programs/sssp/reference.js';
export { referenceWcc } from '../../src/programs/wcc/reference.js';
export { referenceCdlp } from '../../src/programs/cdlp/reference.js';
export { referenceLcc } from '../../src/programs/lcc/reference.js';
export { referenceBetweenness } from '../../src/programs/bc/reference.js';
