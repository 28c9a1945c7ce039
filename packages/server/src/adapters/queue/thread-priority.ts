import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";

/**
 * The nice value of a background render thread (docs/deploy.md, "Fairness between accounts"): with
 * the spare thread on, every render thread but the last runs at this priority, and renders nobody
 * waits for (batch rows, asynchronous renders) go to those threads first. On a busy machine the
 * kernel then gives a waiting caller's render, and the API thread, the CPU first: a niced thread gets
 * about a tenth of a core it shares with one at nice 0. Alone on the machine it runs at full speed.
 */
export const BACKGROUND_NICE = 10;

/**
 * Lowers the calling thread's own scheduling priority to `nice` (Linux: setpriority on the thread's
 * id, which /proc/thread-self names). Raising a nice value needs no privilege; a thread can never
 * lower it again, so a background thread stays one. False where the OS does not allow it.
 */
export function lowerOwnThreadPriority(nice: number): boolean {
  if (process.platform !== "linux") return false;
  try {
    const threadId = Number(readlinkSync("/proc/thread-self").split("/").at(-1));
    setPriority(threadId, nice);
    return true;
  } catch {
    return false;
  }
}
