import { Worker } from "node:worker_threads";
import { processLog } from "../process-log.ts";
import {
  type PrepareImageResult,
  type PrepareImageTask,
  RENDER_FAULT_MESSAGE,
  type RenderTask,
  type RenderTaskOutcome,
  type RenderWorkerData,
  type WorkerMessage,
} from "./render-messages.ts";
import { RenderShares } from "./render-shares.ts";
import { sizeRenderThreadHeaps } from "./render-thread-heap.ts";
import { BACKGROUND_NICE } from "./thread-priority.ts";

const WORKER_FILE = new URL("../../main/render-thread.ts", import.meta.url);

/** Render threads' name, as the OS shows it (at most 15 characters on Linux). */
export const RENDER_THREAD_NAME = "pictor-render";

/** What the pool runs: renders (and preflights), and editor images. */
type PoolTask = RenderTask | PrepareImageTask;

interface Pending {
  task: PoolTask;
  resolve: (r: RenderTaskOutcome | PrepareImageResult) => void;
  /** Workers that died while running this task. */
  deaths: number;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** A background thread (thread-priority.ts): the one renders nobody waits for go to first. */
  background: boolean;
  /** Tasks sent to this worker and not answered yet, oldest first (at most TASKS_PER_WORKER). */
  running: Pending[];
  /** Document keys this worker holds: their tasks go without the document. */
  documents: Set<string>;
}

/**
 * Documents a worker holds at most. Cloning a document into the worker and validating it again
 * costs about 0.2 ms (measured), a noticeable part of a 7 ms render; a busy server renders a
 * handful of templates over and over. Past the bound the worker starts afresh (a simple, exact
 * protocol: the pool never has to guess what the worker evicted).
 */
const MAX_DOCUMENTS_PER_WORKER = 64;

/**
 * A task whose worker died is run again on the replacement, once: a crash of the thread (out of
 * memory, an abort in native code) should not fail a render, but a render that kills every worker it
 * touches must not take the pool down forever either.
 */
const MAX_DEATHS_PER_TASK = 1;

/**
 * Tasks a worker holds at once: the one it renders and the next. The next is sent flagged
 * `queuedBehind`, and the worker then frees its engine as soon as each frame is drawn, so the next
 * draw overlaps this encode (otherwise a worker's thread idles while sharp encodes, and its encoder
 * idles while it draws). The cost: a task queued behind a long render in one worker is not taken
 * over by another that frees up first.
 */
const TASKS_PER_WORKER = 2;

