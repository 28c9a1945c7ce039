import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../packages/server/bin/pictor.js", import.meta.url));

/** `pictor serve --role <role>` as a child process, resolved once it listens or its workers started. */
export function spawnRole(
  role: "api" | "worker",
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, [BIN, "serve", "--role", role, ...args], {
    env,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (d) => {
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
