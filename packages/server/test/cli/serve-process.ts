import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";

export const PICTOR_BIN = fileURLToPath(new URL("../../bin/pictor.js", import.meta.url));

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Everything printed so far: the first run prints the generated API key here. */
  stdout(): string;
  /** The structured logs so far. */
  stderr(): string;
}

/**
 * `pictor serve --workers 1` as a child process on a free loopback port; resolves with its URL once it
 * says it is listening. The child goes into `running` before anything can fail, so the test's
 * afterAll can SIGKILL whatever a failed test left behind (`killStillRunning`).
 */
export async function spawnServe(
  dir: string,
  env: NodeJS.ProcessEnv,
  running: ChildProcess[],
  extraArgs: string[] = [],
): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    [PICTOR_BIN, "serve", "--port", "0", "--data", dir, "--workers", "1", ...extraArgs],
    {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  running.push(child);
  let out = "";
  let err = "";
  child.stderr?.on("data", (d) => {
    err += d;
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (d) => {
      out += d;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
  return { child, url, stdout: () => out, stderr: () => err };
}

/** How the child ended; resolves at once if it already has. */
export function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      resolve({ code: child.exitCode, signal: child.signalCode });
    else child.on("exit", (code, signal) => resolve({ code, signal }));
  });
}

/**
 * A scratch directory for a test file's data dirs and the list its `pictor` children go into; after
 * the file's tests, whatever still runs is killed and the directory removed.
 */
export function scratchForPictor(prefix: string): { dir: string; children: ChildProcess[] } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const children: ChildProcess[] = [];
  afterAll(() => {
    killStillRunning(children);
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, children };
}

export function killStillRunning(children: ChildProcess[]): void {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

/**
 * One `pictor` command to its end: exit code, stdout, stderr (logs at warn). `running` collects the
 * child for `killStillRunning`, for a command (a `serve` meant to fail) that might not end.
 */
export function runPictor(
  args: string[],
  /** `env` is added to this process's environment. */
  options: { cwd?: string; running?: ChildProcess[]; env?: Record<string, string> } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [PICTOR_BIN, ...args],
      {
        env: { ...process.env, PICTOR_LOG_LEVEL: "warn", ...options.env },
        ...(options.cwd ? { cwd: options.cwd } : {}),
      },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
    options.running?.push(child);
  });
}

/** The trial account's API key a first `pictor serve` prints once on stdout. */
export function trialKeyOf(server: { stdout(): string }): string {
  const key = /API key \(shown only now, store it\): (sk_live_\S+)/.exec(server.stdout())?.[1];
  if (key === undefined) throw new Error("pictor serve printed no trial API key");
  return key;
}
