/**
 * mulberry32: a tiny seeded PRNG, uniform in [0, 1). Tests, benchmarks and scripts use it where a run
 * must make the same choices every time (committed example images, a benchmark's library, a soak's
 * request mix).
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
