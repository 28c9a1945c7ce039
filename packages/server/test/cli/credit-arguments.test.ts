import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, expect, it } from "vitest";
import { runPictor as pictor } from "./serve-process.ts";

const EXAMPLE = fileURLToPath(new URL("../../../../examples/templates/event-card.json", import.meta.url));
const data = mkdtempSync(join(tmpdir(), "pictor-credit-args-"));
afterAll(() => rmSync(data, { recursive: true, force: true }));

it("credit amounts are digits only, up to 10^12: anything Number() would quietly read is refused with exit 2", async () => {
  const created = await pictor([
    "accounts",
    "create",
    "--name",
    "ok",
    "--credits",
    "0",
    "--json",
    "--data",
    data,
  ]);
  expect(created.code).toBe(0);
  const { account_id } = JSON.parse(created.stdout) as { account_id: string };

  for (const bad of ["1e30", "0x10", " 7 ", "", "-1", "2.5", "1000000000001", "99999999999999999999"]) {
    const create = await pictor(["accounts", "create", "--name", "n", "--credits", bad, "--data", data]);
    expect(create.code, `--credits "${bad}"`).toBe(2);
    expect(create.stderr).toContain(
      "pictor: --credits must be a whole number from 0 to 1000000000000, in digits.",
    );
    const grant = await pictor(["credits", "grant", account_id, bad, "--data", data]);
    expect(grant.code, `grant "${bad}"`).toBe(2);
    expect(grant.stderr).toContain("pictor: <n> must be a whole number from 1 to 1000000000000, in digits.");
  }
  expect((await pictor(["credits", "grant", account_id, "0", "--data", data])).code).toBe(2);

  const granted = await pictor(["credits", "grant", account_id, "1000000000000", "--data", data]);
  expect(granted.stdout).toBe(`Granted 1000000000000 credits to ${account_id}; balance 1000000000000.\n`);
  // Nothing refused above reached the ledger.
  expect((await pictor(["credits", "grant", account_id, "1", "--data", data])).stdout).toContain(
    "balance 1000000000001.",
  );
  const json = await pictor(["credits", "grant", account_id, "2", "--json", "--data", data]);
  expect(JSON.parse(json.stdout)).toEqual({ account_id, granted: 2, balance: 1000000000003 });
});

it("accounts create refuses an empty name", async () => {
  const run = await pictor(["accounts", "create", "--name", "  ", "--data", data]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain("pictor: --name must not be empty.");
});

it("credits grant and templates push name the data directory when the account is not there, and never create one", async () => {
  const missing = join(data, "not-a-data-dir");
  for (const args of [
    ["credits", "grant", "acct_nope", "5", "--data", missing],
    ["templates", "push", EXAMPLE, "--account", "acct_nope", "--data", missing],
  ]) {
    const run = await pictor(args);
    expect(run.code, args[0]).toBe(2);
    expect(run.stderr).toContain(`pictor: cannot use the data directory ${missing}: it holds no Pictor data`);
  }
  expect(existsSync(missing)).toBe(false);

  const unknown = await pictor(["credits", "grant", "acct_nope", "5", "--data", data]);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain(
    `pictor: No account 'acct_nope' in the data directory ${data}. Check --data`,
  );
});
