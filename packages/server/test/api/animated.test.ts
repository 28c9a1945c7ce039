import { execFile } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { signImageUrl } from "@pictor/client";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CallbackTestServer, startCallbackServer } from "../callbacks/support.ts";
import { api, balanceOf, newAccount, publishTemplate, untilFinished } from "./support.ts";

// Animated output over real HTTP: the example animated template (2 s at 12 fps, 320x180) as MP4, GIF
// and animated WebP, through wait and async renders, a batch with a callback and an image URL.

const run = promisify(execFile);
const example = JSON.parse(
  await readFile(new URL("../../../../examples/animated/launch-countdown.json", import.meta.url), "utf8"),
) as { frames: Record<string, unknown>[] };
/** The same banner at 1920x1080: 24 frames are 49.8 million pixels, over a GIF's budget. */
const large = {
  ...example,
  key: "large-countdown",
  frames: [{ ...example.frames[0], width: 1920, height: 1080 }],
};

let t: CallbackTestServer;
let key: string;

beforeAll(async () => {
  // The server finds ffmpeg on PATH (the test environment passes none by default).
  t = await startCallbackServer({ receivers: 1, workers: 1, env: { PATH: process.env.PATH ?? "" } });
  ({ key } = await newAccount(t, 1000));
  t.secrets.push((await api(t, "GET", "/v1/webhook-secret", { key })).body.secret);
  await publishTemplate(t, key, example);
  await publishTemplate(t, key, large);
});
afterAll(() => t?.close());

const render = (body: Record<string, unknown>) =>
  api(t, "POST", "/v1/renders", { key, body: { template: "launch-countdown", modifications: [], ...body } });

async function download(url: string): Promise<{ type: string | null; bytes: Buffer }> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return { type: res.headers.get("content-type"), bytes: Buffer.from(await res.arrayBuffer()) };
}

describe("animated renders", () => {
  it("mp4 (wait): ceil(scale² x duration) credits once; ffprobe reads H.264 yuv420p, 24 frames, 2 s", async () => {
    const before = await balanceOf(t, key);
    const res = await render({ format: "mp4", scale: 1.5, wait: true });
    expect(res.status).toBe(200);
    // 1.5² x 2 s = 4.5, rounded up.
    expect(res.body).toMatchObject({
      status: "completed",
      format: "mp4",
      animation: { frame_count: 24, fps: 12, duration: 2 },
      width: 480,
      height: 270,
      credits_charged: 5,
    });
    expect(await balanceOf(t, key)).toBe(before - 5);
    const got = await download(res.body.asset_url);
    expect(got.type).toBe("video/mp4");
    expect(res.body.asset_url).toMatch(/\.mp4$/);
    const file = join(tmpdir(), `pictor-api-${process.pid}.mp4`);
    await writeFile(file, got.bytes);
    try {
      const { stdout } = await run("ffprobe", [
        ...["-v", "error", "-select_streams", "v:0", "-count_frames", "-of", "json"],
        ...["-show_entries", "stream=codec_name,pix_fmt,width,height,nb_read_frames,duration"],
        file,
      ]);
      const [stream] = (JSON.parse(stdout) as { streams: Record<string, string | number>[] }).streams;
      expect(stream).toMatchObject({ codec_name: "h264", pix_fmt: "yuv420p", width: 480, height: 270 });
      expect(Number(stream?.nb_read_frames)).toBe(24);
      expect(Math.abs(Number(stream?.duration) - 2)).toBeLessThanOrEqual(1 / 12);
    } finally {
      await rm(file, { force: true });
    }
    const job = await api(t, "GET", `/v1/renders/${res.body.id}`, { key });
    expect(job.body.animation).toEqual({ frame_count: 24, fps: 12, duration: 2 });
  });

  it("gif (async) and an animated webp in a batch with a callback; stills keep the specification's job", async () => {
    const gif = await render({ format: "gif" });
    expect(gif.status).toBe(202);
    const done = await untilFinished(t, key, gif.body.id);
    expect(done).toMatchObject({ status: "completed", format: "gif", credits_charged: 2 });
    const gifMeta = await sharp((await download(done.asset_url)).bytes).metadata();
    expect([gifMeta.format, gifMeta.pages, gifMeta.delay?.reduce((a, b) => a + b, 0)]).toEqual([
      "gif",
      24,
      2000,
    ]);

    const receiver = t.receivers[0];
    if (!receiver) throw new Error("no receiver");
    const batch = await api(t, "POST", "/v1/renders/batch", {
      key,
      body: {
        webhook_url: receiver.url("/animated"),
        renders: [
          { template: "launch-countdown", modifications: [], format: "webp", animated: true },
          { template: "launch-countdown", modifications: [], format: "png" },
        ],
      },
    });
    expect(batch.status).toBe(202);
    const [webpRow, pngRow] = batch.body.renders as { id: string; credits_charged: number }[];
    expect([webpRow?.credits_charged, pngRow?.credits_charged]).toEqual([2, 1]);
    const webp = await untilFinished(t, key, webpRow?.id ?? "");
    expect(webp).toMatchObject({ status: "completed", format: "webp", animation: { frame_count: 24 } });
    const webpMeta = await sharp((await download(webp.asset_url)).bytes).metadata();
    expect(webpMeta.delay?.reduce((a, b) => a + b, 0)).toBe(2000);
    // A still of an animated template is its poster, and its job has no animation field.
    const png = await untilFinished(t, key, pngRow?.id ?? "");
    expect(png.status).toBe("completed");
    expect("animation" in png).toBe(false);
    await receiver.waitForRequest(1);
  });

  it("an image URL ending in .gif renders the motion once and serves it from the cache", async () => {
    const created = await api(t, "POST", "/v1/url-signing-keys", { key, body: { name: "site" } });
    const signer = { keyId: created.body.id, secret: created.body.secret };
    const url = await signImageUrl({
      baseUrl: t.url,
      ...signer,
      template: "launch-countdown",
      format: "gif",
    });
    expect(url).toMatch(/\.gif\?/);
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("image/gif");
    expect((await sharp(Buffer.from(await first.arrayBuffer())).metadata()).pages).toBe(24);
    expect(first.headers.get("cache-status")).toMatch(/fwd=miss/);
    const again = await fetch(url);
    expect(again.headers.get("cache-status")).toBe("pictor; hit");
    await again.arrayBuffer();
  });

  it("refuses before any charge: a still frame, animated on png, a gif over its pixel budget", async () => {
    const before = await balanceOf(t, key);
    const still = structuredClone(example) as typeof example & { key: string };
    still.key = "still-banner";
    const frame = still.frames[0] as Record<string, unknown> & { layers: Record<string, unknown>[] };
    delete frame.duration;
    delete frame.fps;
    for (const layer of frame.layers) {
      delete layer.animations;
      delete layer.keyframes;
    }
    await publishTemplate(t, key, still);
    const stillGif = await render({ template: "still-banner", format: "gif" });
    expect(stillGif.status).toBe(400);
    expect(stillGif.body.error.code).toBe("invalid_request");
    const animatedPng = await render({ format: "png", animated: true });
    expect(animatedPng.body.error.code).toBe("invalid_request");
    const tooLarge = await render({ template: "large-countdown", format: "gif" });
    expect(tooLarge.status).toBe(422);
    expect(tooLarge.body.error.code).toBe("render_too_large");
    expect(await balanceOf(t, key)).toBe(before);
  });
});
