// The editor-image process's composition root: a process of its own, started at background priority
// by the API-only process (adapters/queue/editor-image-process.ts), that fits editor images with the
// renderers' pipeline one at a time and writes each to a file the API streams.
import { collectGarbage, DEFAULT_IMAGE_LIMITS, oneAtATime } from "@pictor/render-node/editor-image";
import { prepareEditorImageFile } from "../adapters/queue/editor-image-task.ts";
import type { PrepareImageResult, PrepareImageTask } from "../adapters/queue/render-messages.ts";
import { BACKGROUND_NICE, lowerOwnThreadPriority } from "../adapters/queue/thread-priority.ts";

if (!process.send) throw new Error("editor-image-process.ts must run as a child process with IPC");
// Started under `nice` where there is one (every thread of the process at background priority from
// its start); else this thread lowers itself, and the threads it starts later inherit its priority.
lowerOwnThreadPriority(BACKGROUND_NICE);
const nativeWork = oneAtATime();
// libvips' timeout is wall-clock time: at background priority on a busy machine an image gets a
// small part of a core, so it has three times as long before it is given up as undecodable.
const limits = { ...DEFAULT_IMAGE_LIMITS, timeoutSeconds: DEFAULT_IMAGE_LIMITS.timeoutSeconds * 3 };

process.on("message", async (task: PrepareImageTask) => {
  const { result, bytes } = await prepareEditorImageFile(task, nativeWork, limits);
  process.send?.(result satisfies PrepareImageResult);
  // sharp's buffer is garbage once written: a large one is collected at once rather than whenever
  // this process next allocates enough to collect.
  if (bytes >= 4 * 1024 * 1024) setImmediate(collectGarbage);
});
// The API process is gone: so is the reason to be.
process.on("disconnect", () => process.exit(0));
process.send({ ready: true });
