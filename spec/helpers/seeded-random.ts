/**
 * Test helper: a small seeded random number generator (xorshift32), for workloads that must
 * make the same choices again from the same seed (a seed of 0 counts as 1).
 */

/** A generator of integers in [0, n) from `seed`. */
export function seededRandom(seed: number): (n: number) => number {
  let state = seed >>> 0 || 1;
  return (n) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
}
