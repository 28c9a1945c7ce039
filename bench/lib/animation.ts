import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Engine, TemplateDocumentT } from "@pictor/engine";
import { documentAt, frameTimes, validateDocument } from "@pictor/engine";
import type { NodeRenderer } from "@pictor/render-node";
import { findFfmpeg } from "@pictor/render-node";

/**
 * The animated line of the benchmarks: the example animated banner (examples/animated) enlarged to a
 * 360x360 frame of 6 s at 30 fps, drawn at scale 3 (1080x1080, 180 frames).
 *
 * - per frame: the animation's draw at each moment (the engine evaluating the motion, then drawing)
 *   against a still of the same moment (the document already evaluated, motion removed), median of
 *   the frames; then the whole MP4 render per frame against the still's draw plus ffmpeg's own time
 *   per frame (ffmpeg fed the same raw frames from memory, nothing else running);
 * - memory: the MP4 render in a fresh process, its peak resident set (VmHWM) and its ffmpeg child's.
 */

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

export async function animatedBenchDocument(): Promise<TemplateDocumentT> {
  const example = JSON.parse(
    await readFile(join(root, "examples/animated/launch-countdown.json"), "utf8"),
  ) as { frames: Record<string, unknown>[] };
  const frame = { ...example.frames[0], width: 360, height: 360, duration: 6, fps: 30 };
  const checked = validateDocument({ ...example, frames: [frame] });
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  return checked.document;
}

/** The document of one moment with its motion removed: what a still of that frame draws. */
function stillOf(document: TemplateDocumentT, time: number): { document: TemplateDocumentT; values: never } {
  const moment = documentAt(document, undefined, time, document.sample ?? {});
  const still = structuredClone(moment.document);
  for (const frame of still.frames) {
    delete frame.duration;
    delete frame.fps;
    delete frame.poster;
    const strip = (layers: unknown[]) => {
      for (const layer of layers as Record<string, unknown>[]) {
        delete layer.animations;
        delete layer.keyframes;
        if (Array.isArray(layer.layers)) strip(layer.layers);
      }
    };
    strip(frame.layers);
  }
  return { document: still, values: moment.values as never };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export interface AnimatedLine {
  frames: number;
  width: number;
  height: number;
  /** Median ms to draw one moment of the animation (evaluation + draw). */
  animatedDrawMs: number;
  /** Median ms to draw the same moment as a still document. */
  stillDrawMs: number;
  animatedOverStill: number;
  /** The whole MP4 render (draw, copy, ffmpeg) per frame, wall ms. */
  mp4PerFrameMs: number;
  /** ffmpeg alone encoding the same frames, per frame, wall ms. */
  encoderPerFrameMs: number;
  /** mp4PerFrameMs / (stillDrawMs + encoderPerFrameMs): target <= 1.5. */
  mp4OverStillPlusEncoder: number;
}

export async function measureAnimatedLine(engine: Engine, renderer: NodeRenderer): Promise<AnimatedLine> {
  const document = await animatedBenchDocument();
  const frame = document.frames[0];
  if (frame === undefined) throw new Error("no frame");
  const times = frameTimes(frame);
  const values = document.sample ?? {};
  const scale = 3;
  const animated: number[] = [];
  const still: number[] = [];
  const raw: Uint8Array[] = [];
  let width = 0;
  let height = 0;
  const moments = times.map((time) => stillOf(document, time));
  const drawAnimated = (i: number, time: number, into: number[] | null) => {
    const started = performance.now();
    const drawn = engine.render(document, { time, values, scale });
    into?.push(performance.now() - started);
    width = drawn.width;
    height = drawn.height;
    // ffmpeg's input: every sixth frame kept (30 distinct frames, cycled), so the benchmark does
    // not hold 180 frames (830 MB) itself.
    if (into !== null && i % 6 === 0) raw.push(drawn.pixels.slice());
  };
  const drawStill = (i: number, into: number[] | null) => {
    const moment = moments[i] as { document: TemplateDocumentT; values: never };
    const started = performance.now();
    engine.render(moment.document, { values: moment.values, scale });
    into?.push(performance.now() - started);
  };
  // Whole passes, as a video is drawn (each frame after the one before), each once to warm up and
  // once timed, the two kinds in turn.
  for (const into of [null, animated] as const) {
    for (const [i, time] of times.entries()) drawAnimated(i, time, into);
  }
  for (const into of [null, still] as const) {
    for (const i of times.keys()) drawStill(i, into);
  }
  const startedMp4 = performance.now();
  await renderer.renderAnimation(document, {
    format: "mp4",
    scale,
    values,
    loadImage: async () => {
      throw new Error("no images");
    },
  });
  const mp4PerFrameMs = (performance.now() - startedMp4) / times.length;
  const encoderMs = await ffmpegAlone(raw, times.length, width, height, frame.fps ?? 30);
  const animatedDrawMs = median(animated);
  const stillDrawMs = median(still);
  const encoderPerFrameMs = encoderMs / times.length;
  return {
    frames: times.length,
    width,
    height,
    animatedDrawMs,
    stillDrawMs,
    animatedOverStill: animatedDrawMs / stillDrawMs,
    mp4PerFrameMs,
    encoderPerFrameMs,
    mp4OverStillPlusEncoder: mp4PerFrameMs / (stillDrawMs + encoderPerFrameMs),
  };
}

/** Wall ms for ffmpeg (the settings MP4 output uses) to encode `count` frames cycled from `frames`. */
function ffmpegAlone(frames: Uint8Array[], count: number, width: number, height: number, fps: number) {
  const ffmpeg = findFfmpeg();
  if (ffmpeg === null) throw new Error("ffmpeg not found");
  const args = [
    ...["-hide_banner", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgba"],
    ...["-s", `${width}x${height}`, "-r", String(fps), "-i", "pipe:0"],
    ...["-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p", "-threads", "1"],
    ...["-f", "mp4", "-movflags", "frag_keyframe+empty_moov", "pipe:1"],
  ];
  return new Promise<number>((resolve, reject) => {
    const started = performance.now();
    const child = spawn(ffmpeg, args, { stdio: ["pipe", "pipe", "inherit"] });
    child.stdout.resume();
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`ffmpeg ${code}`)),
    );
    void (async () => {
      for (let i = 0; i < count; i++) {
        const bytes = frames[i % frames.length] as Uint8Array;
        if (!child.stdin.write(bytes)) await new Promise((r) => child.stdin.once("drain", r));
      }
      child.stdin.end();
    })();
  });
}

/** Peak resident kB of a process (VmHWM), or 0 once it has gone. */
export async function peakResidentKb(pid: number | "self"): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** Children of this process (every thread's), from /proc. */
export async function childPids(): Promise<number[]> {
  const pids: number[] = [];
  for (const task of await readdir("/proc/self/task")) {
    const text = await readFile(`/proc/self/task/${task}/children`, "utf8").catch(() => "");
    pids.push(...text.split(/\s+/).filter(Boolean).map(Number));
  }
  return pids;
}
