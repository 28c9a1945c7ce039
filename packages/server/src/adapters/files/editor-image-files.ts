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
 * Reads of an editor image's file. Large: an answer is read whole by an editor at once, and each read
 * is a turn of the API's event loop (64 KiB reads made a 64 MB answer 1,000 turns: 170 ms of the API
 * thread's CPU against 75 ms for the whole buffer handed over); small against an answer, so a client
 * that stops reading holds about one read (and the socket's buffers), not the image.
 */
const READ_BYTES = 1024 * 1024;

/**
 * Opens an editor image's file for its answer and unlinks it at once (the open file stays readable;
 * the disk space returns when the stream closes, also when the process dies). Read READ_BYTES at a
 * time as the client reads.
 */
export async function openEditorImageFile(file: string, expectedBytes: number): Promise<Readable> {
  const handle = await open(file, "r");
  try {
    await unlink(file);
    const { size } = await handle.stat();
    if (size !== expectedBytes)
      throw new Error(`editor image ${file}: ${size} bytes, expected ${expectedBytes}`);
    return handle.createReadStream({ highWaterMark: READ_BYTES });
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}
