import { hostname } from "node:os";
import { isMainThread } from "node:worker_threads";
import { type Logger, pino } from "pino";

/**
 * The logger faults are written with where no logger is handed down (queues, render threads, job
 * runners): the process's own once its composition root has set it (time, pid, host, role), and
 * until then, or in a render thread, one in the same format that names the thread.
 */
let current: Logger = pino(
  { base: { pid: process.pid, hostname: hostname(), ...(isMainThread ? {} : { thread: "render" }) } },
  process.stderr as pino.DestinationStream,
);

export function processLog(): Logger {
  return current;
}

/** Called once by a process's composition root with its logger. */
export function setProcessLog(log: Logger): void {
  current = log;
}
