/**
 * Lets work through in arrival order while the weight in flight stays within `capacity`; a piece
 * heavier than the capacity runs alone. Used where one request can take a large, known amount of
 * memory and thread time (a prepared image of width x height pixels), so that many of them at once
 * queue instead of exhausting memory and the libuv pool that file reads and DNS lookups share.
 */
export interface WeightedGate {
  run<T>(weight: number, task: () => Promise<T>): Promise<T>;
  /** Pieces waiting for their turn. */
  readonly waiting: number;
}

export function createWeightedGate(capacity: number): WeightedGate {
  let used = 0;
  let running = 0;
  const queue: { weight: number; start: () => void }[] = [];
  const pump = () => {
    for (let next = queue[0]; next && (running === 0 || used + next.weight <= capacity); next = queue[0]) {
      queue.shift();
      used += next.weight;
      running++;
      next.start();
    }
  };
  return {
    async run(weight, task) {
      const w = Math.min(Math.max(0, weight), capacity);
      await new Promise<void>((start) => {
        queue.push({ weight: w, start });
        pump();
      });
      try {
        return await task();
      } finally {
        used -= w;
        running--;
        pump();
      }
    },
    get waiting() {
      return queue.length;
    },
  };
}