export interface WorkerPool {
  run(task: Omit<RenderTask, "taskId">): Promise<RenderTaskOutcome>;
  /**
   * An editor image fitted on a render thread, placed like a render by the account's share of
   * render time (render-shares.ts), someone waiting for it.
   */
  prepareImage(task: Omit<PrepareImageTask, "taskId" | "kind">): Promise<PrepareImageResult>;
  readonly size: number;
  /** Tasks the pool runs at once (size x tasks per worker): the in-flight limit for its queue. */
  readonly capacity: number;
  /** Resolves when every worker has created its renderer (for benchmarks and tests). */
  ready(): Promise<void>;
  /** Threads that have loaded their renderer (a replaced one has not yet), and those drawing now. */
  threads(): { size: number; ready: number; busy: number };
  /** Kills one worker thread as a crash would (its task is retried on the replacement). For tests. */
  crashWorker(index: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Render worker threads, each holding up to TASKS_PER_WORKER tasks and drawing one at a time.
 * Rendering (layout, raster, encode) is CPU bound, so it never runs on the HTTP event loop. A worker
 * that dies is replaced; its tasks are retried on the replacement (see MAX_DEATHS_PER_TASK) and no
 * other task is affected.
 */
export function createWorkerPool(
  size: number,
  data: RenderWorkerData,
  /**
   * Every thread but the last runs at background priority (thread-priority.ts), and the pool places
   * interactive tasks on the last first and the others on the rest first: with the spare thread, a
   * waiting caller's render then gets the CPU before a flood's. Needs two threads or more.
   */
  options: { backgroundThreads?: boolean } = {},
): WorkerPool {
  const backgroundThreads = options.backgroundThreads === true && size >= 2;
  const slots: Slot[] = [];
  const waiting: Pending[] = [];
  const readyWaiters: (() => void)[] = [];
  let nextTaskId = 1;
  let closing = false;
  const shares = new RenderShares();

  sizeRenderThreadHeaps();
  const spawn = (index: number) => {
    // The name is the thread's name in /proc (bench:scale charges render threads their CPU by it).
    const background = backgroundThreads && index < size - 1;
    const workerData: RenderWorkerData = background ? { ...data, nice: BACKGROUND_NICE } : data;
    const worker = new Worker(WORKER_FILE, { workerData, name: RENDER_THREAD_NAME });
    const slot: Slot = {
      worker,
      ready: false,
      background,
      running: [],
      documents: new Set(),
    };
    slots[index] = slot;
    worker.on("message", (message: WorkerMessage) => {
      if (message.type === "ready") {
        slot.ready = true;
        if (slots.every((s) => s.ready)) for (const w of readyWaiters.splice(0)) w();
      } else if (message.type === "prepared") {
        const at = slot.running.findIndex((p) => p.task.taskId === message.result.taskId);
        if (at < 0) return;
        const [{ resolve }] = slot.running.splice(at, 1) as [Pending];
        resolve(message.result);
      } else {
        const { result } = message;
        const at = slot.running.findIndex((p) => p.task.taskId === result.taskId);
        if (at < 0) return;
        const [{ resolve }] = slot.running.splice(at, 1) as [Pending];
        if (!result.ok) resolve(result);
        else resolve({ ...result, sha256: message.sha256 ?? null });
      }
      pump();
    });
    const onDeath = (reason: string) => {
      if (slots[index] !== slot) return;
      // Nothing may be dispatched to the dead thread while its replacement starts.
      const wasReady = slot.ready;
      slot.ready = false;
      const lost = slot.running.splice(0);
      // Run again first, in their order; each counts the death (it may be the one that caused it).
      const retried: Pending[] = [];
      for (const p of lost) {
        if (!closing && p.deaths < MAX_DEATHS_PER_TASK) {
          retried.push({ ...p, deaths: p.deaths + 1 });
          continue;
        }
        p.resolve({
          taskId: p.task.taskId,
          ok: false,
          code: "internal_error",
          message: RENDER_FAULT_MESSAGE,
        });
      }
      waiting.unshift(...retried);
      pump();
      if (!closing) {
        processLog().error({ reason }, "render worker died; replacing it");
        // A worker that cannot even start (broken install) must not spin the CPU respawning.
        setTimeout(() => !closing && spawn(index), wasReady ? 0 : 1000).unref();
      }
    };
    worker.on("error", (err) => onDeath(String(err?.stack ?? err)));
    worker.on("exit", (code) => onDeath(`exit ${code}`));
  };

  /**
   * Sends waiting tasks, in order, to the least busy ready workers, up to TASKS_PER_WORKER each;
   * between equally busy ones, to a background thread when other accounts render and the task's
   * account used more render time lately than each (render-shares.ts), else by whether someone waits
   * for it: an interactive task to a normal-priority thread and any other to a background one. With
   * background threads, while other accounts render, an account's tasks run on at most all threads
   * but one (the spare thread, kept by thread here): an account that holds that many goes to the
   * ones it holds or waits. Least busy first, a heavy account's editor image or preflight took the
   * normal thread whenever its render held the background one, and the next render of another
   * account queued behind it. A task that has to wait does not hold up the ones behind it that
   * another thread can take.
   */
  const pump = () => {
    for (let i = 0; i < waiting.length; ) {
      const next = waiting[i] as Pending;
      const standing = shares.standing(next.task.accountId);
      const interactive = "kind" in next.task || next.task.interactive === true;
      const wantsBackground = standing === "alone" ? !interactive : standing === "heaviest";
      const account = next.task.accountId;
      const held =
        backgroundThreads && standing !== "alone"
          ? slots.filter((s) => s?.running.some((p) => p.task.accountId === account))
          : [];
      const keepsToHeld = held.length > 0 && held.length >= size - 1;
      let slot: Slot | null = null;
      for (const s of slots) {
        if (!s?.ready || s.running.length >= TASKS_PER_WORKER || (keepsToHeld && !held.includes(s))) continue;
        const better =
          !slot ||
          s.running.length < slot.running.length ||
          (s.running.length === slot.running.length &&
            s.background === wantsBackground &&
            slot.background !== wantsBackground);
        if (better) slot = s;
      }
      if (!slot) {
        i++;
        continue;
      }
      waiting.splice(i, 1);
      const task = "kind" in next.task ? next.task : withoutKnownDocument(slot, next.task);
      const finished = shares.started(next.task.accountId);
      slot.running.push({
        ...next,
        resolve: (outcome) => {
          finished();
          next.resolve(outcome);
        },
      });
      slot.worker.postMessage(
        slot.running.length > 1 && !("kind" in task) ? { ...task, queuedBehind: true } : task,
      );
    }
  };

  for (let i = 0; i < size; i++) spawn(i);

  return {
    size,
    capacity: size * TASKS_PER_WORKER,
    run(task) {
      return new Promise((resolve) => {
        const settle = resolve as Pending["resolve"];
        waiting.push({ task: { ...task, taskId: nextTaskId++ }, resolve: settle, deaths: 0 });
        pump();
      });
    },
    prepareImage(task) {
      return new Promise((resolve) => {
        const settle = resolve as Pending["resolve"];
        waiting.push({
          task: { ...task, kind: "prepare-image", taskId: nextTaskId++ },
          resolve: settle,
          deaths: 0,
        });
        pump();
      });
    },
    ready() {
      return slots.every((s) => s.ready) ? Promise.resolve() : new Promise((r) => readyWaiters.push(r));
    },
    threads() {
      let ready = 0;
      let busy = 0;
      for (const slot of slots) {
        if (slot?.ready) ready += 1;
        if (slot && slot.running.length > 0) busy += 1;
      }
      return { size, ready, busy };
    },
    async crashWorker(index) {
      await slots[index]?.worker.terminate();
    },
    async close() {
      closing = true;
      await Promise.all(slots.map((s) => s.worker.terminate()));
    },
  };
}

/** The task as sent to this slot's worker: without its document when the worker already holds it. */
function withoutKnownDocument(slot: Slot, task: RenderTask): RenderTask {
  if (slot.documents.has(task.documentKey)) {
    const { document: _held, ...rest } = task;
    return rest;
  }
  if (slot.documents.size < MAX_DOCUMENTS_PER_WORKER) {
    slot.documents.add(task.documentKey);
    return task;
  }
  slot.documents.clear();
  slot.documents.add(task.documentKey);
  return { ...task, forgetDocuments: true };
}
