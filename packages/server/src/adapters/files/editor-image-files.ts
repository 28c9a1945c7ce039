import { mkdtempSync, rmSync } from "node:fs";
import { open, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";

/**
 * Where this process's editor images wait for their clients (prepare-image answers, up to 64 MB
 * each): a directory of its own under the OS's temporary directory, removed when the process stops.
 * Each file is unlinked as soon as its answer opens it, so the directory is empty between answers
 * and a file outlives its client only while that client's answer is open (at most the route's
 * stalled-download timeout). The temporary directory should be on disk (TMPDIR), not a tmpfs, which
 * would hold the answers in memory again.
 */
export function createEditorImageDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "pictor-editor-images-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Opens an editor image's file for its answer and unlinks it at once (the open file stays readable;
 * the disk space returns when the stream closes, also when the process dies). Read 64 KiB at a time
 * as the client reads: a client that stops reading holds the file and one read, never the image.
 */
export async function openEditorImageFile(file: string, expectedBytes: number): Promise<Readable> {
  const handle = await open(file, "r");
  try {
    await unlink(file);
    const { size } = await handle.stat();
    if (size !== expectedBytes)
      throw new Error(`editor image ${file}: ${size} bytes, expected ${expectedBytes}`);
    return handle.createReadStream({ highWaterMark: 64 * 1024 });
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}
