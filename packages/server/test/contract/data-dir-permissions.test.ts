import { chmodSync, existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { openDataDir } from "../../src/main/data-dir.ts";

const dir = mkdtempSync(join(tmpdir(), "pictor-perms-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const modeOf = (file: string) => statSync(join(dir, file)).mode & 0o777;

it("keeps the database (webhook secrets, key hashes) and the signing key readable by their owner only", async () => {
  const data = openDataDir(dir, { examplesDir: join(dir, "none") });
  await data.accounts.webhookSecret("acct_none"); // a read, so the WAL files exist
  expect(existsSync(join(dir, "pictor.db-wal"))).toBe(true);
  for (const file of ["pictor.db", "pictor.db-wal", "pictor.db-shm", "signing.key"]) {
    expect(modeOf(file).toString(8), file).toBe("600");
  }
  data.close();
  // A data dir made by an earlier version (world-readable) is narrowed on the next open.
  chmodSync(join(dir, "pictor.db"), 0o644);
  openDataDir(dir, { examplesDir: join(dir, "none") }).close();
  expect(modeOf("pictor.db").toString(8)).toBe("600");
});
