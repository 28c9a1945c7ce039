import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { PICTOR_BIN } from "./serve-process.ts";

const dir = mkdtempSync(join(tmpdir(), "pictor-data-dir-errors-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function pictor(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [PICTOR_BIN, ...args],
      { env: { ...process.env, PICTOR_LOG_LEVEL: "warn" } },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

// Root can write anywhere, so an unwritable directory cannot be made here; a file where the directory
// should be, and a file that is not a database, fail the same way for every user.
it("a data dir that is a file: serve says which directory and how to choose another, exits 2, no stack", async () => {
  const file = join(dir, "a-file");
  writeFileSync(file, "not a directory");
  const served = await pictor(["serve", "--port", "0", "--data", file, "--workers", "1"]);
  expect(served.code).toBe(2);
  expect(served.stderr).toContain(`pictor: cannot use the data directory ${file}: ENOTDIR`);
  expect(served.stderr).toContain("--data <dir> or PICTOR_DATA_DIR");
  // Not mistaken for a port problem, and no stack trace.
  expect(served.stderr).not.toContain("cannot listen");
  expect(served.stderr).not.toMatch(/\n\s+at /);
  expect(served.stdout).toBe("");
});

it("a data dir whose pictor.db is not a database: every command says so and exits 2", async () => {
  const broken = join(dir, "broken");
  mkdirSync(broken);
  writeFileSync(join(broken, "pictor.db"), "x".repeat(4096));
  for (const args of [
    ["accounts", "create", "--name", "n", "--data", broken],
    ["credits", "grant", "acct_x", "5", "--data", broken],
    ["serve", "--port", "0", "--data", broken, "--workers", "1"],
  ]) {
    const run = await pictor(args);
    expect(run.code, args.join(" ")).toBe(2);
    expect(run.stderr).toContain(`pictor: cannot use the data directory ${broken}: file is not a database`);
  }
});
