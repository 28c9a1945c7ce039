// A deliverer in its own process, for the SIGKILL test: it claims one event and sends it with a
// long timeout, so the parent can kill it while the attempt is in flight and unrecorded.
// Usage: node deliver-in-child.ts <db path> <allowlist entry> <secret> <lease ms>
import { createSafeFetch } from "../../../src/adapters/fetch/safe-fetch.ts";
import { openDatabase } from "../../../src/adapters/sqlite/database.ts";
import { createSqliteWebhookOutbox } from "../../../src/adapters/sqlite/webhook-outbox.ts";
import { createWebhookDeliverer } from "../../../src/jobs/deliver-webhooks.ts";

const [dbPath, allowed, secret, lease] = process.argv.slice(2);
if (!dbPath || !allowed || !secret || !lease)
  throw new Error("usage: <db> <allowlist entry> <secret> <lease ms>");
const db = openDatabase(dbPath);
const deliverer = createWebhookDeliverer({
  outbox: createSqliteWebhookOutbox(db),
  safeFetch: createSafeFetch({ allowlist: [allowed] }),
  getSigningSecret: async () => secret,
  clock: { now: () => Date.now() },
  random: Math.random,
  timeoutMs: Number(lease) / 2,
  leaseMs: Number(lease),
  batchSize: 1,
});
await deliverer.runOnce();
