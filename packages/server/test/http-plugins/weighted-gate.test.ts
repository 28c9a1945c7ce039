import { expect, it } from "vitest";
import { createWeightedGate } from "../../src/http/weighted-gate.ts";

/** A task that runs until released, recording when it started. */
function controlled(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    release,
    task: async () => {
      log.push(`start ${name}`);
      await done;
      log.push(`end ${name}`);
      return name;
    },
  };
}

it("runs work in arrival order while the weight in flight fits, and a piece heavier than the capacity alone", async () => {
  const gate = createWeightedGate(10);
  const log: string[] = [];
  const a = controlled(log, "a");
  const b = controlled(log, "b");
  const big = controlled(log, "big");
  const c = controlled(log, "c");
  const ran = [gate.run(6, a.task), gate.run(4, b.task), gate.run(50, big.task), gate.run(1, c.task)];
  await Promise.resolve();
  // a and b fill the capacity; big waits, and c waits behind it (arrival order, no overtaking).
  expect(log).toEqual(["start a", "start b"]);
  expect(gate.waiting).toBe(2);
  a.release();
  await ran[0];
  expect(log).toEqual(["start a", "start b", "end a"]);
  b.release();
  await ran[1];
  // Alone now: big runs although it is over the capacity; c still waits for it.
  expect(log.slice(-2)).toEqual(["end b", "start big"]);
  big.release();
  c.release();
  expect(await Promise.all(ran)).toEqual(["a", "b", "big", "c"]);
  expect(log.slice(-3)).toEqual(["end big", "start c", "end c"]);
  expect(gate.waiting).toBe(0);
});

it("frees the weight of a task that throws", async () => {
  const gate = createWeightedGate(1);
  await expect(gate.run(1, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
  expect(await gate.run(1, async () => "next")).toBe("next");
});
