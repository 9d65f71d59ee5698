/**
 * Counts for people: 31400 -> "31.4K", 1.53e9 -> "1.53B" (Intl.NumberFormat's compact notation,
 * three significant digits), for the run summary, `tessera model` and results.md. The formats are
 * made on first use (ICU's set-up), not when a command's modules load.
 */
let COMPACT: Intl.NumberFormat | undefined;

export function compact(x: number): string {
  return (COMPACT ??= new Intl.NumberFormat('en', { notation: 'compact', maximumSignificantDigits: 3 })).format(x);
}

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;
let BYTES: Intl.NumberFormat[] | undefined;

/** Byte counts for people, in decimal units: 462000 -> "462kB", 1.2e9 -> "1.2GB". */
export function compactBytes(x: number): string {
  BYTES ??= BYTE_UNITS.map((unit) => new Intl.NumberFormat('en', { style: 'unit', unit, unitDisplay: 'narrow', maximumSignificantDigits: 3 }));
  let i = 0;
  while (i < BYTES.length - 1 && Math.abs(x) >= 1000 ** (i + 1)) i++;
  return BYTES[i]!.format(x / 1000 ** i);
}

let GROUPED: Intl.NumberFormat | undefined;
let SHORT: Intl.NumberFormat | undefined;

/** 1234567 -> "1,234,567" (the demo's counts). */
export function grouped(x: number): string {
  return (GROUPED ??= new Intl.NumberFormat('en-US')).format(x);
}

/** Three significant digits: 0.0123456 -> "0.0123" (the demo's values). */
export function short(x: number): string {
  return (SHORT ??= new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 })).format(x);
}
