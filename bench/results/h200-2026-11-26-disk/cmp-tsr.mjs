// Compares two .tsr files' contents by their headers' checksums (pages, degrees, id maps).
import { readTsrHeader } from '../dist/src/graph/tsr-read.js';
const [a, b] = await Promise.all(process.argv.slice(2, 4).map((f) => readTsrHeader(f)));
const sig = (h) => JSON.stringify({ n: h.numVertices, m: h.numEdges, d: h.directed, w: h.weightType, pe: h.pageEdges, out: h.pages.out.map((e) => [e.vBegin, e.vEnd, e.split, e.edges, e.length, e.checksum]), in: h.pages.in.map((e) => [e.vBegin, e.vEnd, e.split, e.edges, e.length, e.checksum]), arrays: Object.fromEntries(Object.entries(h.arrays).map(([k, v]) => [k, [v.length, v.checksum]])) });
console.log(sig(a) === sig(b) ? 'same pages, degrees and id maps' : 'DIFFERENT', a.pages.out.length, b.pages.out.length);
