/** Numbers in summaries, `tessera model` and results.md: Intl.NumberFormat, compact and in bytes. */
import test from 'ava';
import { compact, compactBytes } from '../src/format.js';

test('counts are compact with three significant digits; bytes in decimal units', (t) => {
  t.deepEqual([0, 7, 999, 31_400, 1_534_000, 2_690_000_000].map(compact), ['0', '7', '999', '31.4K', '1.53M', '2.69B']);
  t.deepEqual([999, 462_000, 1_200_000_000, 3.5e12].map(compactBytes), ['999B', '462kB', '1.2GB', '3.5TB']);
});

test('compact and compactBytes write what Intl.NumberFormat writes, without it', (t) => {
  const intl = new Intl.NumberFormat('en', { notation: 'compact', maximumSignificantDigits: 3 });
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'].map((unit) => new Intl.NumberFormat('en', { style: 'unit', unit, unitDisplay: 'narrow', maximumSignificantDigits: 3 }));
  const bytes = (x: number): string => {
    let i = 0;
    while (i < units.length - 1 && Math.abs(x) >= 1000 ** (i + 1)) i++;
    return units[i]!.format(x / 1000 ** i);
  };
  // Halves and round-ups at every magnitude (999.5 -> 1K, 1.005 -> 1.01: ICU rounds the shortest
  // decimal), the extremes, and a seeded spread of magnitudes and digits.
  const xs = [0, -0, 1, 7, 0.5, 1.005, 2.675, 0.125, 999.4, 999.5, 99_950, 999_500, 1e15, 1.23456e16, 1e21, 5e-324, Number.MAX_VALUE, 0.1 + 0.2, NaN, Infinity, -Infinity];
  let seed = 12345;
  const rand = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  for (let i = 0; i < 3000; i++) {
    const e = Math.floor(rand() * 40) - 12;
    const kind = i % 3;
    const m = kind === 0 ? rand() * 10 : kind === 1 ? Math.round(rand() * 10_000) / 1000 : Math.floor(rand() * 1000) + 0.5;
    xs.push((i % 7 === 0 ? -1 : 1) * m * 10 ** e, Math.round(m * 10 ** Math.max(0, e)));
  }
  for (const x of xs) {
    t.is(compact(x), intl.format(x), `compact(${x})`);
    t.is(compactBytes(x), bytes(x), `compactBytes(${x})`);
  }
});
