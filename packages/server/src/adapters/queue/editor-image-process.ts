import { type ChildProcess, fork } from "node:child_process";
import { existsSync } from "node:fs";
import { processLog } from "../process-log.ts";
import type { EditorImageThreads } from "./pool-image-preparer.ts";
import type { PrepareImageResult, PrepareImageTask } from "./render-messages.ts";
import { BACKGROUND_NICE } from "./thread-priority.ts";

const PROCESS_FILE = new URL("../../main/editor-image-process.ts", import.meta.url);
const NICE = ["/usr/bin/nice", "/bin/nice"].find((path) => existsSync(path));

/**
 * Editor images in a process without render threads (the API-only process of a scaled deployment):
 * fitted in a child process started at background priority (BACKGROUND_NICE through `nice`, so its
 * libuv and libvips threads are niced too, which a niced thread of this process could not give:
 * sharp's work runs on the process's shared threads), one at a time, never on the API's event loop.
 * On a busy machine the API thread and the worker processes' renders get the CPU first. Started at
 * the first image; a process that died is started again at the next.
 */
export function editorImageProcess(): EditorImageThreads & { close(): Promise<void>; pid(): number | null } {
  let child: ChildProcess | null = null;
  let nextTaskId = 1;
  const pending = new Map<number, (result: PrepareImageResult) => void>();
  let closing = false;

  const start = (): ChildProcess => {
    const started = fork(PROCESS_FILE, [], {
      serialization: "advanced",
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      ...(NICE
        ? {
            execPath: NICE,
            execArgv: ["-n", String(BACKGROUND_NICE), process.execPath, ...process.execArgv],
          }
        : {}),
    });
    started.on("message", (message: PrepareImageResult | { ready: true }) => {
      if (!("taskId" in message)) return;
      pending.get(message.taskId)?.(message);
      pending.delete(message.taskId);
    });
    started.once("exit", (code, signal) => {
      if (child === started) child = null;
      if (!closing) processLog().warn({ code, signal }, "the editor-image process exited");
      for (const [taskId, resolve] of pending) {
        resolve({ taskId, ok: false, code: "internal_error", message: "the editor-image process exited" });
      }
      pending.clear();
    });
    return started;
  };

  return {
    size: 1,
    prepareImage(task) {
      child ??= start();
      const running = child;
      const taskId = nextTaskId++;
      return new Promise((resolve) => {
        pending.set(taskId, resolve);
        running.send({ ...task, taskId, kind: "prepare-image" } satisfies PrepareImageTask, (error) => {
          if (!error || !pending.delete(taskId)) return;
          resolve({ taskId, ok: false, code: "internal_error", message: String(error) });
        });
      });
    },
    pid: () => child?.pid ?? null,
    async close() {
      closing = true;
      const running = child;
      child = null;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill();
      await exited;
    },
  };
}
