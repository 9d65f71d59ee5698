/**
 * wcc's Afforest where a vertex's first out-neighbours lie on several pages (pages of 1-3 edges):
 * its sampling once linked only those of the vertex's first page while the final pass skipped the
 * first `rounds` across all of them, so an edge could be linked from neither end and a component
 * came out split (a 9-edge graph at pageEdges 2, found by a random search against an outside
 * oracle). Random graphs against a plain union-find (fixtures/wcc/small-pages.ts), in a process of
 * their own per path: the native team, supersteps, TypeScript kernels.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const script = fileURLToPath(new URL('./fixtures/wcc/small-pages.js', import.meta.url));
const paths: Array<[string, Record<string, string>]> = [
  ['the native team', {}],
  ['supersteps', { TESSERA_TEAM: '0' }],
  ['TypeScript kernels', { TESSERA_TEAM: '0', TESSERA_NATIVE_KERNELS: '0' }],
];

for (const [name, env] of paths) {
  test(`wcc equals a union-find on random graphs with pages of 1-3 edges (${name})`, async (t) => {
    const { stdout } = await promisify(execFile)(process.execPath, [script, '40'], { env: { ...process.env, ...env }, maxBuffer: 1 << 24 });
    const { runs, wrong } = JSON.parse(stdout.trim().split('\n').pop()!) as { runs: number; wrong: string[] };
    t.is(runs, 240);
    t.deepEqual(wrong, []);
  });
}
