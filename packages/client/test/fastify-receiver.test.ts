import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { type CompletionCallback, signCallback, verifyCallback } from "../src/index.ts";

// The Fastify receiver of packages/client/README.md and docs/webhooks.md, run for real: if the
// documented code stops working, this test fails.
function createReceiver(secrets: string[], store: Map<string, string>): FastifyInstance {
  const app = Fastify();
  app.register(async (scope) => {
    // Keep the raw bytes: the signature covers them, not re-serialised JSON.
    scope.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => {
      done(null, body);
    });
    scope.post("/pictor/callback", async (request, reply) => {
      const raw = request.body as Buffer;
      if (!verifyCallback(raw, request.headers["x-service-signature"] as string | undefined, secrets)) {
        return reply.code(401).send();
      }
      const event = JSON.parse(raw.toString("utf8")) as CompletionCallback;
      // At-least-once delivery: the same event_id may arrive again. Store asset_url (permanent),
      // never url (expires after about an hour).
      if (!store.has(event.event_id)) store.set(event.event_id, event.asset_url);
      return reply.code(204).send();
    });
  });
  return app;
}

const SECRET = "whsec_receiver_test";
const callback: CompletionCallback = {
  event: "render.completed",
  event_id: "evt_receiver1",
  id: "rnd_receiver1",
  status: "completed",
  template: "tpl_banner",
  url: "https://pictor.example/v1/outputs/ast_1?expires=1&sig=ab",
  asset_url: "https://pictor.example/a/0123456789abcdef0123456789abcdef/ast_1.png",
  width: 1200,
  height: 630,
  credits_charged: 1,
  metadata: { warnings: [] },
  created_at: "2026-11-22T04:00:00.000Z",
};

describe("documented Fastify receiver", () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
  });

  it("accepts a signed delivery once, stores asset_url and drops unsigned or tampered ones", async () => {
    const store = new Map<string, string>();
    app = createReceiver([SECRET, "whsec_previous"], store);
    const body = JSON.stringify(callback);
    const post = (payload: string, signature?: string) =>
      app?.inject({
        method: "POST",
        url: "/pictor/callback",
        headers: {
          "content-type": "application/json",
          ...(signature ? { "x-service-signature": signature } : {}),
        },
        payload,
      });

    expect((await post(body))?.statusCode).toBe(401);
    expect((await post(body.replace("ast_1.png", "evil.png"), signCallback(body, SECRET)))?.statusCode).toBe(
      401,
    );
    expect(store.size).toBe(0);

    expect((await post(body, signCallback(body, SECRET)))?.statusCode).toBe(204);
    expect((await post(body, signCallback(body, "whsec_previous")))?.statusCode).toBe(204);
    expect([...store.entries()]).toEqual([["evt_receiver1", callback.asset_url]]);
  });
});
