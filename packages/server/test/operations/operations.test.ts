import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/main/running-server.ts";
import { api } from "../api/support.ts";
import { startHeldImage } from "../support/held-image.ts";
import { startReceiver, type TestReceiver } from "../webhooks/support/receiver.ts";
import { type CapturedLog, scrape, startLoggedServer, untilStatus } from "./support.ts";

// The operational endpoints of the embedded default (SQLite, files, one process): health, readiness,
// metrics and the request log. The same on PostgreSQL + S3: test/scale/operations.test.ts.
describe("operations on the embedded default", () => {
  const dir = mkdtempSync(join(tmpdir(), "pictor-ops-"));
  let server: RunningServer;
  let apiKey: string;
  let log: CapturedLog;
  let images: Awaited<ReturnType<typeof startHeldImage>>;
  let receiver: TestReceiver;

  beforeAll(async () => {
    images = await startHeldImage();
    const secrets: string[] = [];
    receiver = await startReceiver(secrets);
    ({ server, apiKey, log } = await startLoggedServer(dir, {
      PICTOR_OUTBOUND_ALLOWLIST: `127.0.0.1:${images.port},127.0.0.1:${receiver.port}`,
      PICTOR_RATE_LIMIT_BURST: "20",
      PICTOR_RATE_LIMIT_PER_SECOND: "0.1",
    }));
    secrets.push((await api(server, "GET", "/v1/webhook-secret", { key: apiKey })).body.secret);
  });
  afterAll(async () => {
    await server?.close();
    await images?.close();
    await receiver?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("answers /healthz and /readyz without a key, never rate limited, neither logged nor counted", async () => {
    expect(await (await untilStatus(`${server.url}/healthz`, 200)).json()).toEqual({ status: "ok" });
    const ready = await untilStatus(`${server.url}/readyz`, 200);
    expect(await ready.json()).toEqual({
      status: "ready",
      checks: { database: "ok", object_store: "ok", render_threads: "ok" },
    });
    const linesBefore = log.lines().length;
    // Far past the rate limit's burst of 20.
    for (let i = 0; i < 30; i++) {
      const res = await fetch(`${server.url}/${i % 2 ? "readyz" : "healthz"}`);
      expect(res.status).toBe(200);
      await res.body?.cancel();
      expect(res.headers.get("ratelimit")).toBeNull();
    }
    const scraped = await fetch(`${server.url}/metrics`);
    expect(scraped.status).toBe(200);
    await scraped.text();
    expect(log.lines().length).toBe(linesBefore);
    const metrics = await scrape(server.url);
    for (const name of metrics.keys()) expect(name).not.toMatch(/route="\/(healthz|readyz|metrics)"/);
  });

  it("moves the render counters and histograms by one for one render", async () => {
    const before = await scrape(server.url);
    const res = await api(server, "POST", "/v1/renders", {
      key: apiKey,
      body: { template: "tiny", modifications: [], wait: 30 },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("completed");
    const after = await scrape(server.url);
    const moved = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
    expect(moved('pictor_renders_accepted_total{format="png",mode="wait"}')).toBe(1);
    expect(moved('pictor_renders_completed_total{format="png"}')).toBe(1);
    expect(moved("pictor_credits_charged_total")).toBe(res.body.credits_charged);
    expect(moved('pictor_render_duration_seconds_count{format="png",outcome="completed"}')).toBe(1);
    for (const phase of ["queue_wait", "draw", "encode", "store"]) {
      expect(moved(`pictor_render_phase_seconds_count{phase="${phase}"}`)).toBe(1);
    }
    expect(
      moved('pictor_http_request_duration_seconds_count{method="POST",route="/v1/renders",status="200"}'),
    ).toBe(1);
    expect(after.get("pictor_render_threads")).toBe(1);
    expect(after.get("pictor_render_queue_depth")).toBe(0);
    expect(after.get("pictor_ready")).toBe(1);
    expect(after.has("nodejs_eventloop_lag_seconds")).toBe(true);
    expect(after.has("process_resident_memory_bytes")).toBe(true);
    // Bounded labels: no account id anywhere.
    expect([...after.keys()].join("\n")).not.toMatch(/acct_/);
  });

  it("counts a failed render as failed and refunded, by its code", async () => {
    const before = await scrape(server.url);
    const res = await api(server, "POST", "/v1/renders", {
      key: apiKey,
      body: {
        template: "tiny",
        modifications: [{ name: "photo", image_url: images.missingUrl }],
        wait: 30,
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: "image_fetch_failed", credits_refunded: 1 });
    const after = await scrape(server.url);
    const moved = (name: string) => (after.get(name) ?? 0) - (before.get(name) ?? 0);
    expect(moved('pictor_renders_failed_total{format="png",code="image_fetch_failed"}')).toBe(1);
    expect(moved('pictor_renders_refunded_total{format="png"}')).toBe(1);
    expect(moved("pictor_credits_refunded_total")).toBe(1);
  });

  it("writes one log line per request, under the id the response carries, without the key", async () => {
    const given = "support-ticket-42a";
    const mine = await fetch(`${server.url}/v1/account`, {
      headers: { authorization: `Bearer ${apiKey}`, "x-request-id": given },
    });
    expect(mine.headers.get("x-request-id")).toBe(given);
    await mine.body?.cancel();
    const refused = await fetch(`${server.url}/v1/account`);
    const refusedId = refused.headers.get("x-request-id");
    await refused.body?.cancel();
    const render = await api(server, "POST", "/v1/renders", {
      key: apiKey,
      body: { template: "tiny", modifications: [] },
    });
    const renderId = render.headers.get("x-request-id");
    const lines = log.lines();
    const of = (id: string | null) => lines.filter((line) => line.reqId === id);
    expect(of(given)).toHaveLength(1);
    expect(of(given)[0]).toMatchObject({
      msg: "request completed",
      role: "all",
      pid: process.pid,
      req: { method: "GET", url: "/v1/account" },
      res: { statusCode: 200 },
    });
    expect(typeof of(given)[0]?.time).toBe("number");
    expect(of(refusedId)).toHaveLength(1);
    expect(of(refusedId)[0]).toMatchObject({ res: { statusCode: 401 }, code: "unauthorized" });
    expect(of(renderId)).toHaveLength(1);
    expect(of(renderId)[0]).toMatchObject({ res: { statusCode: 202 }, render_id: render.body.id });
    expect(log.text()).not.toContain(apiKey);
  });

  it("sends the request id with the render's callback, as X-Request-Id", async () => {
    const given = "ticket-7f3a-callback";
    const res = await api(server, "POST", "/v1/renders", {
      key: apiKey,
      headers: { "x-request-id": given },
      body: { template: "tiny", modifications: [], webhook_url: receiver.url("/hook") },
    });
    expect(res.status).toBe(202);
    expect(res.headers.get("x-request-id")).toBe(given);
    const callback = await receiver.waitForRequest(1);
    expect(callback.headers["x-request-id"]).toBe(given);
    expect(callback.verifiedByClient).toBe(true);
    expect(JSON.parse(callback.rawBody.toString("utf8"))).toMatchObject({ id: res.body.id });
    const line = log.lines().find((l) => l.reqId === given);
    expect(line).toMatchObject({ render_id: res.body.id, res: { statusCode: 202 } });
  });
});

describe("readiness while draining, and the metrics token", () => {
  const dir = mkdtempSync(join(tmpdir(), "pictor-ops-drain-"));
  const token = "metrics-token-0123456789";
  let server: RunningServer;
  let apiKey: string;
  let images: Awaited<ReturnType<typeof startHeldImage>>;

  beforeAll(async () => {
    images = await startHeldImage();
    ({ server, apiKey } = await startLoggedServer(dir, {
      PICTOR_HEALTH_PORT: "0",
      PICTOR_METRICS_TOKEN: token,
      PICTOR_OUTBOUND_ALLOWLIST: `127.0.0.1:${images.port}`,
    }));
  });
  afterAll(async () => {
    images?.release();
    await server?.close();
    await images?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("asks for the bearer token on /metrics, on the API's port and the health port", async () => {
    for (const base of [server.url, server.healthUrl as string]) {
      const refused = await fetch(`${base}/metrics`);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ error: { code: "unauthorized" } });
      const wrong = await fetch(`${base}/metrics`, { headers: { authorization: "Bearer wrong" } });
      expect(wrong.status).toBe(401);
      await wrong.body?.cancel();
      expect((await scrape(base, token)).get('pictor_info{role="all",version="0.1.0"}')).toBe(1);
    }
  });

  it("answers /readyz 503 (draining) from the stop on, while a waiting render finishes and gets its answer", async () => {
    const health = server.healthUrl as string;
    await untilStatus(`${health}/readyz`, 200);
    const waiting = api(server, "POST", "/v1/renders", {
      key: apiKey,
      body: { template: "tiny", modifications: [{ name: "photo", image_url: images.url }], wait: 30 },
    });
    await images.requested;
    const stopping = server.close();
    const draining = await untilStatus(`${health}/readyz`, 503);
    expect(await draining.json()).toMatchObject({ status: "draining" });
    // Alive all the same: a liveness probe must not restart a process that is finishing its work.
    const alive = await fetch(`${health}/healthz`);
    expect(alive.status).toBe(200);
    await alive.body?.cancel();
    images.release();
    const answered = await waiting;
    expect(answered.status).toBe(200);
    expect(answered.body.status).toBe("completed");
    await stopping;
  });
});
