import { type ChildProcess, execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { api, testTemplate } from "../api/support.ts";
import { exited, killStillRunning, PICTOR_BIN, spawnServe } from "./serve-process.ts";

const run = promisify(execFile);

let dir: string;
let images: Server;
let imagePort: number;
const children: ChildProcess[] = [];

// The image origin holds every request until `release` is called: the render is then accepted and
// charged but cannot finish, which is the moment the server is killed.
const held: ServerResponse[] = [];
let released = false;
let firstRequest: () => void;
const requested = new Promise<void>((resolve) => {
  firstRequest = resolve;
});
let png: Buffer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pictor-idem-crash-"));
  png = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#3366cc" } })
    .png()
    .toBuffer();
  images = createServer((_req, res) => {
    firstRequest();
    if (released) res.writeHead(200, { "content-type": "image/png" }).end(png);
    else held.push(res);
  });
  await new Promise<void>((r) => images.listen(0, "127.0.0.1", r));
  imagePort = (images.address() as AddressInfo).port;
});
afterAll(async () => {
  killStillRunning(children);
  for (const res of held) res.destroy();
  await new Promise((r) => images.close(r));
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({
  ...process.env,
  PICTOR_OUTBOUND_ALLOWLIST: `127.0.0.1:${imagePort}`,
  PICTOR_LOG_LEVEL: "warn",
});

it("a retry after the server died between accepting and answering gets the same render, charged once", async () => {
  const first = await spawnServe(dir, env(), children);
  const { account_id, api_key } = JSON.parse(
    (
      await run(
        process.execPath,
        [PICTOR_BIN, "accounts", "create", "--name", "idem", "--credits", "5", "--json", "--data", dir],
        { env: env() },
      )
    ).stdout,
  );
  const file = join(dir, "card.json");
  writeFileSync(file, JSON.stringify(testTemplate()));
  await run(
    process.execPath,
    [PICTOR_BIN, "templates", "push", file, "--account", account_id, "--publish", "--data", dir],
    { env: env() },
  );

  const body = {
    template: "test-card",
    modifications: [{ name: "photo", image_url: `http://127.0.0.1:${imagePort}/photo.png` }],
    wait: true,
  };
  const headers = { "idempotency-key": "order-4711" };
  // The first attempt: accepted, charged, rendering (its image is held), then the process dies.
  const lost = api(first, "POST", "/v1/renders", { key: api_key, body, headers }).catch((e: unknown) => e);
  await requested;
  first.child.kill("SIGKILL");
  expect((await exited(first.child)).signal).toBe("SIGKILL");
  expect(await lost).toBeInstanceOf(Error);

  const db = new DatabaseSync(join(dir, "pictor.db"));
  const renders = () =>
    db.prepare("SELECT id, status FROM renders WHERE account_id = ?").all(account_id) as {
      id: string;
      status: string;
    }[];
  expect(renders()).toHaveLength(1);
  const [original] = renders();
  // The claim's lock has run out, as five minutes of downtime would make it (the server is down,
  // so nothing else writes the file).
  db.prepare("UPDATE idempotency_keys SET locked_at = locked_at - 3600000 WHERE key = ?").run("order-4711");
  released = true;
  for (const res of held.splice(0)) res.destroy();

  const second = await spawnServe(dir, env(), children);
  const retry = await api(second, "POST", "/v1/renders", { key: api_key, body, headers });
  expect(retry.status).toBe(200);
  expect(retry.body).toMatchObject({ id: original?.id, status: "completed", credits_charged: 1 });
  expect(renders()).toEqual([{ id: original?.id, status: "completed" }]);
  const charges = db
    .prepare("SELECT render_id, amount FROM ledger WHERE account_id = ? AND kind = 'charge'")
    .all(account_id);
  expect(charges).toEqual([{ render_id: original?.id, amount: -1 }]);
  expect((await api(second, "GET", "/v1/account", { key: api_key })).body.credits_balance).toBe(4);

  // The answer is now stored under the key: one more retry is a replay.
  const replay = await api(second, "POST", "/v1/renders", { key: api_key, body, headers });
  expect(replay.headers.get("idempotent-replayed")).toBe("true");
  expect(replay.body.id).toBe(original?.id);
  db.close();
  second.child.kill("SIGTERM");
  expect((await exited(second.child)).code).toBe(0);
});
