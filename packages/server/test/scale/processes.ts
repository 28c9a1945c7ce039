import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const PICTOR_BIN = fileURLToPath(new URL("../../bin/pictor.js", import.meta.url));

export interface PictorProcess {
  child: ChildProcess;
  role: "api" | "worker";
  stderr(): string;
  /** Everything it printed on standard output (the start banner). */
  stdout(): string;
  /** Resolves with the first standard-error line that matches `pattern`, once it has been written. */
  stderrLine(pattern: RegExp): Promise<string>;
  /** SIGTERM (graceful: in-flight renders finish) or SIGKILL; resolves once the process is gone. */
  stop(signal: "SIGTERM" | "SIGKILL"): Promise<void>;
}

/**
 * `pictor serve --role <role>` as a child process; resolves once it prints its start line (an API
 * listens, a worker has loaded its engines and takes jobs). Every child goes into `running` so the
 * suite's afterAll can kill what a failed test left behind.
 */
export async function spawnPictor(
  role: "api" | "worker",
  args: string[],
  env: NodeJS.ProcessEnv,
  running: Set<ChildProcess>,
): Promise<PictorProcess> {
  const child = spawn(process.execPath, [PICTOR_BIN, "serve", "--role", role, ...args], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  const gone = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void gone.then(() => running.delete(child));
  let out = "";
  let err = "";
  const lineWaiters = new Set<(line: string) => boolean>();
  let partial = "";
  child.stderr?.on("data", (d) => {
    err = (err + d).slice(-20_000);
    const lines = (partial + d).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) for (const waiter of lineWaiters) if (waiter(line)) lineWaiters.delete(waiter);
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (d) => {
      out += d;
      if (/listening on|render worker started/.test(out)) resolve();
    });
    child.once("exit", (code, signal) =>
      reject(new Error(`pictor ${role} exited (${code ?? signal}): ${err}`)),
    );
  });
  return {
    child,
    role,
    stderr: () => err,
    stdout: () => out,
    stderrLine: (pattern) =>
      new Promise((resolve, reject) => {
        const found = err.split("\n").find((line) => pattern.test(line));
        if (found !== undefined) return resolve(found);
        lineWaiters.add((line) => {
          if (!pattern.test(line)) return false;
          resolve(line);
          return true;
        });
        void gone.then(() => reject(new Error(`pictor ${role} exited without a line matching ${pattern}`)));
      }),
    async stop(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await gone;
    },
  };
}

/** A port the kernel just handed out on loopback, so a restarted API process can take the same one. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
