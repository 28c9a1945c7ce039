/** A clock the test moves by hand, so the retry schedule is tested without waiting for it. */
export interface FakeClock {
  now(): number;
  advance(ms: number): void;
}

export function createFakeClock(start = Date.UTC(2026, 10, 22, 12, 0, 0)): FakeClock {
  let current = start;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
  };
}
