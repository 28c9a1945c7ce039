import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BACKLOG_MAX_AGE_MS, createPrometheusMetrics } from "../../src/adapters/metrics/prometheus.ts";
import { sqliteBacklogStats } from "../../src/adapters/sqlite/operations.ts";
import { openDataDir } from "../../src/main/data-dir.ts";
import { systemClock } from "../../src/ports/clock.ts";
import type { BacklogStats } from "../../src/ports/metrics.ts";
import { samples } from "./support.ts";

// /metrics is unauthenticated by default: scrapes in a loop must not query the database in a loop.
describe("the backlog gauges of /metrics", () => {
  const dir = mkdtempSync(join(tmpdir(), "pictor-metrics-cache-"));
  const data = openDataDir(dir, { examplesDir: join(dir, "none") });
  afterAll(() => {
    data.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("are counted once for every scrape within a second, and again after it", async () => {
    const counted = sqliteBacklogStats(data.db, systemClock);
    let queries = 0;
    const backlog: BacklogStats = {
      queued: () => {
        queries++;
        return counted.queued();
      },
      outboxPending: () => {
        queries++;
        return counted.outboxPending();
      },
    };
    let clock = 0;
    const metrics = createPrometheusMetrics({ role: "all", version: "test", backlog, now: () => clock });
    const scrape = async () => samples((await metrics.expose()).body);

    const first = await scrape();
    expect(first.get("pictor_render_queue_depth")).toBe(0);
    expect(first.get("pictor_webhook_outbox_pending")).toBe(0);
    // One count: the queue (depth and oldest age) and the outbox, once each.
    expect(queries).toBe(2);
    clock += BACKLOG_MAX_AGE_MS - 1;
    await Promise.all([scrape(), scrape(), scrape()]);
    expect(queries).toBe(2);
    clock += 1;
    await scrape();
    expect(queries).toBe(4);
  });
});
