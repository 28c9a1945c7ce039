// A completion-callback receiver in Express: verifies each delivery with the webhook secret fetched
// through the SDK, drops what does not verify, deduplicates on event_id and keeps asset_url.
// Run: PICTOR_API_KEY=sk_live_… PORT=3000 node express-receiver.ts
import { type CompletionCallback, Pictor, verifyCallback } from "@pictor/client";
import express from "express";

const pictor = new Pictor({
  apiKey: process.env.PICTOR_API_KEY ?? "",
  baseUrl: process.env.PICTOR_URL ?? "http://127.0.0.1:8080",
});
// Fetched once, on the first delivery; after a rotation, restart (or keep [current, previous]).
let secret: Promise<string> | undefined;
const stored = new Map<string, string>(); // event_id -> asset_url; use your database

const app = express();
// express.raw on this route only: req.body is the Buffer as received (the signature covers those
// bytes). A global express.json() must not run before it, or the raw bytes are gone.
app.post("/pictor/callback", express.raw({ type: "application/json" }), async (req, res) => {
  secret ??= pictor.webhookSecret.get().then((s) => s.secret);
  const raw = req.body as Buffer;
  if (!verifyCallback(raw, req.get("X-Service-Signature"), await secret)) {
    res.sendStatus(401);
    return;
  }
  const event = JSON.parse(raw.toString("utf8")) as CompletionCallback;
  if (!stored.has(event.event_id)) {
    stored.set(event.event_id, event.asset_url);
    console.log(`stored ${event.id} ${event.asset_url}`);
  }
  res.sendStatus(204);
});

const listener = app.listen(Number(process.env.PORT ?? 3000), "127.0.0.1", () => {
  const address = listener.address();
  const port = typeof address === "object" && address !== null ? address.port : process.env.PORT;
  console.log(`receiver listening on http://127.0.0.1:${port}`);
});
