import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { keepServerOutput } from "./pictor-serve.ts";

/**
 * The launcher, as deployed (docs/deploy.md's units) and as the embedded default runs in the
 * benchmarks (pictor-serve.ts): its malloc and young-generation settings change a process's CPU per
 * render, so every role compared runs with them.
 */
const LAUNCHER = fileURLToPath(new URL("../../packages/server/bin/pictor.sh", import.meta.url));

/** `pictor serve --role <role>` as a child process, resolved once it listens or its workers started. */
export function spawnRole(
  role: "api" | "worker",
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<ChildProcess> {
  // `sh` execs node in its own place, so the child's pid is the role's.
  const child = spawn("sh", [LAUNCHER, "serve", "--role", role, ...args], {
    env: { ...env, PICTOR_NODE: process.execPath },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (d) => {
      keepServerOutput(d);
      out += d;
      if (/listening on|render worker started/.test(out)) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`pictor --role ${role} exited with ${code}`)));
  });
}

/** SIGTERM, then waits for the exit (at once if the child has already gone). */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await gone;
}
