// A completion-callback receiver in Fastify: verifies each delivery with the webhook secret fetched
// through the SDK, drops what does not verify, deduplicates on event_id and keeps asset_url.
// Run: PICTOR_API_KEY=sk_live_… PORT=3000 node fastify-receiver.ts
import { type CompletionCallback, Pictor, verifyCallback } from "@pictor/client";
import Fastify from "fastify";

const pictor = new Pictor({
  apiKey: process.env.PICTOR_API_KEY ?? "",
  baseUrl: process.env.PICTOR_URL ?? "http://127.0.0.1:8080",
});
// Fetched once, on the first delivery; after a rotation, restart (or keep [current, previous]).
let secret: Promise<string> | undefined;
const stored = new Map<string, string>(); // event_id -> asset_url; use your database

const app = Fastify();
app.register(async (scope) => {
  // Keep the raw bytes in this scope: the signature covers them, not re-serialised JSON.
  scope.addContentTypeParser("application/json", { parseAs: "buffer" }, (_request, body, done) => {
    done(null, body);
  });
  scope.post("/pictor/callback", async (request, reply) => {
    secret ??= pictor.webhookSecret.get().then((s) => s.secret);
    const raw = request.body as Buffer;
    const signature = request.headers["x-service-signature"] as string | undefined;
    if (!verifyCallback(raw, signature, await secret)) return reply.code(401).send();
    const event = JSON.parse(raw.toString("utf8")) as CompletionCallback;
    if (!stored.has(event.event_id)) {
      stored.set(event.event_id, event.asset_url);
      console.log(`stored ${event.id} ${event.asset_url}`);
    }
    return reply.code(204).send();
  });
});

const address = await app.listen({ port: Number(process.env.PORT ?? 3000), host: "127.0.0.1" });
console.log(`receiver listening on ${address}`);
