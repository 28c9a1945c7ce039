import type { Ledger } from "../../ports/ledger.ts";
import type { RenderDispatcher, Submission } from "../../ports/render-dispatcher.ts";
import type { RenderRecord, RenderStore } from "../../ports/render-store.ts";
import type { LocalRenderQueue } from "./local-render-queue.ts";

/**
 * The embedded default's dispatcher: the charge and the row in one SQLite transaction, then the
 * in-process queue. For a caller who waits, two shortcuts worth a fraction of a millisecond each:
 * a render that starts at once is recorded as `rendering` (its claim writes nothing), and it starts
 * while its charge commits when the balance covers it (a refused charge throws the render away).
 */
export function createLocalDispatcher(deps: {
  queue: LocalRenderQueue;
  renders: Pick<RenderStore, "accept">;
  ledger: Pick<Ledger, "balance">;
}): RenderDispatcher {
  const { queue } = deps;
  return {
    hasRoom: (incoming) => !queue.isFull(incoming),
    async submit(submitted, { waiting, traceparent }): Promise<Submission> {
      // Asked this late so that renders accepted while this one was being checked are counted.
      const render: RenderRecord =
        waiting && queue.startsAtOnce(submitted.accountId)
          ? { ...submitted, status: "rendering" }
          : submitted;
      const admit =
        render.status === "rendering" &&
        (await deps.ledger.balance(render.accountId)) >= render.creditsCharged
          ? await queue.startEarly(render, traceparent)
          : null;
      let outcome: Awaited<ReturnType<RenderStore["accept"]>>;
      try {
        outcome = await deps.renders.accept(render);
      } catch (error) {
        admit?.(false);
        throw error;
      }
      admit?.(outcome.accepted);
      if (!outcome.accepted) return { accepted: false, balance: outcome.balance };
      queue.enqueue(render.id, render.accountId, render, traceparent);
      return { accepted: true, render };
    },
    wait: (accountId, renderId, timeoutMs) => queue.waitFor(accountId, renderId, timeoutMs),
  };
}
