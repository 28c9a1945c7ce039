import { describe, expect, it } from "vitest";
import type { RenderTaskOutcome } from "../../src/adapters/queue/render-messages.ts";
import { type RenderJobDeps, runRenderJob } from "../../src/jobs/render-job.ts";
import type { RenderRecord, RenderStore } from "../../src/ports/render-store.ts";

/** A render started before its charge committed (RenderQueue.startEarly), against a store that logs writes. */
function harness() {
  const writes: string[] = [];
  const discarded: string[] = [];
  const render = {
    id: "rnd_early",
    accountId: "acct_a",
    templateId: "tpl_a",
    templateKey: "card",
    templateVersion: 1,
    frame: "main",
    scale: 1,
    format: "png",
    quality: null,
    values: {},
    metadata: {},
    tags: [],
    webhookUrl: null,
    status: "rendering",
    creditsCharged: 1,
  } as unknown as RenderRecord;
  const renders = {
    claim: async () => ({ render, document: {} }),
    complete: async () => {
      writes.push("complete");
      return true;
    },
    failAndRefund: async () => {
      writes.push("failAndRefund");
      return true;
    },
  } as unknown as RenderStore;
  const outcome: RenderTaskOutcome = {
    taskId: 1,
    ok: true,
    byteSize: 10,
    contentType: "image/png",
    width: 200,
    height: 100,
    warnings: [],
    sha256: "ab".repeat(32),
  };
  const deps: RenderJobDeps = {
    renders,
    clock: { now: () => new Date("2026-01-01T00:00:00Z") },
    runTask: async () => outcome,
    discardOutput: async (key) => {
      discarded.push(key);
    },
  };
  return { deps, render, writes, discarded };
}

describe("a render started before its charge committed", () => {
  it("writes nothing of its end until the charge is known, then completes as usual", async () => {
    const { deps, render, writes, discarded } = harness();
    let admit: (admitted: boolean) => void = () => {};
    const admitted = new Promise<boolean>((resolve) => {
      admit = resolve;
    });
    const running = runRenderJob(deps, render.id, render, admitted);
    // The task has ended (its outcome is resolved); the job still waits for the charge.
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([]);
    admit(true);
    const ended = await running;
    expect(ended?.render.status).toBe("completed");
    expect(writes[0]).toBe("complete");
    expect(discarded).toEqual([]);
  });

  it("refused after all: writes nothing and deletes its output", async () => {
    const { deps, render, writes, discarded } = harness();
    expect(await runRenderJob(deps, render.id, render, Promise.resolve(false))).toBeNull();
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual([]);
    expect(discarded).toEqual([`renders/${render.id}.png`]);
  });
});
