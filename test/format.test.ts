/** Numbers in summaries, `tessera model` and results.md: Intl.NumberFormat, compact and in bytes. */
import test from 'ava';
import { compact, compactBytes } from '../src/format.js';

test('counts are compact with three significant digits; bytes in decimal units', (t) => {
  t.deepEqual([0, 7, 999, 31_400, 1_534_000, 2_690_000_000].map(compact), ['0', '7', '999', '31.4K', '1.53M', '2.69B']);
  t.deepEqual([999, 462_000, 1_200_000_000, 3.5e12].map(compactBytes), ['999B', '462kB', '1.2GB', '3.5TB']);
});
