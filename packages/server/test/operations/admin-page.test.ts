import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningServer } from "../../src/main/running-server.ts";
import { api } from "../api/support.ts";
import { startHeldImage } from "../support/held-image.ts";
import { startLoggedServer } from "./support.ts";

// The operator's page over real HTTP (embedded default): /admin is a page anyone may load, and its
// figures (/admin/summary) answer only the operator token; an account's API key is refused like none.
const TOKEN = "operator-token-for-the-test-0123456789";
const dir = mkdtempSync(join(tmpdir(), "pictor-admin-page-"));
let server: RunningServer;
let key: string;
let images: Awaited<ReturnType<typeof startHeldImage>>;

beforeAll(async () => {
  images = await startHeldImage();
  images.release();
  ({ server, apiKey: key } = await startLoggedServer(dir, {
    PICTOR_OPERATOR_TOKEN: TOKEN,
    PICTOR_OUTBOUND_ALLOWLIST: `127.0.0.1:${images.port}`,
  }));
});
afterAll(async () => {
  await server?.close();
  await images?.close();
  rmSync(dir, { recursive: true, force: true });
});

const summary = (authorization?: string) =>
  fetch(`${server.url}/admin/summary`, authorization ? { headers: { authorization } } : {});

it("shows the last hour's renders, failures by code, durations, queue and webhook backlog to the operator", async () => {
  const done = await api(server, "POST", "/v1/renders", {
    key,
    body: { template: "tiny", modifications: [], wait: 30 },
  });
  expect(done.status).toBe(200);
  const failed = await api(server, "POST", "/v1/renders", {
    key,
    body: { template: "tiny", modifications: [{ name: "photo", image_url: images.missingUrl }], wait: 30 },
  });
  expect(failed.body.error?.code ?? failed.body.status).toBe("image_fetch_failed");
  const res = await summary(`Bearer ${TOKEN}`);
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toBe("no-store");
  const body = await res.json();
  expect(body).toMatchObject({
    window_minutes: 60,
    completed: 1,
    failed: 1,
    failures: [{ code: "image_fetch_failed", count: 1 }],
    queue: { depth: 0, oldest_age_seconds: 0 },
    webhook_backlog: 0,
    truncated: false,
  });
  expect(body.renders_per_minute).toHaveLength(60);
  expect(body.renders_per_minute.reduce((a: number, b: number) => a + b, 0)).toBe(2);
  expect(body.duration_seconds.p50).toBeGreaterThan(0);
  expect(body.duration_seconds.p95).toBeGreaterThanOrEqual(body.duration_seconds.p50);
});

it("refuses the figures to an account's API key and to no token; the page itself carries none", async () => {
  for (const authorization of [`Bearer ${key}`, undefined, "Bearer wrong"]) {
    const res = await summary(authorization);
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe("unauthorized");
  }
  const page = await fetch(`${server.url}/admin`);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toContain("text/html");
  expect(page.headers.get("content-security-policy")).toContain("script-src 'sha256-");
  const html = await page.text();
  expect(html).toContain("Pictor operator");
  expect(html).not.toContain(TOKEN);
});
