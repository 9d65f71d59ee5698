/** Comparing computed floats (the performance model's tests: test/model*.test.ts). */

/** Equal within a relative tolerance (absolute below 1): the model's numbers are sums of floats. */
export const close = (a: number, b: number, rel = 1e-9): boolean => Math.abs(a - b) <= rel * Math.max(1, Math.abs(a), Math.abs(b));
