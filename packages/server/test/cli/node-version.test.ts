import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { nodeVersionProblem } from "../../bin/node-version.js";
import { PICTOR_BIN } from "./serve-process.ts";

const run = (node: string, args: string[]) =>
  promisify(execFile)(node, args, { env: { ...process.env, PICTOR_LOG_LEVEL: "warn" } }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => ({
      code: e.code,
      stdout: e.stdout,
      stderr: e.stderr,
    }),
  );

const ONE_LINE =
  /^pictor: Node\.js (v[\d.]+) cannot run Pictor; it needs Node\.js 22\.18 or newer .*nodejs\.org[^\n]*$/;

describe("the Node version check that runs before any TypeScript", () => {
  it("accepts exactly the releases that strip types by default", () => {
    const on = { typescript: "strip" };
    for (const ok of ["v22.18.0", "v22.20.1", "v23.6.0", "v23.11.0", "v24.0.0", "v25.2.1"]) {
      expect(nodeVersionProblem(ok, on), ok).toBeNull();
    }
    for (const old of ["v18.20.4", "v20.20.2", "v22.0.0", "v22.17.9", "v23.0.0", "v23.5.9"]) {
      expect(nodeVersionProblem(old, undefined), old).toMatch(ONE_LINE);
    }
    expect(nodeVersionProblem("v24.1.0", { typescript: false })).toMatch(/--no-experimental-strip-types/);
  });

  it("a faked Node 20 gets the one line and exit 1 from the bin, before any .ts is loaded", async () => {
    const fake = `data:text/javascript,Object.defineProperty(process,"version",{value:"v20.11.1"})`;
    const out = await run(process.execPath, ["--import", fake, PICTOR_BIN, "serve", "--port", "0"]);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe("");
    expect(out.stderr.endsWith("\n")).toBe(true);
    expect(out.stderr.trimEnd()).toMatch(ONE_LINE);
    expect(out.stderr).toContain("v20.11.1");
  });

  // Debian's Node (20 on the CI image and on this project's machines): the real thing, no faking.
  it.skipIf(!existsSync("/usr/bin/node"))("/usr/bin/node, when it is older, gets the same line", async () => {
    const version = (await run("/usr/bin/node", ["--version"])).stdout.trim();
    const out = await run("/usr/bin/node", [PICTOR_BIN, "serve"]);
    if (nodeVersionProblem(version, undefined) === null) {
      expect(out.stderr.trimEnd()).not.toMatch(ONE_LINE);
    } else {
      expect(out.code).toBe(1);
      expect(out.stderr.endsWith("\n")).toBe(true);
      expect(out.stderr.trimEnd()).toMatch(ONE_LINE);
      expect(out.stderr).toContain(version);
    }
  });
});
