import { describe, expect, it, vi } from "vitest";
import { createLocalRenderQueue } from "../../src/adapters/queue/local-render-queue.ts";
import type { FinishedRender } from "../../src/ports/render-dispatcher.ts";
import type { RenderRecord, RenderStore } from "../../src/ports/render-store.ts";

/**
 * The queue only needs `pending` and `get` from the store (which knows no render here); `run` is
 * where the order is observed.
 */
function harness(options: {
  concurrency: number;
  maxQueued?: number;
  accountConcurrency?: number;
  spareThreadOf?: { threads: number };
  spareThreadWindowMs?: number;
}) {
  const started: string[] = [];
  /** The accepted record each run was handed (its id), or null. */
  const handedOver: (string | null)[] = [];
  /** What each run started early was told of its acceptance, by id. */
  const admittedOf = new Map<string, Promise<boolean>>();
  const finish = new Map<string, (ended: FinishedRender | null) => void>();
  const store = { pending: async () => [], get: async () => null } as unknown as RenderStore;
  const queue = createLocalRenderQueue({
    renders: store,
    ...options,
    giveUp: async () => {},
    run: (id, accepted, admitted) =>
      new Promise<FinishedRender | null>((resolve) => {
        started.push(id);
        handedOver.push(accepted?.id ?? null);
        if (admitted) admittedOf.set(id, admitted);
        finish.set(id, resolve);
      }),
  });
  const complete = async (id: string, ended: FinishedRender | null = null) => {
    finish.get(id)?.(ended);
    await new Promise((r) => setImmediate(r));
  };
  return { queue, started, handedOver, admittedOf, complete };
}

