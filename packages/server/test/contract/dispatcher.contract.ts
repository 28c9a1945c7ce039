import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RenderTask, RenderTaskOutcome } from "../../src/adapters/queue/render-messages.ts";
import type { FinishedRender, RenderDispatcher } from "../../src/ports/render-dispatcher.ts";
import type { RenderRecord } from "../../src/ports/render-store.ts";
import { newAccount, publishedTemplate, queuedRender, type StateStores } from "./state-fixture.ts";

/**
 * The one render thread behind a dispatcher under test: each task it is given (through the real
 * runRenderJob, after the render's claim) waits until the test ends it, completed or failed, so the
 * test decides when a thread frees up. Records the order renders started in.
 */
export class FakeRenderThread {
  /** Render ids in the order their tasks reached the thread. */
  readonly started: string[] = [];
  readonly #held = new Map<string, (outcome: RenderTaskOutcome) => void>();
  readonly #waiters: { ready: () => boolean; resolve: () => void }[] = [];
  /** Ends every task at once, completed (no test holds it). */
  #auto = false;

  readonly runTask = (task: Omit<RenderTask, "taskId">): Promise<RenderTaskOutcome> => {
    // runRenderJob names the output after the render: renders/<id>.<ext>.
    const id = task.outputKey.replace(/^renders\//, "").replace(/\.[a-z]+$/, "");
    this.started.push(id);
    const outcome = new Promise<RenderTaskOutcome>((resolve) => {
      if (this.#auto) resolve(success());
      else this.#held.set(id, resolve);
    });
    for (const w of this.#waiters.filter((w) => w.ready())) {
      this.#waiters.splice(this.#waiters.indexOf(w), 1);
      w.resolve();
    }
    return outcome;
  };

  /** Resolves once the render's task has reached the thread. */
  whenStarted(id: string): Promise<void> {
    return this.#until(() => this.started.includes(id));
  }

  /** Resolves with the render whose task the thread holds, once it holds one. */
  async nextHeld(): Promise<string> {
    await this.#until(() => this.#held.size > 0);
    return this.#held.keys().next().value as string;
  }

  /** Ends the task of a render the thread holds. */
  finish(id: string, as: "completed" | "failed" = "completed"): void {
    const resolve = this.#held.get(id);
    if (!resolve) throw new Error(`the thread holds no task of ${id} (started: ${this.started.join(", ")})`);
    this.#held.delete(id);
    resolve(
      as === "completed"
        ? success()
        : { taskId: 0, ok: false, code: "image_fetch_failed", message: "The image could not be fetched." },
    );
  }

  /** From now on every task ends completed as soon as it starts; those held now end too. */
  runFreely(): void {
    this.#auto = true;
    for (const id of [...this.#held.keys()]) this.finish(id);
  }

  #until(ready: () => boolean): Promise<void> {
    if (ready()) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ ready, resolve }));
  }
}

const success = (): RenderTaskOutcome => ({
  taskId: 0,
  ok: true,
  byteSize: 68,
  contentType: "image/png",
  width: 10,
  height: 10,
  warnings: [],
  sha256: randomBytes(32).toString("hex"),
});

/** A dispatcher with one render thread behind it, on a fresh database. */
export interface DispatcherFixture {
  dispatcher: RenderDispatcher;
  /** The state the dispatcher charges and records in, as the API process sees it. */
  stores: Pick<StateStores, "accounts" | "templates" | "ledger" | "renders">;
  thread: FakeRenderThread;
  /**
   * Lets `hasRoom` see the queue as it is now. The local queue always does; the PostgreSQL
   * dispatcher answers from a count of the cluster's queued renders it reads in the background.
   */
  roomSettled(): Promise<void>;
  cleanup(): Promise<void>;
}

export type DispatcherFactory = (options: { maxQueued: number }) => Promise<DispatcherFixture>;

/**
 * What every RenderDispatcher must do (the embedded default's local queue, PostgreSQL + pg-boss),
 * each over its real queue and the real runRenderJob, with one render thread the test drives.
 */
