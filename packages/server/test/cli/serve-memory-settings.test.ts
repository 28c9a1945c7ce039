import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { missingLaunchSettings } from "../../bin/launch-settings.js";

// `npm start` runs bin/pictor.sh, which sets what Node and glibc read only at start (malloc arenas
// and mmap threshold, V8's young generation). `npx pictor serve` runs bin/pictor.js directly: it
// starts itself again once with the same settings, in the same process (process.execve), so the
// caller keeps its stdin, stdout, signals and exit code.
const BIN = fileURLToPath(new URL("../../bin/", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "pictor-launch-"));
const noEditor = join(dir, "no-editor");
const noExamples = join(dir, "no-examples");
mkdirSync(noEditor);
mkdirSync(noExamples);
const running = new Set<ChildProcess>();

afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** A clean environment: none of the settings, as a shell without them would have. */
const baseEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  PICTOR_EDITOR_DIR: noEditor,
  PICTOR_LOG_LEVEL: "warn",
  ...extra,
});

/** `pictor serve` on a free port and a fresh data dir, resolved once it prints its listening line. */
async function serve(command: string[], env: NodeJS.ProcessEnv) {
  const data = mkdtempSync(join(dir, "data-"));
  const child = spawn(
    command[0] as string,
    [...command.slice(1), "serve", "--port", "0", "--data", data, "--workers", "1", "--examples", noExamples],
    { env, stdio: ["ignore", "pipe", "pipe"] },
  );
  running.add(child);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let stderr = "";
  child.stderr?.on("data", (d) => {
    stderr += d;
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
      const listening = /listening on (\S+)/.exec(out);
      if (listening?.[1]) resolve(listening[1]);
    });
    child.once("exit", (code) => reject(new Error(`pictor serve exited (${code}): ${stderr}`)));
  });
  const pid = child.pid as number;
  return {
    /** The environment and command line of the process now answering at that pid. */
    environ: () => readFileSync(`/proc/${pid}/environ`, "utf8").split("\0"),
    cmdline: () => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0"),
    stderr: () => stderr,
    async stop() {
      // One request answered first: the process has got past its start (its SIGTERM handler is set
      // just after it prints the listening line).
      await fetch(`${url}/v1/openapi.json`);
      child.kill("SIGTERM");
      const code = await exited;
      running.delete(child);
      return code;
    },
  };
}

describe("missingLaunchSettings", () => {
  const execArgv: string[] = [];
  it("asks for every setting of pictor.sh when `serve` has none", () => {
    expect(missingLaunchSettings(["serve", "--port", "0"], {}, execArgv)).toEqual({
      env: { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072" },
      flags: ["--max-semi-space-size=4"],
    });
  });
  it("keeps what the caller set, and PICTOR_NODE_OPTIONS replaces the flags as in pictor.sh", () => {
    expect(missingLaunchSettings(["serve"], { MALLOC_ARENA_MAX: "4" }, ["--max-semi-space-size=16"])).toEqual(
      {
        env: { MALLOC_MMAP_THRESHOLD_: "131072" },
        flags: [],
      },
    );
    expect(
      missingLaunchSettings(
        ["serve"],
        { NODE_OPTIONS: "--max-semi-space-size=8", PICTOR_NODE_OPTIONS: "--single-threaded-gc" },
        execArgv,
      ),
    ).toEqual({
      env: { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072" },
      flags: ["--single-threaded-gc"],
    });
    expect(
      missingLaunchSettings(["serve"], { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "1" }, [
        "--max-semi-space-size=4",
      ]),
    ).toBeNull();
  });
  it("leaves other commands, and a process already started with them (the marker), alone", () => {
    expect(missingLaunchSettings(["batch", "rows.csv"], {}, execArgv)).toBeNull();
    expect(missingLaunchSettings([], {}, execArgv)).toBeNull();
    expect(missingLaunchSettings(["serve"], { PICTOR_LAUNCHED: "1" }, execArgv)).toBeNull();
  });
});

describe.skipIf(!existsSync("/proc/self/environ"))("pictor serve started without the launcher", () => {
  it("runs with the launcher's settings in the same process, and exits 0 on SIGTERM", async () => {
    const server = await serve([process.execPath, join(BIN, "pictor.js")], baseEnv());
    const environ = server.environ();
    expect(environ).toContain("MALLOC_ARENA_MAX=2");
    expect(environ).toContain("MALLOC_MMAP_THRESHOLD_=131072");
    expect(environ).toContain("PICTOR_LAUNCHED=1");
    const cmdline = server.cmdline();
    // Node's own flag, before the script: V8 reads it at start.
    expect(cmdline.indexOf("--max-semi-space-size=4")).toBeGreaterThan(0);
    expect(cmdline.indexOf("--max-semi-space-size=4")).toBeLessThan(cmdline.indexOf(join(BIN, "pictor.js")));
    expect(server.stderr()).not.toContain("without the memory settings");
    expect(await server.stop()).toBe(0);
  });

  it("through pictor.sh it starts once, keeping the caller's values", async () => {
    const server = await serve(["sh", join(BIN, "pictor.sh")], baseEnv({ MALLOC_ARENA_MAX: "4" }));
    expect(server.environ()).toContain("MALLOC_ARENA_MAX=4");
    expect(server.cmdline().filter((arg) => arg.startsWith("--max-semi-space-size"))).toEqual([
      "--max-semi-space-size=4",
    ]);
    expect(await server.stop()).toBe(0);
  });

  it("passes stdout and the exit code through: serve --help", () => {
    const help = spawnSync(process.execPath, [join(BIN, "pictor.js"), "serve", "--help"], {
      env: baseEnv(),
      encoding: "utf8",
    });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("Usage: pictor serve");
    expect(help.stderr).toBe("");
  });
});
