import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Pictor, PictorError, PictorTimeoutError, verifyCallback } from "../src/index.ts";
import { accountIn, exited, quietEnv, scratchForPictor, spawnServe } from "./support.ts";

// Everything against a real `pictor serve` on loopback: no mocks.
const { dir, children } = scratchForPictor("pictor-sdk-");
let data: Awaited<ReturnType<typeof accountIn>>;
let server: Awaited<ReturnType<typeof spawnServe>>;
let pictor: Pictor;

const card = (headline: string) => ({
  template: "blog-og-card",
  modifications: [{ name: "headline", text: headline }],
});

beforeAll(async () => {
  data = await accountIn(dir, 500);
  server = await spawnServe(data.dir, quietEnv(), children);
  pictor = new Pictor({ apiKey: data.apiKey, baseUrl: server.url });
});
afterAll(() => {
  server?.child.kill("SIGTERM");
});

describe("renders", () => {
  it("create with wait gives the completed job; get and waitFor see the same render", async () => {
    const job = await pictor.renders.create(card("Hello from the SDK"), { wait: true });
    expect(job).toMatchObject({ status: "completed", width: 1200, height: 630, credits_charged: 1 });
    const png = await fetch(job.asset_url as string);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect((await sharp(Buffer.from(await png.arrayBuffer())).metadata()).width).toBe(1200);
    expect((await pictor.renders.get(job.id)).asset_url).toBe(job.asset_url);

    const queued = await pictor.renders.create({ ...card("Async"), scale: 2 });
    expect(queued.status).not.toBe("completed");
    const done = await pictor.renders.waitFor(queued.id, { timeout: 30_000 });
    expect(done).toMatchObject({ id: queued.id, status: "completed", width: 2400, credits_charged: 4 });
  });

  it("the same Idempotency-Key replays the first render and charges once", async () => {
    const before = (await pictor.account.get()).credits_balance;
    const key = `sdk-replay-${Date.now()}`;
    const first = await pictor.renders.create(card("Once"), { idempotencyKey: key });
    const again = await pictor.renders.create(card("Once"), { idempotencyKey: key });
    expect(again.id).toBe(first.id);
    expect((await pictor.account.get()).credits_balance).toBe(before - 1);
    const reused = await pictor.renders.create(card("Another body"), { idempotencyKey: key }).catch((e) => e);
    expect(reused).toBeInstanceOf(PictorError);
    expect(reused).toMatchObject({ status: 422, code: "idempotency_key_reused" });
  });

  it("errors are typed: status, code, requestId and the code's own fields", async () => {
    const unknown = await pictor.renders
      .create({ template: "blog-og-card", modifications: [{ name: "headlin", text: "x" }] })
      .catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(PictorError);
    expect(unknown).toMatchObject({ status: 422, code: "unknown_slot", slot: "headlin" });
    expect((unknown as PictorError).requestId).toMatch(/\S{6}/);

    // A key this server never issued: 401, the one body for every bad key.
    const stranger = new Pictor({
      apiKey: "sk_live_notakeyofthisserver",
      baseUrl: server.url,
      maxRetries: 0,
    });
    await expect(stranger.renders.get("rnd_x")).rejects.toMatchObject({ status: 401, code: "unauthorized" });
    await expect(pictor.renders.get("rnd_nosuchrender")).rejects.toMatchObject({
      status: 404,
      code: "not_found",
    });
    await expect(pictor.renders.create({ ...card("x"), scale: 5 })).rejects.toMatchObject({
      status: 400,
      code: "invalid_scale",
    });
  });

  it("insufficient_credits carries required and balance", async () => {
    const small = await accountIn(dir, 0);
    const other = await spawnServe(small.dir, quietEnv(), children);
    try {
      const client = new Pictor({ apiKey: small.apiKey, baseUrl: other.url });
      const error = await client.renders.create({ ...card("Big"), scale: 2 }).catch((e: unknown) => e);
      expect(error).toMatchObject({ status: 402, code: "insufficient_credits", required: 4, balance: 0 });
    } finally {
      other.child.kill("SIGTERM");
    }
  });

  it("a batch gives per-row results and batches.get summarises it", async () => {
    const batch = await pictor.renders.batch({
      renders: [
        card("Row one"),
        { template: "blog-og-card", modifications: [{ name: "nope", text: "x" }] },
        card("Row three"),
      ],
    });
    expect(batch.renders.map((r) => ("error" in r && r.error ? r.error.code : "ok"))).toEqual([
      "ok",
      "unknown_slot",
      "ok",
    ]);
    const ids = batch.renders.flatMap((r) => ("id" in r && r.id ? [r.id] : []));
    await Promise.all(ids.map((id) => pictor.renders.waitFor(id, { timeout: 30_000 })));
    const summary = await pictor.batches.get(batch.batch_id);
    expect(summary.counts).toMatchObject({ rows: 3, refused: 1, completed: 2 });
  });

  it("renders.batch: a row's own idempotency_key answers a later batch with the same render (replayed)", async () => {
    const row = { ...card("Keyed row"), idempotency_key: `client-row-${Date.now()}` };
    const first = await pictor.renders.batch({ renders: [row] });
    const again = await pictor.renders.batch({ renders: [card("Another row"), row] });
    const [accepted] = first.renders;
    const replayed = again.renders[1];
    if (!accepted || !("id" in accepted)) throw new Error(`the row was refused: ${JSON.stringify(accepted)}`);
    expect(accepted.replayed).toBeUndefined();
    expect(replayed).toMatchObject({ index: 1, id: accepted.id, replayed: true });
  });
});

