import { randomBytes } from "node:crypto";
import {
  close,
  closeSync,
  ftruncateSync,
  mkdirSync,
  open,
  readdirSync,
  renameSync,
  unlink,
  unlinkSync,
  write,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { threadId } from "node:worker_threads";

/**
 * Files filled ahead of need, off the request path, for render outputs to be written over.
 *
 * Writing a new 350 KB file is mostly the kernel finding fresh page-cache pages for it, and on a
 * virtual machine whose host hands memory to the guest lazily that is slow and erratic: measured on
 * the 2-core VM, `writeFileSync` of a render's PNG to a new file took 0.90 ms median (0.24 to 1.06 ms),
 * against 0.23 ms (0.19 to 0.27) for the same bytes written over a file already filled. So the worker
 * writes each output over a spare and renames it into place, then fills the next spare on the libuv
 * pool while it waits for its next task. (PostgreSQL recycles WAL segments for the same reason.)
 *
 * Spares live in their own directory under the store's root (the same filesystem, so a rename moves
 * them), named with the process id: a spare left by a process that is gone is removed on first use.
 */
export interface SpareFiles {
  /** Writes `bytes` to `path` over a ready spare; false when none is ready (the caller writes as usual). */
  writeOver(path: string, bytes: Uint8Array): boolean;
  /**
   * Starts filling the next spare on the libuv pool, sized for outputs like `size` bytes, unless one
   * is ready or on its way. Callers need not wait: the promise (which never rejects; a spare that
   * cannot be made is simply not there) is for tests.
   */
  refill(size: number): Promise<void>;
}

/**
 * Spares are sized a sixteenth over the last output, in 16 KiB steps, and never over 16 MiB: what the
 * truncate cuts off was filled for nothing, and an output larger than its spare just extends it.
 */
const STEP = 16 * 1024;
const MAX_SPARE = 16 * 1024 * 1024;

interface Spare {
  fd: number;
  path: string;
}

/** Zeros to fill spares with: one buffer, grown when a larger spare is wanted, never written to. */
let zeros = Buffer.alloc(0);

export function createSpareFiles(dir: string): SpareFiles {
  let ready: Spare | null = null;
  let filling: Promise<void> | null = null;
  let cleaned = false;
  /** Set when a spare could not be used (say the output's directory is another filesystem): stop. */
  let disabled = false;

  /**
   * Removes a spare that could not be used, closing its file unless that was done already: a second
   * close would close whatever file another thread (a render thread, libuv's pool, the API) opened
   * under the same number meanwhile.
   */
  const discard = (spare: Spare, open: boolean) => {
    if (open) {
      try {
        closeSync(spare.fd);
      } catch {}
    }
    try {
      unlinkSync(spare.path);
    } catch {}
  };

  return {
    writeOver(path, bytes) {
      const spare = ready;
      if (!spare) return false;
      ready = null;
      let open = true;
      try {
        writeSync(spare.fd, bytes, 0, bytes.byteLength, 0);
        ftruncateSync(spare.fd, bytes.byteLength);
        open = false;
        closeSync(spare.fd);
        renameSync(spare.path, path);
        return true;
      } catch {
        // Whatever went wrong with the spare (a rename across filesystems, the disk full), the
        // caller's plain write says what is wrong with the output itself, and no more spares are made.
        discard(spare, open);
        disabled = true;
        return false;
      }
    },
    refill(size) {
      if (disabled || ready) return Promise.resolve();
      if (filling) return filling;
      if (!cleaned) {
        cleaned = true;
        removeSparesOfDeadProcesses(dir);
      }
      const capacity = Math.min(MAX_SPARE, Math.max(STEP, Math.ceil((size * 1.0625) / STEP) * STEP));
      if (zeros.byteLength < capacity) zeros = Buffer.alloc(capacity);
      const filler = zeros;
      const name = `${process.pid}-${threadId}-${randomBytes(4).toString("hex")}`;
      // Filled under another name, so a `spare-` file in the directory is always a whole one.
      const fillingPath = join(dir, `filling-${name}`);
      const path = join(dir, `spare-${name}`);
      filling = new Promise<void>((resolve) => {
        const done = (spare: Spare | null) => {
          filling = null;
          ready = spare;
          resolve();
        };
        open(fillingPath, "w", (openError, fd) => {
          if (openError) return done(null);
          write(fd, filler, 0, capacity, 0, (writeError) => {
            try {
              if (writeError) throw writeError;
              renameSync(fillingPath, path);
              done({ fd, path });
            } catch {
              close(fd, () => unlink(fillingPath, () => done(null)));
            }
          });
        });
      });
      return filling;
    },
  };
}

/** Creates the spares' directory, and removes spares whose process is gone (a crash, a SIGKILL). */
function removeSparesOfDeadProcesses(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir)) {
      const pid = Number(/^(?:spare|filling)-(\d+)-/.exec(name)?.[1]);
      if (pid && !isAlive(pid)) unlinkSync(join(dir, name));
    }
  } catch {
    // Best effort: a leftover spare costs disk space, not correctness.
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
