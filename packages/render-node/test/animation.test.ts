import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { frameDelays } from "../src/animated-image.ts";
import { RenderError } from "../src/errors.ts";
import { findFfmpeg } from "../src/ffmpeg.ts";
import { createNodeRenderer, type NodeRenderer } from "../src/renderer.ts";

const run = promisify(execFile);
const example = JSON.parse(
  await readFile(new URL("../../../examples/animated/launch-countdown.json", import.meta.url), "utf8"),
) as Record<string, unknown>;
const noImages = async (): Promise<Uint8Array> => {
  throw new Error("no images in this document");
};

/** 2 s at 12 fps: 24 frames, 320x180. */
const FRAMES = 24;
const FPS = 12;

describe("animated output", () => {
  let renderer: NodeRenderer;
  beforeAll(async () => {
    renderer = await createNodeRenderer();
  });
  afterAll(() => renderer.dispose());

  it("MP4: H.264, yuv420p, faststart, duration x fps frames (ffprobe)", async () => {
    const out = await renderer.renderAnimation(example, { format: "mp4", loadImage: noImages });
    expect(out).toMatchObject({ contentType: "video/mp4", frames: FRAMES, fps: FPS, duration: 2 });
    const file = join(tmpdir(), `pictor-anim-${process.pid}.mp4`);
    await writeFile(file, out.bytes);
    const { stdout } = await run("ffprobe", [
      ...["-v", "error", "-select_streams", "v:0", "-count_frames"],
      ...["-show_entries", "stream=codec_name,pix_fmt,width,height,nb_read_frames,duration", "-of", "json"],
      file,
    ]);
    const [stream] = (JSON.parse(stdout) as { streams: Record<string, string | number>[] }).streams;
    expect(stream).toMatchObject({ codec_name: "h264", pix_fmt: "yuv420p", width: 320, height: 180 });
    expect(Number(stream?.nb_read_frames)).toBe(FRAMES);
    expect(Math.abs(Number(stream?.duration) - 2)).toBeLessThanOrEqual(1 / FPS);
    // faststart: the index (moov) comes before the media data (mdat).
    expect(out.bytes.indexOf("moov")).toBeLessThan(out.bytes.indexOf("mdat"));
  });

  it("GIF: one page per frame, delays adding up to the duration, looping", async () => {
    const out = await renderer.renderAnimation(example, { format: "gif", loadImage: noImages });
    const meta = await sharp(out.bytes).metadata();
    expect(meta.format).toBe("gif");
    expect(meta.pages).toBe(FRAMES);
    expect(meta.loop).toBe(0);
    expect(meta.delay?.reduce((a, b) => a + b, 0)).toBe(2000);
    // Hundredths of a second, rounded so they add up: 80, 80, 90, 80, ... (each 1/12 s within 10 ms).
    expect(meta.delay).toEqual(frameDelays(FRAMES, FPS, 10));
    expect(new Set(meta.delay)).toEqual(new Set([80, 90]));
  });

  it("animated WebP (lossless): a page per run of identical frames, timed by those frames, each page exactly their still", async () => {
    const out = await renderer.renderAnimation(example, { format: "webp", loadImage: noImages });
    const meta = await sharp(out.bytes).metadata();
    // Every moment as a still: the frames the WebP was assembled from, in order.
    const stills: Buffer[] = [];
    for (let index = 0; index < FRAMES; index++) {
      const still = await renderer.render(example, { format: "png", time: index / FPS, loadImage: noImages });
      stills.push(await sharp(still.bytes).removeAlpha().raw().toBuffer());
    }
    // libwebp's animation encoder (under libvips and sharp, which offer no setting to keep them)
    // merges a frame identical to the one before into that page: one page per run of identical
    // frames, shown for the run's frames' delays added up.
    const frameDelay = frameDelays(FRAMES, FPS, 1);
    const runs: { first: number; delay: number }[] = [];
    stills.forEach((pixels, index) => {
      const last = runs.at(-1);
      if (last !== undefined && stills[index - 1]?.equals(pixels)) last.delay += frameDelay[index] as number;
      else runs.push({ first: index, delay: frameDelay[index] as number });
    });
    expect(runs.length).toBeLessThan(FRAMES); // the example holds still at its end: some frames merge
    expect(meta.pages).toBe(runs.length);
    expect(meta.delay).toEqual(runs.map((run) => run.delay));
    expect(meta.delay?.reduce((a, b) => a + b, 0)).toBe(2000);
    const { data: pages, info } = await sharp(out.bytes, { pages: -1 })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pageBytes = info.width * (info.pageHeight ?? info.height) * 3;
    runs.forEach((run, page) => {
      const decoded = pages.subarray(page * pageBytes, (page + 1) * pageBytes);
      expect(decoded.equals(stills[run.first] as Buffer), `page ${page} (frame ${run.first})`).toBe(true);
    });
  });

  it("MP4 of odd sides is padded to even ones", async () => {
    const odd = structuredClone(example) as { frames: { width: number; height: number; duration: number }[] };
    const [frame] = odd.frames;
    if (frame === undefined) throw new Error("no frame");
    Object.assign(frame, { width: 161, height: 91, duration: 0.25 });
    const out = await renderer.renderAnimation(odd, { format: "mp4", loadImage: noImages });
    expect([out.width, out.height, out.frames]).toEqual([162, 92, 3]);
  });

  it("without ffmpeg, MP4 is refused with format_unavailable", async () => {
    expect(findFfmpeg({ PICTOR_FFMPEG: "/nonexistent/ffmpeg", PATH: "/usr/bin" })).toBeNull();
    expect(findFfmpeg({ PATH: "/usr/bin" })).toBe("/usr/bin/ffmpeg");
    const saved = process.env.PICTOR_FFMPEG;
    process.env.PICTOR_FFMPEG = "/nonexistent/ffmpeg";
    try {
      const error = await renderer
        .renderAnimation(example, { format: "mp4", loadImage: noImages })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RenderError);
      expect((error as RenderError).code).toBe("format_unavailable");
    } finally {
      if (saved === undefined) delete process.env.PICTOR_FFMPEG;
      else process.env.PICTOR_FFMPEG = saved;
    }
  });

  it("refuses a still frame for an animated format", async () => {
    const still = structuredClone(example) as { frames: Record<string, unknown>[] };
    const frame = still.frames[0] as { duration?: number; layers: Record<string, unknown>[] };
    delete frame.duration;
    delete (frame as { fps?: number }).fps;
    for (const layer of frame.layers) {
      delete layer.animations;
      delete layer.keyframes;
    }
    const error = await renderer
      .renderAnimation(still, { format: "gif", loadImage: noImages })
      .catch((e) => e);
    expect((error as RenderError).code).toBe("invalid_request");
  });
});
