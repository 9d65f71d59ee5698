/**
 * `tessera demo` (npm start): plain words per program (what it computed, a few results, its time
 * and the serial reference's), every built-in checked; --verbose adds the engine's reports.
 */
import test from 'ava';
import { PROGRAMS } from '../src/programs/index.js';
import { tessera } from './helpers/cli.js';

test('tessera demo: every built-in in plain words, checked; --verbose adds the run reports', async (t) => {
  const r = await tessera(['demo', '--scale', '10', '--topology', 'configs/1S.yaml']);
  t.is(r.code, 0, r.stderr);
  for (const p of PROGRAMS) t.regex(r.stdout, new RegExp(`^${p.name}: `, 'm'));
  t.regex(r.stdout, /vertices reachable from vertex \d+; the farthest is \d+ hops away/);
  t.regex(r.stdout, /groups; the largest has [\d,]+ vertices/);
  t.regex(r.stdout, /highest: \d+ \(/);
  t.is((r.stdout.match(/the serial reference took .*; same result/g) ?? []).length, PROGRAMS.length);
  t.regex(r.stdout, new RegExp(`all ${PROGRAMS.length} results match their serial references`));
  t.notRegex(r.stdout, /supersteps/);
  const v = await tessera(['demo', '--scale', '8', '--topology', 'configs/1S.yaml', '--verbose']);
  t.is(v.code, 0, v.stderr);
  t.regex(v.stdout, /supersteps/);
});
