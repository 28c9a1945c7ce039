import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { mkdir, open, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { Readable } from "node:stream";
import type { BlobStore } from "../../ports/blob-store.ts";
import { createSpareFiles } from "./spare-files.ts";

export interface FileBlobStoreOptions {
  /**
   * For a render worker thread's outputs: blocking writes, because the thread has nothing else to do
   * meanwhile and a write of a few hundred KB to the page cache is cheaper than hops through the libuv
   * pool, which on a busy machine each wait for a free core. Each output is written over a spare file
   * filled ahead of time and renamed into place (spare-files.ts: most of the cost of a new file is
   * finding its pages), or, when no spare is ready, straight to the key's file: nothing reads an
   * output's key before its render is completed, which happens only after this write returns, and a
   * run that dies mid-write leaves the render `rendering`, so its re-run rewrites the whole file.
   */
  renderOutputs?: boolean;
}

/**
 * Blobs as files under `root`. Writes go to a temp file then rename, so a crash never leaves half a
 * file where a reader may look (render outputs excepted, see FileBlobStoreOptions).
 */
export function createFileBlobStore(root: string, options: FileBlobStoreOptions = {}): BlobStore {
  const base = resolve(root);
  const pathOf = (key: string) => {
    const path = resolve(join(base, key));
    if (!path.startsWith(base + sep)) throw new Error(`blob key escapes the store: ${key}`);
    return path;
  };
  // Directories already made by this process: one mkdir per directory, not one per write.
  const made = new Set<string>();
  const spares = options.renderOutputs ? createSpareFiles(join(base, ".spares")) : null;
  return {
    async put(key, bytes) {
      const path = pathOf(key);
      const dir = dirname(path);
      if (spares) {
        if (!made.has(dir)) mkdirSync(dir, { recursive: true });
        made.add(dir);
        if (!spares.writeOver(path, bytes)) writeFileSync(path, bytes);
        // Once the caller has answered (its result posted in the same turn): starting the fill took
        // about 0.08 ms of the render's time to answer (a file name, an open queued on the pool).
        const size = bytes.byteLength;
        setImmediate(() => void spares.refill(size));
        return;
      }
      const temp = `${path}.${randomBytes(6).toString("hex")}.tmp`;
      if (!made.has(dir)) {
        await mkdir(dir, { recursive: true });
        made.add(dir);
      }
      await writeFile(temp, bytes);
      await rename(temp, path);
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(pathOf(key)));
      } catch (e) {
        // A key that is only a prefix of other keys is a directory here; for the store it is absent.
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "EISDIR") return null;
        throw e;
      }
    },
    async open(key, range) {
      let handle: Awaited<ReturnType<typeof open>>;
      try {
        handle = await open(pathOf(key), "r");
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "EISDIR") return null;
        throw e;
      }
      try {
        const stat = await handle.stat();
        // Linux opens a directory for reading; reading it then fails (EISDIR): absent, as in get.
        if (!stat.isFile()) {
          await handle.close();
          return null;
        }
        const size = stat.size;
        if (range && range.start > Math.min(range.end, size - 1)) {
          // Nothing of the range is in the blob.
          await handle.close();
          return { stream: Readable.from([]), size };
        }
        // Read as the consumer reads (64 KiB at a time); the file closes when the stream ends or is
        // destroyed (a client gone mid-download).
        const stream = handle.createReadStream({
          highWaterMark: 64 * 1024,
          ...(range ? { start: range.start, end: Math.min(range.end, size - 1) } : {}),
        });
        return { stream, size };
      } catch (e) {
        await handle.close().catch(() => undefined);
        throw e;
      }
    },
    async delete(key) {
      try {
        await unlink(pathOf(key));
      } catch (e) {
        // Absent already, or only a prefix of other keys (a directory here): nothing to remove. Emptied
        // directories stay; they cost an inode each and a later put may reuse them.
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "ENOENT" || code === "EISDIR") return;
        throw e;
      }
    },
  };
}