describe("local render queue", () => {
  it("serves accounts round-robin, so one account's flood does not hold the others back", async () => {
    const { queue, started, complete } = harness({ concurrency: 1 });
    for (let i = 1; i <= 4; i++) queue.enqueue(`a${i}`, "acct_a");
    queue.enqueue("b1", "acct_b");
    queue.enqueue("c1", "acct_c");
    expect(started).toEqual(["a1"]);
    for (const id of ["a1", "a2", "b1", "c1", "a3"]) await complete(id);
    expect(started).toEqual(["a1", "a2", "b1", "c1", "a3", "a4"]);
  });

  it("runs at most accountConcurrency renders of one account at once; the rest of the threads serve others", async () => {
    const { queue, started, complete } = harness({ concurrency: 3, accountConcurrency: 1 });
    for (let i = 1; i <= 3; i++) queue.enqueue(`a${i}`, "acct_a");
    // One of A's runs; the threads it may not take stay free for other accounts.
    expect(started).toEqual(["a1"]);
    queue.enqueue("b1", "acct_b");
    queue.enqueue("b2", "acct_b");
    expect(started).toEqual(["a1", "b1"]);
    await complete("a1");
    expect(started).toEqual(["a1", "b1", "a2"]);
    await complete("b1");
    expect(started).toEqual(["a1", "b1", "a2", "b2"]);
  });

  it("starts a render at once only while its account is under its cap, past others' renders held at theirs", async () => {
    const { queue, started } = harness({ concurrency: 3, accountConcurrency: 1 });
    queue.enqueue("a1", "a");
    queue.enqueue("a2", "a");
    // A is at its cap: its next would not start, and its queued one cannot start before B's.
    expect(queue.startsAtOnce?.("a")).toBe(false);
    expect(queue.startsAtOnce?.("b")).toBe(true);
    const admit = await queue.startEarly?.({ id: "b1", accountId: "b" } as RenderRecord);
    expect(admit).toBeTypeOf("function");
    expect(queue.startsAtOnce?.("b")).toBe(false);
    expect(started).toEqual(["a1", "b1"]);
  });

  it("keeps a render thread spare for another account while both render, and gives it back once the other is quiet", async () => {
    // Two render threads taking two tasks each; an account counts as rendering for a second after a start.
    const { queue, started, complete } = harness({
      concurrency: 4,
      spareThreadOf: { threads: 2 },
      spareThreadWindowMs: 1000,
    });
    for (let i = 1; i <= 8; i++) queue.enqueue(`a${i}`, "a");
    // Alone, A takes every slot.
    expect(started).toEqual(["a1", "a2", "a3", "a4"]);
    queue.enqueue("b1", "b");
    await complete("a1");
    await complete("a2");
    expect(started).toContain("b1");
    // B renders now: A gets no further slot until it runs fewer than one thread's worth (threads - 1).
    for (const id of ["a3", "a4", "a5"]) if (started.includes(id)) await complete(id);
    const ofA = () => started.filter((id) => id.startsWith("a"));
    expect(ofA()).toHaveLength(6);
    // One of A's runs beside B's: B's next render starts at once, on the thread kept free.
    await complete("b1");
    expect(queue.startsAtOnce?.("b")).toBe(true);
    queue.enqueue("b2", "b");
    expect(started.at(-1)).toBe("b2");
    await complete("b2");
    // B quiet for the window: A takes every slot again, without any run ending.
    await vi.waitFor(() => expect(ofA()).toHaveLength(8), { timeout: 10_000 });
  });

  it("never runs more than `concurrency` at once and ignores a second enqueue of the same id", async () => {
    const { queue, started, complete } = harness({ concurrency: 2 });
    for (const id of ["r1", "r2", "r3", "r1"]) queue.enqueue(id, "acct");
    expect(started).toEqual(["r1", "r2"]);
    await complete("r2");
    expect(started).toEqual(["r1", "r2", "r3"]);
  });

  it("is full at maxQueued waiting renders, and while draining", async () => {
    const { queue, complete } = harness({ concurrency: 1, maxQueued: 2 });
    queue.enqueue("r1", "a");
    queue.enqueue("r2", "a");
    expect(queue.isFull(1)).toBe(false);
    // One waits (r1 runs): one more fits, a batch of two does not.
    expect(queue.isFull(1)).toBe(false);
    expect(queue.isFull(2)).toBe(true);
    // A batch over the whole limit waits for an empty queue, not for ever.
    expect(harness({ concurrency: 1, maxQueued: 2 }).queue.isFull(5)).toBe(false);
    queue.enqueue("r3", "a");
    expect(queue.isFull(1)).toBe(true);
    await complete("r1");
    expect(queue.isFull(1)).toBe(false);
    const drained = queue.drain();
    expect(queue.isFull(1)).toBe(true);
    await complete("r2");
    await drained;
  });

  it("starts at once only with a free slot and nobody waiting, and never while draining", async () => {
    const { queue, complete } = harness({ concurrency: 1 });
    expect(queue.startsAtOnce?.("a")).toBe(true);
    queue.enqueue("r1", "a");
    expect(queue.startsAtOnce?.("a")).toBe(false);
    queue.enqueue("r2", "a");
    await complete("r1");
    // r2 took the slot.
    expect(queue.startsAtOnce?.("a")).toBe(false);
    await complete("r2");
    expect(queue.startsAtOnce?.("a")).toBe(true);
    const drained = queue.drain();
    expect(queue.startsAtOnce?.("a")).toBe(false);
    await drained;
  });

  it("starts a render early with its record, tells the run whether it was admitted, and ignores its enqueue", async () => {
    const { queue, started, handedOver, admittedOf, complete } = harness({ concurrency: 1 });
    const render = { id: "r1", accountId: "a" } as RenderRecord;
    const admit = await queue.startEarly?.(render);
    expect(started).toEqual(["r1"]);
    expect(handedOver).toEqual(["r1"]);
    expect(queue.startsAtOnce?.("a")).toBe(false);
    // No slot left: nothing starts early, and the caller enqueues as usual.
    expect(await queue.startEarly?.({ id: "r2", accountId: "a" } as RenderRecord)).toBeNull();
    admit?.(true);
    expect(await admittedOf.get("r1")).toBe(true);
    queue.enqueue("r1", "a", render);
    await complete("r1");
    expect(started).toEqual(["r1"]);
    // Refused: the run is told so (it throws the render away).
    const refuse = await queue.startEarly?.({ id: "r3", accountId: "a" } as RenderRecord);
    refuse?.(false);
    expect(await admittedOf.get("r3")).toBe(false);
    await complete("r3");
    const drained = queue.drain();
    expect(await queue.startEarly?.({ id: "r4", accountId: "a" } as RenderRecord)).toBeNull();
    await drained;
  });

  it("hands a run the record it was enqueued with, on its first run only", async () => {
    const { queue, handedOver, complete } = harness({ concurrency: 1 });
    queue.enqueue("r1", "a", { id: "r1" } as RenderRecord);
    queue.enqueue("r2", "a");
    await complete("r1");
    expect(handedOver).toEqual(["r1", null]);
    await complete("r2");
  });

  it("answers a waiter with the outcome of the run, for the render's own account only", async () => {
    const { queue, complete } = harness({ concurrency: 1 });
    queue.enqueue("r1", "acct_a");
    const own = queue.waitFor("acct_a", "r1", 10_000);
    const other = queue.waitFor("acct_b", "r1", 10_000);
    const render = { id: "r1", accountId: "acct_a", status: "completed" } as RenderRecord;
    await complete("r1", { render, asset: null });
    // The store knows no render: the own account's answer can only come from the run's outcome.
    expect(await own).toEqual({ render, asset: null });
    expect(await other).toBeNull();
  });

  it("runs a render again after a run that threw, then gives it up once the retries are spent", async () => {
    const store = { pending: async () => [], get: async () => null } as unknown as RenderStore;
    const runs: string[] = [];
    let givenUp: (id: string) => void = () => {};
    const gaveUp = new Promise<string>((resolve) => {
      givenUp = resolve;
    });
    const queue = createLocalRenderQueue({
      renders: store,
      concurrency: 1,
      retryDelaysMs: [0, 0],
      run: async (id) => {
        runs.push(id);
        if (id === "flaky" && runs.filter((r) => r === "flaky").length < 3) throw new Error("store away");
        if (id === "broken") throw new Error("store gone");
        return null;
      },
      giveUp: async (id) => givenUp(id),
    });
    const flakyDone = new Promise<void>((resolve) => {
      void queue.waitFor("acct", "flaky", 10_000).then(() => resolve());
    });
    queue.enqueue("flaky", "acct");
    await flakyDone;
    // Two failed runs, then the third succeeded: never given up.
    expect(runs).toEqual(["flaky", "flaky", "flaky"]);
    queue.enqueue("broken", "acct");
    expect(await gaveUp).toBe("broken");
    // The first run and one per retry delay, then given up.
    expect(runs.filter((r) => r === "broken")).toHaveLength(3);
  });
});
