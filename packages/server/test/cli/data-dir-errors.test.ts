import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runPictor as pictor, scratchForPictor, spawnServe } from "./serve-process.ts";

const { dir, children } = scratchForPictor("pictor-data-dir-errors-");

// Root can write anywhere, so an unwritable directory cannot be made here; a file where the directory
// should be, and a file that is not a database, fail the same way for every user.
it("a data dir that is a file: serve says which directory and how to choose another, exits 2, no stack", async () => {
  const file = join(dir, "a-file");
  writeFileSync(file, "not a directory");
  const served = await pictor(["serve", "--port", "0", "--data", file, "--workers", "1"], {
    running: children,
  });
  expect(served.code).toBe(2);
  expect(served.stderr).toContain(`pictor: cannot use the data directory ${file}: ENOTDIR`);
  expect(served.stderr).toContain("--data <dir> or PICTOR_DATA_DIR");
  // Not mistaken for a port problem, and no stack trace.
  expect(served.stderr).not.toContain("cannot listen");
  expect(served.stderr).not.toMatch(/\n\s+at /);
  expect(served.stdout).toBe("");
});

it("a data dir that cannot be made (under /proc): every command fails with the reason instead of hanging", async () => {
  // Node's recursive mkdir never returns for such a path; openDataDir makes one level at a time.
  const nowhere = "/proc/pictor-no-such-dir/data";
  for (const args of [
    ["serve", "--port", "0", "--data", nowhere, "--workers", "1"],
    ["accounts", "create", "--name", "n", "--data", nowhere],
  ]) {
    const run = await pictor(args, { running: children });
    expect(run.code, args.join(" ")).toBe(2);
    expect(run.stderr).toContain(`pictor: cannot use the data directory ${nowhere}: ENOENT`);
  }
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
    const run = await pictor(args, { running: children });
    expect(run.code, args.join(" ")).toBe(2);
    expect(run.stderr).toContain(`pictor: cannot use the data directory ${broken}: file is not a database`);
  }
});

it("starter templates that cannot be read stop the first start before the trial account exists; the next start shows its key", async () => {
  const examples = join(dir, "examples");
  mkdirSync(examples);
  writeFileSync(join(examples, "broken.json"), "{ not json");
  const data = join(dir, "first-start");
  const serveWithExamples = (dirOrFile: string) =>
    pictor(["serve", "--port", "0", "--data", data, "--workers", "1", "--examples", dirOrFile], {
      running: children,
    });
  const failed = await serveWithExamples(examples);
  expect(failed.code).toBe(2);
  expect(failed.stderr).toContain(
    `pictor: cannot read the starter template ${join(examples, "broken.json")}:`,
  );
  expect(failed.stderr).toContain("--examples <dir>");
  expect(failed.stdout).not.toMatch(/sk_live_/);
  const file = join(dir, "examples-file");
  writeFileSync(file, "{}");
  const notADir = await serveWithExamples(file);
  expect(notADir.code).toBe(2);
  expect(notADir.stderr).toContain(`pictor: cannot read the starter templates in ${file}: ENOTDIR`);

  // The failed starts created no account: this start is the first, and shows the trial key.
  const started = await spawnServe(data, { ...process.env, PICTOR_LOG_LEVEL: "warn" }, children);
  expect(started.stdout()).toMatch(/API key \(shown only now, store it\): sk_live_/);
  started.child.kill("SIGTERM");
});
