import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../api/support.ts";
import { expectOneRenderTrace, renderTraceArrived, startOtlpReceiver } from "../support/otlp-receiver.ts";
import { startReceiver, type TestReceiver } from "../webhooks/support/receiver.ts";
import { startLoggedServer } from "./support.ts";

// Traces of the embedded default, exported as OTLP/HTTP JSON to a receiver on loopback, as a
// collector's HTTP port takes them. The same across an API and a worker process on PostgreSQL + S3:
// test/scale/operations.test.ts. Metrics and request logs are off here (PICTOR_METRICS=off,
// PICTOR_LOG_LEVEL=silent, as bench:http's overhead run compares): traces do not depend on them.
describe("traces of the embedded default, metrics and logs off", () => {
  const dir = mkdtempSync(join(tmpdir(), "pictor-traces-"));
  let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let callbacks: TestReceiver;
  const secrets: string[] = [];

  beforeAll(async () => {
    otlp = await startOtlpReceiver();
    callbacks = await startReceiver(secrets);
  });
  afterAll(async () => {
    await otlp?.close();
    await callbacks?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("sends one trace per render: the request, the charge, the queue, the draw, encode and store, the callback", async () => {
    const { server, apiKey } = await startLoggedServer(dir, {
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      PICTOR_METRICS: "off",
      PICTOR_LOG_LEVEL: "silent",
      PICTOR_OUTBOUND_ALLOWLIST: `127.0.0.1:${callbacks.port}`,
    });
    secrets.push((await api(server, "GET", "/v1/webhook-secret", { key: apiKey })).body.secret);
    const slotValue = "a slot value no span may hold";
    let renderId: string;
    let metricsStatus = 0;
    try {
      const res = await api(server, "POST", "/v1/renders", {
        key: apiKey,
        body: {
          template: "tiny",
          modifications: [{ name: "title", text: slotValue }],
          webhook_url: callbacks.url("/hook?token=receiver-secret"),
          wait: 30,
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      renderId = res.body.id;
      await callbacks.waitForRequest(1);
      const scraped = await fetch(`${server.url}/metrics`);
      metricsStatus = scraped.status;
      await scraped.body?.cancel();
      await otlp.until((spans) => renderTraceArrived(spans, renderId));
    } finally {
      await server.close();
    }
    const spans = expectOneRenderTrace(otlp.spans(), renderId);
    const request = spans.get("POST /v1/renders");
    expect(request?.attributes).toMatchObject({
      "http.request.method": "POST",
      "http.route": "/v1/renders",
      "http.response.status_code": 200,
    });
    expect(spans.get("render.run")?.attributes).toMatchObject({ "pictor.render.format": "png" });
    expect(spans.get("webhook.deliver")?.attributes).toMatchObject({
      "http.response.status_code": 204,
      "pictor.webhook.outcome": "delivered",
    });
    for (const span of spans.values()) expect(span.role).toBe("all");
    // No slot value, key or callback URL (its query may hold the receiver's token) in any export.
    const exported = otlp.raw();
    for (const secret of [slotValue, apiKey, "receiver-secret", "/hook"])
      expect(exported).not.toContain(secret);
    // Probes and scrapes are not traced.
    expect(otlp.spans().some((s) => /healthz|readyz|metrics/.test(s.name))).toBe(false);
    expect(metricsStatus).toBe(404);
  });
});
