/** Serial reference implementations (tests and validation only). */
export { flatten, outCsr, inCsr, undirectedCsr, degree, type Csr } from './adjacency.js';
export { referenceBfs } from './bfs.js';
export { referencePageRank, type ReferencePageRankParams } from './pagerank.js';
export { referenceSssp } from './sssp.js';
export { referenceWcc } from './wcc.js';
export { referenceCdlp } from './cdlp.js';
export { referenceLcc } from './lcc.js';
export { referenceBetweenness } from './betweenness.js';
