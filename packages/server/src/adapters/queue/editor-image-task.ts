import { randomUUID } from "node:crypto";
import { unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  DEFAULT_IMAGE_LIMITS,
  ImageInvalidError,
  type ImageLimits,
  ImageTooLargeError,
  type NativeWork,
  prepareImage,
} from "@pictor/render-node/editor-image";
import type { PrepareImageResult, PrepareImageTask } from "./render-messages.ts";

/**
 * An editor image, through the same pipeline and native work as a render's images, written to a file
 * of its own in `task.dir`: the answer (up to 64 MB) is then streamed from disk as its client reads,
 * so a client that never reads holds a file, not the image in memory. Run by a render thread and by
 * the API-only process's editor-image process (editor-image-process.ts).
 */
export async function prepareEditorImageFile(
  task: PrepareImageTask,
  nativeWork: NativeWork,
  limits: ImageLimits = DEFAULT_IMAGE_LIMITS,
): Promise<{ result: PrepareImageResult; bytes: number }> {
  let image: Awaited<ReturnType<typeof prepareImage>>;
  try {
    image = await nativeWork.run(() =>
      prepareImage(task.bytes, task.target, { slot: null, src: task.src }, limits),
    );
  } catch (error) {
    const failed = (code: "image_invalid" | "internal_error", message: string) => ({
      result: { taskId: task.taskId, ok: false as const, code, message },
      bytes: 0,
    });
    if (error instanceof ImageInvalidError || error instanceof ImageTooLargeError)
      return failed("image_invalid", error.message);
    return failed("internal_error", String(error));
  }
  const file = join(task.dir, `${randomUUID()}.rgba`);
  try {
    await writeFile(file, image.rgba);
  } catch (error) {
    await unlink(file).catch(() => undefined);
    return {
      result: { taskId: task.taskId, ok: false, code: "internal_error", message: String(error) },
      bytes: 0,
    };
  }
  return {
    result: {
      taskId: task.taskId,
      ok: true,
      width: image.width,
      height: image.height,
      file,
      upscaled: image.upscaled,
    },
    bytes: image.rgba.byteLength,
  };
}