export function dispatcherContract(adapter: string, setup: DispatcherFactory): void {
  describe(`RenderDispatcher contract: ${adapter}`, () => {
    let fx: DispatcherFixture;
    const templateOf = new Map<string, string>();
    beforeAll(async () => {
      fx = await setup({ maxQueued: 1000 });
    });
    afterAll(async () => {
      fx?.thread.runFreely();
      await fx?.cleanup();
    });

    const account = async (credits: number) => {
      const id = await newAccount(fx.stores, credits);
      templateOf.set(id, await publishedTemplate(fx.stores, id));
      return id;
    };
    const render = (accountId: string, over: Partial<RenderRecord> = {}): RenderRecord =>
      queuedRender(accountId, templateOf.get(accountId) as string, over);
    const submit = async (r: RenderRecord, waiting = false) => {
      const submitted = await fx.dispatcher.submit(r, { waiting });
      if (!submitted.accepted) throw new Error(`${r.id} refused (balance ${submitted.balance})`);
      return submitted.render;
    };
    /** Waits long enough for any render the test has let finish. */
    const finished = async (r: RenderRecord): Promise<FinishedRender> => {
      const ended = await fx.dispatcher.wait(r.accountId, r.id, 20_000);
      if (!ended) throw new Error(`${r.id} did not finish`);
      return ended;
    };
    /** Ends each render the thread takes, one at a time, until these have all finished. */
    const finishAll = async (renders: RenderRecord[]) => {
      let done = false;
      const all = Promise.all(renders.map(finished)).finally(() => {
        done = true;
      });
      while (!done) {
        const held = await Promise.race([all.then(() => null), fx.thread.nextHeld()]);
        if (held !== null) fx.thread.finish(held);
      }
      return all;
    };

    it("accepts a render it can charge: charged, recorded as queued or rendering, and drawn", async () => {
      const a = await account(5);
      const r = render(a, { creditsCharged: 2 });
      const submitted = await fx.dispatcher.submit(r, { waiting: false });
      expect(submitted.accepted).toBe(true);
      const recorded = submitted.accepted ? submitted.render : null;
      expect(recorded).toMatchObject({ id: r.id, accountId: a, creditsCharged: 2 });
      expect(["queued", "rendering"]).toContain(recorded?.status);
      expect(["queued", "rendering"]).toContain((await fx.stores.renders.get(a, r.id))?.status);
      expect(await fx.stores.ledger.balance(a)).toBe(3);
      const entries = await fx.stores.ledger.entries(a, { limit: 10, after: null });
      expect(entries.filter((e) => e.kind === "charge")).toMatchObject([{ amount: -2, renderId: r.id }]);

      await fx.thread.whenStarted(r.id);
      fx.thread.finish(r.id);
      const ended = await finished(r);
      expect(ended.render).toMatchObject({ id: r.id, status: "completed", creditsRefunded: 0 });
      expect(ended.render.assetId).toEqual(expect.any(String));
      // When the dispatcher has the output at hand, it is the render's.
      if (ended.asset) expect(ended.asset).toMatchObject({ id: ended.render.assetId, renderId: r.id });
      expect(await fx.stores.ledger.balance(a)).toBe(3);
    });

    it("refuses a render the balance does not cover, waiting or not: nothing charged, recorded or drawn", async () => {
      const a = await account(3);
      const ahead = render(a, { creditsCharged: 2 });
      await submit(ahead);
      const refused: string[] = [];
      for (const waiting of [false, true]) {
        const short = render(a, { creditsCharged: 2 });
        refused.push(short.id);
        expect(await fx.dispatcher.submit(short, { waiting })).toEqual({ accepted: false, balance: 1 });
        expect(await fx.stores.renders.get(a, short.id)).toBeNull();
        expect(await fx.stores.ledger.balance(a)).toBe(1);
        expect(await fx.dispatcher.wait(a, short.id, 0)).toBeNull();
      }
      const next = render(a, { creditsCharged: 1 });
      await submit(next);
      await finishAll([ahead, next]);
      // The thread drew what was accepted, and never a refused render.
      expect(fx.thread.started).toEqual(expect.arrayContaining([ahead.id, next.id]));
      expect(fx.thread.started.filter((id) => refused.includes(id))).toEqual([]);
      expect(await fx.stores.ledger.balance(a)).toBe(0);
      const charges = (await fx.stores.ledger.entries(a, { limit: 10, after: null })).filter(
        (e) => e.kind === "charge",
      );
      expect(charges.map((e) => e.renderId)).toEqual([ahead.id, next.id]);
    });

    it("charges the last credit once when two submissions race for it", async () => {
      const a = await account(1);
      const [x, y] = [render(a), render(a)];
      const outcomes = await Promise.all([
        fx.dispatcher.submit(x, { waiting: true }),
        fx.dispatcher.submit(y, { waiting: true }),
      ]);
      expect(outcomes.map((o) => o.accepted).sort()).toEqual([false, true]);
      const [won, lost] = outcomes[0]?.accepted ? [x, y] : [y, x];
      expect(outcomes.find((o) => !o.accepted)).toEqual({ accepted: false, balance: 0 });
      // A render started before its refused charge committed may reach the thread: it is thrown away.
      await finishAll([won]);
      expect(fx.thread.started).toContain(won.id);
      expect(await fx.stores.renders.get(a, lost.id)).toBeNull();
      expect(await fx.stores.ledger.balance(a)).toBe(0);
    });

    it("wait: the finished render, completed or failed (refunded); null at the deadline or for another account", async () => {
      const a = await account(10);
      const r = render(a, { creditsCharged: 3 });
      await submit(r);
      await fx.thread.whenStarted(r.id);
      expect(await fx.dispatcher.wait(a, r.id, 30)).toBeNull();
      const waiting = fx.dispatcher.wait(a, r.id, 20_000);
      fx.thread.finish(r.id);
      expect((await waiting)?.render).toMatchObject({ id: r.id, status: "completed", error: null });
      // Asked again once finished, it answers at once, even with no time to wait.
      expect((await fx.dispatcher.wait(a, r.id, 0))?.render.status).toBe("completed");
      expect(await fx.dispatcher.wait(await account(0), r.id, 30)).toBeNull();

      const failing = render(a, { creditsCharged: 3 });
      await submit(failing);
      await fx.thread.whenStarted(failing.id);
      expect(await fx.stores.ledger.balance(a)).toBe(4);
      const waitingForFailure = fx.dispatcher.wait(a, failing.id, 20_000);
      fx.thread.finish(failing.id, "failed");
      expect((await waitingForFailure)?.render).toMatchObject({
        id: failing.id,
        status: "failed",
        error: { code: "image_fetch_failed" },
        creditsRefunded: 3,
        assetId: null,
      });
      expect(await fx.stores.ledger.balance(a)).toBe(7);
    });

    it("runs a waiting submission: at once on a free thread, after the renders ahead of it otherwise", async () => {
      const a = await account(10);
      const alone = render(a);
      const recorded = await submit(alone, true);
      expect(["queued", "rendering"]).toContain(recorded.status);
      await fx.thread.whenStarted(alone.id);
      const waiting = fx.dispatcher.wait(a, alone.id, 20_000);
      fx.thread.finish(alone.id);
      expect((await waiting)?.render.status).toBe("completed");

      const busy = render(a);
      await submit(busy);
      await fx.thread.whenStarted(busy.id);
      const behind = render(a);
      expect((await submit(behind, true)).status).toBe("queued");
      const behindDone = fx.dispatcher.wait(a, behind.id, 20_000);
      fx.thread.finish(busy.id);
      await fx.thread.whenStarted(behind.id);
      fx.thread.finish(behind.id);
      expect((await behindDone)?.render.status).toBe("completed");
    });

    it("is fair between accounts: B's first render starts behind at most one of A's 20 queued, not all of them", async () => {
      const a = await account(100);
      const b = await account(10);
      const first = render(a);
      await submit(first);
      await fx.thread.whenStarted(first.id);
      const from = fx.thread.started.indexOf(first.id);
      // A's backlog, queued while the one thread draws A's first render; then B's first.
      const backlog = Array.from({ length: 20 }, () => render(a));
      for (const r of backlog) await submit(r);
      const ofB = render(b);
      await submit(ofB);
      await finishAll([first, ...backlog, ofB]);

      const order = fx.thread.started.slice(from);
      expect(order).toHaveLength(22);
      expect(order[0]).toBe(first.id);
      // Round-robin between accounts: one of A's queued renders may go first, then B's.
      expect(order.indexOf(ofB.id)).toBeGreaterThan(0);
      expect(order.indexOf(ofB.id)).toBeLessThanOrEqual(2);
      expect(order.indexOf(ofB.id)).toBeLessThan(order.indexOf(backlog.at(-1)?.id as string));
      // A's own renders keep their order.
      expect(order.filter((id) => id !== ofB.id)).toEqual([first, ...backlog].map((r) => r.id));
    });
  });

  describe(`RenderDispatcher contract: ${adapter}: room`, () => {
    let fx: DispatcherFixture;
    let templateId: string;
    let a: string;
    const maxQueued = 3;
    beforeAll(async () => {
      fx = await setup({ maxQueued });
      a = await newAccount(fx.stores, 100);
      templateId = await publishedTemplate(fx.stores, a);
    });
    afterAll(async () => {
      fx?.thread.runFreely();
      await fx?.cleanup();
    });

    it("has no room past maxQueued queued renders (a running one does not count), and room again as they start", async () => {
      const r = (): RenderRecord => queuedRender(a, templateId, { templateKey: "room" });
      await fx.roomSettled();
      expect(fx.dispatcher.hasRoom(1)).toBe(true);
      // A batch larger than the whole bound is let in only while nothing is queued.
      expect(fx.dispatcher.hasRoom(maxQueued + 50)).toBe(true);

      const running = r();
      await fx.dispatcher.submit(running, { waiting: false });
      await fx.thread.whenStarted(running.id);
      const queued = [r(), r(), r()];
      for (const q of queued) expect((await fx.dispatcher.submit(q, { waiting: false })).accepted).toBe(true);
      await fx.roomSettled();
      expect(fx.dispatcher.hasRoom(1)).toBe(false);
      expect(fx.dispatcher.hasRoom(maxQueued + 50)).toBe(false);

      // The running render ends and the first queued one starts: room for one again, not for two.
      fx.thread.finish(running.id);
      await fx.thread.whenStarted(queued[0]?.id as string);
      await fx.roomSettled();
      expect(fx.dispatcher.hasRoom(1)).toBe(true);
      expect(fx.dispatcher.hasRoom(2)).toBe(false);

      fx.thread.runFreely();
      for (const q of queued)
        expect((await fx.dispatcher.wait(a, q.id, 20_000))?.render.status).toBe("completed");
      await fx.roomSettled();
      expect(fx.dispatcher.hasRoom(maxQueued)).toBe(true);
    });
  });
}
