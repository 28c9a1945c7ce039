import { expect, it } from "vitest";
import { runPictor, scratchForPictor, spawnServe } from "./serve-process.ts";

const { dir, children } = scratchForPictor("pictor-keys-");

it("keys create issues a new working key for an account whose first key was lost", async () => {
  const created = await runPictor(["accounts", "create", "--name", "ops", "--json", "--data", dir]);
  expect(created.code, created.stderr).toBe(0);
  const { account_id, api_key: lost } = JSON.parse(created.stdout) as { account_id: string; api_key: string };

  const issued = await runPictor(["keys", "create", "--account", account_id, "--json", "--data", dir]);
  expect(issued.code, issued.stderr).toBe(0);
  const fresh = JSON.parse(issued.stdout) as { account_id: string; key_id: string; api_key: string };
  expect(fresh.account_id).toBe(account_id);
  expect(fresh.key_id).toMatch(/^key_/);
  expect(fresh.api_key).toMatch(/^sk_live_/);
  expect(fresh.api_key).not.toBe(lost);

  const server = await spawnServe(dir, { ...process.env, PICTOR_LOG_LEVEL: "warn" }, children);
  const account = await fetch(`${server.url}/v1/account`, {
    headers: { authorization: `Bearer ${fresh.api_key}` },
  });
  expect(account.status).toBe(200);
  expect(((await account.json()) as { id: string }).id).toBe(account_id);
  server.child.kill("SIGTERM");

  const unknown = await runPictor(["keys", "create", "--account", "acct_nope", "--data", dir]);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toMatch(/^pictor: No account 'acct_nope' in the data directory/);
});
