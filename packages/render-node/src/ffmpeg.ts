import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { RenderError } from "./errors.ts";

/**
 * The ffmpeg executable MP4 output needs: `PICTOR_FFMPEG` when set (a path; one that is not an
 * executable file means no encoder), else `ffmpeg` on PATH. Null when there is none.
 */
export function findFfmpeg(env: NodeJS.ProcessEnv = process.env): string | null {
  const named = env.PICTOR_FFMPEG;
  if (named !== undefined && named !== "") return executable(named) ? named : null;
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, "ffmpeg");
    if (executable(candidate)) return candidate;
  }
  return null;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface Mp4Stream {
  /** Output width and height: the frame's, each rounded up to even (H.264 4:2:0 needs even sides). */
  width: number;
  height: number;
  /**
   * Writes one frame of straight, opaque RGBA; resolves when it has been handed to ffmpeg's pipe
   * (back-pressure: one frame in flight, and the caller may reuse the buffer after).
   */
  write(rgba: Uint8Array): Promise<void>;
  /** Ends the input and returns the finished MP4's bytes. */
  finish(): Promise<Buffer>;
  /** Stops the encoder and removes its files (after a failed render). */
  abort(): Promise<void>;
}

/**
 * An ffmpeg child encoding raw RGBA frames from its stdin into H.264 (yuv420p, web-safe: moov atom
 * first with +faststart, even sides by padding the right and bottom edge with one repeated pixel row
 * or column). The file goes to a private temporary directory, since faststart rewrites it.
 */
export async function startMp4(
  ffmpeg: string,
  frame: { width: number; height: number; fps: number },
): Promise<Mp4Stream> {
  const dir = await mkdtemp(join(tmpdir(), "pictor-mp4-"));
  const out = join(dir, "out.mp4");
  const width = frame.width + (frame.width % 2);
  const height = frame.height + (frame.height % 2);
  const args = [
    "-hide_banner",
    "-loglevel",
    "error",
    "-f",
    "rawvideo",
    "-pix_fmt",
    "rgba",
    "-s",
    `${frame.width}x${frame.height}`,
    "-r",
    String(frame.fps),
    "-i",
    "pipe:0",
    ...(width === frame.width && height === frame.height
      ? []
      : [
          "-vf",
          `pad=${width}:${height}:0:0,fillborders=right=${width - frame.width}:bottom=${height - frame.height}:mode=smear`,
        ]),
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-crf",
    "18",
    "-pix_fmt",
    "yuv420p",
    "-threads",
    "1",
    "-movflags",
    "+faststart",
    "-y",
    out,
  ];
  const child = spawn(ffmpeg, args, { stdio: ["pipe", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    if (stderr.length < 4000) stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve(code));
  });
  // A write after ffmpeg died raises EPIPE on stdin; the exit code tells the story instead.
  child.stdin.on("error", () => undefined);
  const failed = (code: number | null) =>
    new Error(`ffmpeg exited with ${code}: ${stderr.trim().slice(0, 1000)}`);
  return {
    width,
    height,
    write(rgba) {
      return new Promise<void>((resolve, reject) => {
        if (child.exitCode !== null) {
          reject(failed(child.exitCode));
          return;
        }
        // Resolved once the frame has left for the pipe: the caller may then reuse its buffer.
        child.stdin.write(rgba, (error) => (error ? reject(failed(child.exitCode)) : resolve()));
        exited.then((code) => reject(failed(code)), reject);
      });
    },
    async finish() {
      child.stdin.end();
      try {
        const code = await exited;
        if (code !== 0) throw failed(code);
        return await readFile(out);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    async abort() {
      child.kill("SIGKILL");
      await exited.catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The refusal when MP4 is asked for and no ffmpeg is found. */
export function formatUnavailable(): RenderError {
  return new RenderError(
    "format_unavailable",
    "mp4 output needs ffmpeg, and none was found (install it, or point PICTOR_FFMPEG at it)",
  );
}
