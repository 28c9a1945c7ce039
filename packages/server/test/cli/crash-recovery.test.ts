import { type ChildProcess, execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { api, type ImageServer, startImageServer, testTemplate, untilFinished } from "../api/support.ts";
import { exited, killStillRunning, PICTOR_BIN, spawnServe } from "./serve-process.ts";

const run = promisify(execFile);

let dir: string;
let images: ImageServer;
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pictor-crash-"));
  images = await startImageServer();
});
afterAll(async () => {
  killStillRunning(children);
  await images.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({
  ...process.env,
  PICTOR_OUTBOUND_ALLOWLIST: `127.0.0.1:${images.port}`,
  // info: every request is logged, so the secrets check below has something to search.
  PICTOR_LOG_LEVEL: "info",
  PICTOR_RATE_LIMIT_BURST: "100000",
});

const serve = () => spawnServe(dir, env(), children);

const pictor = async (...args: string[]) =>
  (await run(process.execPath, [PICTOR_BIN, ...args, "--data", dir], { env: env() })).stdout;

it("SIGKILL with renders in flight: after restart every render completes or fails with one refund; SIGTERM drains", async () => {
  const first = await serve();
  expect(first.stdout()).toMatch(/API key \(shown only now, store it\): sk_live_/);

  // The CLI acts on the same data dir while the server runs.
  const created = JSON.parse(
    await pictor("accounts", "create", "--name", "crash", "--credits", "200", "--json"),
  );
  expect(Object.keys(created)).toEqual(["account_id", "api_key"]);
  const key = created.api_key as string;
  expect(await pictor("credits", "grant", created.account_id, "50")).toMatch(/balance 250/);
  const file = join(dir, "test-card.json");
  writeFileSync(file, JSON.stringify(testTemplate()));
  expect(await pictor("templates", "push", file, "--account", created.account_id, "--publish")).toMatch(
    /published version 1/,
  );

  const good = { template: "test-card", modifications: [], scale: 3 };
  const bad = { ...good, modifications: [{ name: "photo", image_url: images.url("/missing.png") }] };
  const bodies = [...Array.from({ length: 10 }, () => good), bad, good, bad, good];
  const accepted: string[] = [];
  for (const body of bodies) {
    const res = await api(first, "POST", "/v1/renders", { key, body });
    expect(res.status).toBe(202);
    accepted.push(res.body.id);
  }
  first.child.kill("SIGKILL");
  expect((await exited(first.child)).signal).toBe("SIGKILL");

  const db = new DatabaseSync(join(dir, "pictor.db"), { readOnly: true });
  const pendingAtKill = db
    .prepare("SELECT COUNT(*) AS n FROM renders WHERE status IN ('queued', 'rendering')")
    .get();
  expect(Number(pendingAtKill?.n)).toBeGreaterThan(0);

  const second = await serve();
  expect(second.stdout()).not.toMatch(/sk_live_/);
  const finals = [];
  for (const id of accepted) finals.push(await untilFinished(second, key, id));
  expect(finals.map((r) => r.status)).toEqual(bodies.map((b) => (b === bad ? "failed" : "completed")));

  const ledger = db
    .prepare("SELECT render_id, kind, amount FROM ledger WHERE account_id = ? AND render_id IS NOT NULL")
    .all(created.account_id);
  for (const render of finals) {
    const entries = ledger.filter((e) => e.render_id === render.id).map((e) => `${e.kind}:${e.amount}`);
    expect(entries.sort()).toEqual(render.status === "failed" ? ["charge:-9", "refund:9"] : ["charge:-9"]);
  }
  const completedCost = finals.filter((r) => r.status === "completed").length * 9;
  expect((await api(second, "GET", "/v1/account", { key })).body.credits_balance).toBe(250 - completedCost);

  // SIGTERM: stop accepting, finish what is rendering, exit 0; nothing is left half-done.
  const more: string[] = [];
  for (let i = 0; i < 4; i++)
    more.push((await api(second, "POST", "/v1/renders", { key, body: good })).body.id);
  second.child.kill("SIGTERM");
  expect(await exited(second.child)).toEqual({ code: 0, signal: null });
  const rendering = db.prepare("SELECT COUNT(*) AS n FROM renders WHERE status = 'rendering'").get();
  expect(Number(rendering?.n)).toBe(0);

  const third = await serve();
  for (const id of more) expect((await untilFinished(third, key, id)).status).toBe("completed");
  // Requests that carry secrets every way a caller might send them, for the log check below.
  const secret = await api(third, "GET", "/v1/webhook-secret", { key });
  expect(secret.body.secret).toMatch(/^whsec_/);
  expect((await api(third, "POST", "/v1/webhook-secret/rotate", { key })).status).toBe(200);
  expect((await fetch(`${third.url}/v1/account?api_key=${key}`)).status).toBe(401);
  const newKey = await api(third, "POST", "/v1/keys", { key, body: { name: "logged?" } });
  expect(newKey.body.key).toMatch(/^sk_live_/);
  third.child.kill("SIGTERM");
  expect((await exited(third.child)).code).toBe(0);
  db.close();

  // Structured logs of all three runs: requests were logged, keys and secrets never.
  const logs = first.stderr() + second.stderr() + third.stderr();
  expect(logs).toContain('"request completed"');
  expect(logs).not.toMatch(/sk_live_|whsec_/);
});
