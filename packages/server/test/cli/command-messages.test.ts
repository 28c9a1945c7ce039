import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { runPictor as pictor } from "./serve-process.ts";

const dir = mkdtempSync(join(tmpdir(), "pictor-messages-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("pictor --version prints the package's version", async () => {
  const version = JSON.parse(
    readFileSync(new URL("../../../../package.json", import.meta.url), "utf8"),
  ).version;
  const run = await pictor(["--version"]);
  expect(run).toMatchObject({ code: 0, stdout: `${version}\n` });
});

it("templates push says whether the file is empty, not JSON, or names an image it cannot read", async () => {
  writeFileSync(join(dir, "empty.json"), "");
  writeFileSync(join(dir, "bad.json"), "{ nope");
  mkdirSync(join(dir, "photo.jpg"));
  writeFileSync(join(dir, "names-a-dir.json"), JSON.stringify({ key: "k", src: "photo.jpg" }));
  const cases: [string, string][] = [
    ["empty.json", "empty.json: the file is empty"],
    ["bad.json", "bad.json: not valid JSON ("],
    ["names-a-dir.json", "names-a-dir.json: cannot read the image photo.jpg it names: EISDIR"],
  ];
  for (const [file, message] of cases) {
    const run = await pictor(["templates", "push", join(dir, file), "--account", "acct_x", "--data", dir]);
    expect(run.code, file).toBe(2);
    expect(run.stderr).toContain(`pictor: ${join(dir, message)}`);
  }
});
