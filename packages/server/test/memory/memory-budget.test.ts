import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readServeConfig } from "../../src/main/config.ts";
import { describePlan, MAIN_THREAD_MIB, planMemory } from "../../src/main/memory-plan.ts";
import type { RunningServer } from "../../src/main/running-server.ts";
import { startServer } from "../../src/main/serve.ts";
import { api } from "../api/support.ts";
import { tinyTemplate } from "../callbacks/support.ts";

describe("memory budget (issue 24)", () => {
  it("plans as many render threads as fit, at least one, never more than asked", () => {
    const machineMiB = 24_000;
    expect(planMemory({ requestedThreads: 8, budgetMiB: 1024, machineMiB }).threads).toBe(3);
    expect(planMemory({ requestedThreads: 2, budgetMiB: 1024, machineMiB }).threads).toBe(2);
    expect(planMemory({ requestedThreads: 4, budgetMiB: 300, machineMiB }).threads).toBe(1);
    expect(planMemory({ requestedThreads: 4, budgetMiB: undefined, machineMiB: 1024 }).threads).toBe(2);
    const roomy = planMemory({ requestedThreads: 2, budgetMiB: 16_000, machineMiB });
    const tight = planMemory({ requestedThreads: 2, budgetMiB: 900, machineMiB });
    expect(roomy.preparedImageBytes).toBe(256 * 1024 * 1024);
    expect(tight.preparedImageBytes).toBeLessThan(roomy.preparedImageBytes);
    expect(tight.preparedImageBytes).toBeGreaterThanOrEqual(16 * 1024 * 1024);
    // The editor's prepared images have a tenth of the budget, between 64 and 256 MiB.
    const mib = (bytes: number) => Math.round(bytes / 1024 / 1024);
    expect(mib(planMemory({ requestedThreads: 2, budgetMiB: 1024, machineMiB }).editorImageBytes)).toBe(102);
    expect(mib(planMemory({ requestedThreads: 2, budgetMiB: 300, machineMiB }).editorImageBytes)).toBe(64);
    expect(mib(roomy.editorImageBytes)).toBe(256);
    expect(describePlan(planMemory({ requestedThreads: 4, budgetMiB: 600, machineMiB }))).toMatch(
      /^1 render thread \(memory budget 600 MiB; 4 asked for, 1 fit/,
    );
  });

  it("reads --memory-budget and PICTOR_MEMORY_BUDGET in MiB or GiB, and refuses nonsense by name", () => {
    const dir = "./unused";
    expect(readServeConfig({ data: dir, memoryBudget: "1G", workers: "8" }, {}).memory.budgetMiB).toBe(1024);
    expect(readServeConfig({ data: dir, workers: "8" }, { PICTOR_MEMORY_BUDGET: "700M" }).workers).toBe(2);
    expect(() => readServeConfig({ data: dir, memoryBudget: "lots" }, {})).toThrow(
      /--memory-budget: must be at least 256 MiB.*"lots"/,
    );
    expect(() => readServeConfig({ data: dir }, { PICTOR_MEMORY_BUDGET: "100" })).toThrow(
      /PICTOR_MEMORY_BUDGET/,
    );
  });

  describe("a server started with a small budget", () => {
    const dir = mkdtempSync(join(tmpdir(), "pictor-memory-budget-"));
    let server: RunningServer | undefined;
    afterAll(async () => {
      await server?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("starts the threads that fit, not the ones asked for, and still renders", async () => {
      const config = readServeConfig(
        {
          port: "0",
          data: dir,
          workers: "4",
          memoryBudget: String(MAIN_THREAD_MIB + 300),
          examples: join(dir, "none"),
        },
        { PICTOR_LOG_LEVEL: "silent" },
      );
      expect(config.workers).toBe(1);
      server = await startServer(config);
      await server.workersReady();
      expect(server.renderThreads).toBe(1);
      const apiKey = server.firstStart?.apiKey as string;
      const published = await api(server, "POST", "/v1/templates", {
        key: apiKey,
        body: { document: tinyTemplate(), publish: true },
      });
      expect(published.status).toBe(201);
      for (const scale of [1, 2]) {
        const render = await api(server, "POST", "/v1/renders", {
          key: apiKey,
          body: { template: "tiny", modifications: [], wait: true, scale },
        });
        expect(render.status).toBe(200);
        expect(render.body).toMatchObject({ status: "completed", width: 64 * scale, height: 64 * scale });
      }
    });
  });
});
