/**
 * PageRank's iteration is a pure function of its state (the contributions and the dangling mass):
 * once a state repeats, every later one is known. In floating point the iteration usually lands on
 * an exact fixed point, or alternates between two states in the last bits, within a few hundred
 * iterations; a count far beyond that (Graphalytics' num-iterations = 1e9) would otherwise run for
 * ever. Past WATCH_FROM iterations the driver compares each state with the last two it saw (two
 * copies of n values, O(n) a step: runs of up to WATCH_FROM iterations pay nothing).
 */
export const WATCH_FROM = 100;

export class StateWatch {
  private readonly seen: Array<{ contrib: Float64Array; dangling: number } | undefined> = [undefined, undefined];
  private at = 0;

  /**
   * The period (1: fixed point, 2: two states alternating) with which `contrib`/`dangling` repeat
   * one of the last two states seen, else 0; then remembers this one.
   */
  period(contrib: Float64Array, dangling: number): 0 | 1 | 2 {
    const last = this.seen[(this.at + 1) % 2];
    const older = this.seen[this.at % 2];
    const same = (s: { contrib: Float64Array; dangling: number } | undefined): boolean => s !== undefined && s.dangling === dangling && equal(s.contrib, contrib);
    const found = same(last) ? 1 : same(older) ? 2 : 0;
    const slot = this.at % 2;
    const keep = this.seen[slot]?.contrib ?? new Float64Array(contrib.length);
    keep.set(contrib);
    this.seen[slot] = { contrib: keep, dangling };
    this.at++;
    return found;
  }
}

/** Bitwise equality (NaN-safe, -0 distinct), as the next iteration would see the values. */
function equal(a: Float64Array, b: Float64Array): boolean {
  const x = new BigUint64Array(a.buffer, a.byteOffset, a.length);
  const y = new BigUint64Array(b.buffer, b.byteOffset, b.length);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}
