import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
    expect(new Set(meta.delay)).toEqual(new Set([80, 90]));
  });

  it("animated WebP (lossless): its frames at t = 0, mid and end are the stills of those moments", async () => {
    const out = await renderer.renderAnimation(example, { format: "webp", loadImage: noImages });
    const meta = await sharp(out.bytes).metadata();
    // libwebp's animation encoder merges a frame identical to the one before into it (one page
    // shown for both frames' time), so there are at most as many pages as frames, timed the same.
    const delays = meta.delay ?? [];
    expect(meta.pages).toBe(delays.length);
    expect(meta.pages).toBeLessThanOrEqual(FRAMES);
    expect(meta.pages).toBeGreaterThan(FRAMES / 2);
    expect(delays.reduce((a, b) => a + b, 0)).toBe(2000);
    const starts = delays.map((_, i) => delays.slice(0, i).reduce((a, b) => a + b, 0));
    for (const index of [0, FRAMES / 2, FRAMES - 1]) {
      const at = Math.round((index * 1000) / FPS);
      const pageIndex = starts.findLastIndex((start) => start <= at);
      const page = await sharp(out.bytes, { page: pageIndex }).removeAlpha().raw().toBuffer();
      const still = await renderer.render(example, { format: "png", time: index / FPS, loadImage: noImages });
      const stillPixels = await sharp(still.bytes).removeAlpha().raw().toBuffer();
      expect(page.equals(stillPixels), `frame ${index}`).toBe(true);
    }
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
