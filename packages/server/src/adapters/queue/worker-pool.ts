import { Worker } from "node:worker_threads";
import type { RenderTask, RenderTaskResult, RenderWorkerData, WorkerMessage } from "./render-messages.ts";

const WORKER_FILE = new URL("./render-worker.ts", import.meta.url);

interface Slot {
  worker: Worker;
  ready: boolean;
  current: { task: RenderTask; resolve: (r: RenderTaskResult) => void } | null;
}

export interface WorkerPool {
  run(task: Omit<RenderTask, "taskId">): Promise<RenderTaskResult>;
  readonly size: number;
  /** Resolves when every worker has created its renderer (for benchmarks and tests). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Render worker threads, one task per worker at a time. Rendering (layout, raster, encode) is CPU
 * bound, so it never runs on the HTTP event loop. A worker that dies fails only its current task and
 * is replaced.
 */
export function createWorkerPool(size: number, data: RenderWorkerData): WorkerPool {
  const slots: Slot[] = [];
  const waiting: { task: RenderTask; resolve: (r: RenderTaskResult) => void }[] = [];
  const readyWaiters: (() => void)[] = [];
  let nextTaskId = 1;
  let closing = false;

  const spawn = (index: number) => {
    const worker = new Worker(WORKER_FILE, { workerData: data });
    const slot: Slot = { worker, ready: false, current: null };
    slots[index] = slot;
    worker.on("message", (message: WorkerMessage) => {
      if (message.type === "ready") {
        slot.ready = true;
        if (slots.every((s) => s.ready)) for (const w of readyWaiters.splice(0)) w();
      } else if (slot.current && message.result.taskId === slot.current.task.taskId) {
        const { resolve } = slot.current;
        slot.current = null;
        resolve(message.result);
      }
      pump();
    });
    const onDeath = (reason: string) => {
      if (slots[index] !== slot) return;
      const current = slot.current;
      slot.current = null;
      current?.resolve({
        taskId: current.task.taskId,
        ok: false,
        code: "internal_error",
        message: "The render failed on our side.",
      });
      if (!closing) {
        console.error(JSON.stringify({ level: "error", msg: "render worker died; replacing it", reason }));
        // A worker that cannot even start (broken install) must not spin the CPU respawning.
        setTimeout(() => !closing && spawn(index), slot.ready ? 0 : 1000).unref();
      }
    };
    worker.on("error", (err) => onDeath(String(err?.stack ?? err)));
    worker.on("exit", (code) => onDeath(`exit ${code}`));
  };

  const pump = () => {
    for (const slot of slots) {
      if (!slot.ready || slot.current || waiting.length === 0) continue;
      const next = waiting.shift() as (typeof waiting)[number];
      slot.current = next;
      slot.worker.postMessage(next.task);
    }
  };

  for (let i = 0; i < size; i++) spawn(i);

  return {
    size,
    run(task) {
      return new Promise((resolve) => {
        waiting.push({ task: { ...task, taskId: nextTaskId++ }, resolve });
        pump();
      });
    },
    ready() {
      return slots.every((s) => s.ready) ? Promise.resolve() : new Promise((r) => readyWaiters.push(r));
    },
    async close() {
      closing = true;
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}
