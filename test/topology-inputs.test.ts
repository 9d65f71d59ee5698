/**
 * Topology refusals: zero or fractional sizes and bandwidths, and error lines counted in the
 * original text (comments and blank lines included).
 */
import test from 'ava';
import os from 'node:os';
import { isTesseraError } from '../src/errors.js';
import { parseTopology } from '../src/topology/parse.js';

const refused = (t: import('ava').ExecutionContext, text: string, re: RegExp): void => {
  const e = t.throws(() => parseTopology(text, 'g.yaml'));
  t.true(isTesseraError(e));
  t.regex(e!.message, re);
};

test('topology: zero or negative bandwidth and sizes below one whole byte are refused with file, line and key', (t) => {
  const head = 'sockets: [{threads: 1}]\n';
  refused(t, `${head}interconnect: {bandwidth: 0GB/s}\n`, /^g\.yaml:2: .*interconnect\.bandwidth: must be at least 1 B\/s.*Fix: use a positive bandwidth/);
  refused(t, `${head}interconnect: {bandwidth: -1}\n`, /^g\.yaml:2: .*\(at interconnect\.bandwidth\)/);
  refused(t, `${head}gpus: [{device: 0, emulated: true, streams: 2, memoryLimit: 0GiB}]\n`, /^g\.yaml:2: .*gpus\.0\.memoryLimit: must be a whole number of bytes, at least 1.*Fix: use a size/);
  refused(t, `${head}gpus: [{device: 0, emulated: true, memoryLimit: 0.1B}]\n`, /^g\.yaml:2: .*\(at gpus\.0\.memoryLimit\)/);
  refused(t, `${head}hostMemoryLimit: 0MiB\n`, /^g\.yaml:2: .*\(at hostMemoryLimit\)/);
  const ok = parseTopology(`${head}gpus: [{device: 0, emulated: true, memoryLimit: 1.5KiB}]\ninterconnect: {bandwidth: 10GB/s}\n`, 'g.yaml');
  t.is(ok.gpus[0]!.memoryLimit, 1536);
  t.is(ok.interconnect.bandwidth, 10e9);
});

test('topology: error lines are those of the original text (comments, blank lines, extra spaces)', (t) => {
  const text = 'name: g\n# a comment\n\n# another\nsockets:\n  - threads: 1\ngpus:\n  - device: 0\n    emulated:    true\n    memorylimit: 2GiB\n';
  refused(t, text, /^g\.yaml:10: .*Unrecognized key: "memorylimit"/);
  refused(t, 'sockets:\n  - threads: 1\n\n\ninterconnect:    {bandwidth:    0GB/s}\n', /^g\.yaml:5: /);
  refused(t, '# top\n\nsockets:\n\n  - threads: -2\n', /^g\.yaml:5: .*sockets\.0\.threads/);
});

test('topology: too many sockets all on threads: auto are refused with a fix that asks for fewer sockets', (t) => {
  const max = 4 * os.availableParallelism();
  const text = `sockets:\n${'  - threads: auto\n'.repeat(max + 1)}`;
  const e = t.throws(() => parseTopology(text, 'g.yaml'));
  t.regex(e!.message, new RegExp(`Fix: list at most ${max} sockets`));
  t.notRegex(e!.message, /or threads: auto/);
});