describe("templates, assets, webhook secret", () => {
  it("templates.list iterates over every page; schema lists the slots", async () => {
    const keys: string[] = [];
    for await (const t of pictor.templates.list({ limit: 5 })) keys.push(t.key);
    expect(keys.length).toBeGreaterThan(5); // the starters span pages of 5
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toContain("blog-og-card");
    const schema = await pictor.templates.schema("blog-og-card");
    expect(schema.slots.map((s) => s.name)).toContain("headline");
    const template = await pictor.templates.get("blog-og-card");
    expect(template).toMatchObject({ key: "blog-og-card", status: "published", published_version: 1 });
  });

  it("assets.upload and assets.query", async () => {
    const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#ff0000" } })
      .png()
      .toBuffer();
    const asset = await pictor.assets.upload({
      file: new Uint8Array(png),
      filename: "red.png",
      folder: "sdk/tests",
      tags: ["sdk-red"],
      metadata: { origin: "client-test" },
    });
    expect(asset).toMatchObject({ folder: "sdk/tests/", tags: ["sdk-red"] });
    const found = await pictor.assets.query({ tags: ["sdk-red"] });
    expect(found.data.map((a) => a.id)).toEqual([asset.id]);
    const byMeta = await pictor.assets.query({ metadata: { origin: "client-test" } });
    expect(byMeta.data.map((a) => a.id)).toContain(asset.id);
  });

  it("webhookSecret.get and rotate; verifyCallback accepts the new secret", async () => {
    const { secret } = await pictor.webhookSecret.get();
    expect(secret).toMatch(/^whsec_/);
    const rotated = await pictor.webhookSecret.rotate();
    expect(rotated.secret).not.toBe(secret);
    expect((await pictor.webhookSecret.get()).secret).toBe(rotated.secret);
    const { signCallback } = await import("../src/index.ts");
    const body = '{"id":"rnd_1"}';
    expect(verifyCallback(body, signCallback(body, rotated.secret), [rotated.secret, secret])).toBe(true);
  });
});

describe("timeouts and cancellation", () => {
  it("an aborted signal rejects with its reason; a tiny timeout is a PictorTimeoutError", async () => {
    const controller = new AbortController();
    controller.abort(new Error("caller gave up"));
    await expect(pictor.renders.get("rnd_x", { signal: controller.signal })).rejects.toThrow(
      "caller gave up",
    );
    const slow = await pictor.renders
      .create(card("Slow"), { wait: 30, timeoutMs: 1 })
      .catch((e: unknown) => e);
    expect(slow).toBeInstanceOf(PictorTimeoutError);
    const unfinished = await pictor.renders.create(card("Not yet"));
    const timedOut = await pictor.renders.waitFor(unfinished.id, { timeout: 0 }).catch((e: unknown) => e);
    if (timedOut instanceof Error) expect(timedOut).toBeInstanceOf(PictorTimeoutError);
    else expect(timedOut).toMatchObject({ status: "completed" }); // it finished before the first poll
  });
});

describe("retries", () => {
  it("a render sent while the server restarts is retried until it answers, and charged once", async () => {
    const own = await accountIn(dir, 50);
    const first = await spawnServe(own.dir, quietEnv(), children);
    const port = new URL(first.url).port;
    const outcomes: string[] = [];
    const client = new Pictor({
      apiKey: own.apiKey,
      baseUrl: first.url,
      maxRetries: 30,
      retryBaseDelayMs: 100,
      retryMaxDelayMs: 1000,
      // The real fetch, observed: what each attempt got.
      fetch: async (input, init) => {
        try {
          const response = await fetch(input, init);
          outcomes.push(String(response.status));
          return response;
        } catch (error) {
          outcomes.push("network");
          throw error;
        }
      },
    });
    first.child.kill("SIGTERM");
    await exited(first.child);
    const pending = client.renders.create(card("Across a restart"), { wait: true });
    // The first attempt meets a closed port; the server comes back on the same port and data.
    const second = await spawnServe(own.dir, quietEnv(), children, ["--port", port]);
    try {
      const job = await pending;
      expect(job.status).toBe("completed");
      expect(outcomes[0]).toBe("network");
      expect(outcomes.at(-1)).toBe("200");
      expect((await client.account.get()).credits_balance).toBe(49);
    } finally {
      second.child.kill("SIGTERM");
    }
  });

  it("429 with Retry-After is waited out and retried", async () => {
    const own = await accountIn(dir, 10);
    const limited = await spawnServe(
      own.dir,
      quietEnv({ PICTOR_RATE_LIMIT_BURST: "2", PICTOR_RATE_LIMIT_PER_SECOND: "1" }),
      children,
    );
    const statuses: number[] = [];
    try {
      const client = new Pictor({
        apiKey: own.apiKey,
        baseUrl: limited.url,
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          statuses.push(response.status);
          return response;
        },
      });
      const schemas = await Promise.all([1, 2, 3, 4].map(() => client.templates.schema("blog-og-card")));
      expect(schemas.every((s) => s.slots.length > 0)).toBe(true);
      expect(statuses).toContain(429);
      expect(statuses.filter((s) => s === 200)).toHaveLength(4);
    } finally {
      limited.child.kill("SIGTERM");
    }
  });
});
