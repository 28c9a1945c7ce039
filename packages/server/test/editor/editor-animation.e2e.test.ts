import { readFile } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import { frameDelays } from "@pictor/render-node";
import type { BrowserContext, Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { canvasShowing, currentDoc, openEditor, signedUp } from "./canvas-support.ts";
import {
  type DocumentLike,
  type EditorHarness,
  haveChromium,
  inCI,
  modificationsOf,
  renderThroughApi,
  type SlotSample,
  startEditorHarness,
} from "./harness.ts";

/**
 * Acceptance (issue 39): the editor's frame at time t is the API's frame at t. The animated example
 * is published, opened in the editor and its timeline scrubbed (from the keyboard, as a user may) to
 * the first frame, the middle and the last; at each moment the canvas's own pixels are compared
 * with that frame of the API's lossless animated WebP, and before any scrubbing (the poster moment)
 * with the API's still PNG. Then the per-layer animation controls edit the document and pass axe.
 */

const example = JSON.parse(
  await readFile(new URL("../../../../examples/animated/launch-countdown.json", import.meta.url), "utf8"),
) as DocumentLike & {
  sample: Record<string, SlotSample>;
  frames: { name: string; width: number; height: number; duration: number; fps: number }[];
};
const FRAME = example.frames[0] as (typeof example.frames)[number];
const FRAMES = FRAME.duration * FRAME.fps;

/**
 * The engine's pixels of the open document at a moment (absent: the poster), as the editor's engine
 * draws them (test hook), base64; the frame is opaque, so they are what the canvas holds.
 */
async function editorMoment(page: Page, frame: string, scale: number, time?: number): Promise<string> {
  const out = await page.evaluate(
    (args) =>
      (
        window as unknown as {
          __pictor: { renderRGBA(o: unknown): Promise<{ opaque: boolean; base64?: string }> };
        }
      ).__pictor.renderRGBA(args),
    { frame, scale, bytes: true, ...(time === undefined ? {} : { time }) },
  );
  expect(out.opaque).toBe(true);
  return out.base64 ?? "";
}

(haveChromium || inCI ? describe : describe.skip)("editor = API for an animated frame", () => {
  let h: EditorHarness;
  let context: BrowserContext;
  let page: Page;
  /** The last frame as the canvas showed it before the layer's motion was edited. */
  let endBefore: Buffer | undefined;
  /** The canvas's drawing scale (the zoom's whole step). */
  let scale = 1;
  beforeAll(async () => {
    h = await startEditorHarness();
    // axe opens a page of its own to finish its run: that needs a context made with newContext().
    context = await h.browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
  }, 180_000);
  afterAll(async () => {
    await context?.close();
    await h?.close();
  }, 60_000);

  it("draws the API's frame at t = 0, mid and end when the timeline is scrubbed there, and the poster still before", async () => {
    const { url } = h;
    const { key, call } = await signedUp(page, url, "Animation e2e");
    const created = await call<{ id: string }>("/v1/templates", {
      body: { document: example, publish: true },
    });
    await openEditor(page, url, created.id);
    const canvas = page.getByTestId(`frame-canvas-${FRAME.name}`);
    await page.waitForFunction(
      (selector) => (document.querySelector(selector) as HTMLCanvasElement | null)?.width !== 300,
      `[data-testid="frame-canvas-${FRAME.name}"]`,
    );
    // The canvas draws at the zoom's scale (whole steps); the API is asked for the same scale.
    scale = Number(await canvas.evaluate((c) => (c as HTMLCanvasElement).width)) / FRAME.width;
    expect(Number.isInteger(scale) && scale >= 1 && scale <= 4).toBe(true);
    const modifications = modificationsOf(example, example.sample);

    // Before any scrubbing the canvas shows the poster moment, what a still render draws.
    const still = await renderThroughApi(url, key, {
      template: example.key,
      frame: FRAME.name,
      scale,
      modifications,
    });
    const poster = await canvasShowing(page, FRAME.name, await editorMoment(page, FRAME.name, scale));
    expect(poster.equals(still.rgba), "poster: the canvas differs from the API's still PNG").toBe(true);

    // The API's motion, every frame exactly (lossless), as one animated WebP.
    const job = await call<{ status: string; output_url: string; animation: { frame_count: number } }>(
      "/v1/renders",
      { body: { template: example.key, format: "webp", animated: true, scale, wait: true, modifications } },
    );
    expect([job.status, job.animation.frame_count]).toEqual(["completed", FRAMES]);
    const webp = Buffer.from(await (await fetch(new URL(job.output_url, url))).arrayBuffer());
    const meta = await sharp(webp).metadata();
    const { data: pages } = await sharp(webp, { pages: -1 })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pageBytes = FRAME.width * scale * FRAME.height * scale * 4;
    // A frame identical to the one before shares its page (libwebp merges them), so frame i is the
    // last page starting at or before frame i's start.
    const delays = meta.delay ?? [];
    const pageStarts = delays.map((_, p) => delays.slice(0, p).reduce((a, b) => a + b, 0));
    const frameStarts = frameDelays(FRAMES, FRAME.fps, 1).map((_, i, all) =>
      all.slice(0, i).reduce((a, b) => a + b, 0),
    );
    const apiFrame = (index: number) => {
      const page = pageStarts.findLastIndex((start) => start <= (frameStarts[index] as number));
      return pages.subarray(page * pageBytes, (page + 1) * pageBytes);
    };

    const slider = page.getByTestId(`timeline-${FRAME.name}`).getByLabel("Time");
    const moments: [string, number, () => Promise<void>][] = [
      ["t = 0", 0, () => slider.press("Home")],
      [
        "mid",
        FRAMES / 2,
        async () => {
          await slider.press("Home");
          for (let i = 0; i < FRAMES / 2; i++) await slider.press("ArrowRight");
        },
      ],
      ["end", FRAMES - 1, () => slider.press("End")],
    ];
    const shown: Buffer[] = [];
    for (const [label, index, scrub] of moments) {
      await scrub();
      const time = index / FRAME.fps;
      expect(await slider.inputValue(), label).toBe(String(index));
      const pixels = await canvasShowing(page, FRAME.name, await editorMoment(page, FRAME.name, scale, time));
      expect(
        pixels.equals(apiFrame(index)),
        `${label} (frame ${index}): the canvas differs from the API's frame`,
      ).toBe(true);
      shown.push(pixels);
    }
    // Three different moments: the motion really moved between them.
    expect(shown[0]?.equals(shown[1] as Buffer)).toBe(false);
    expect(shown[1]?.equals(shown[2] as Buffer)).toBe(false);
    endBefore = shown[2];
  }, 240_000);

  it("edits a layer's enter and exit presets and keyframes in its Animation section, axe-clean", async () => {
    await page.locator('[data-layer="cta"]').first().click();
    const motion = page.getByTestId("motion");
    await motion.waitFor();
    // The example's two enter animations of the call to action, as the form shows them.
    expect(await motion.getByTestId("anim-0-preset").inputValue()).toBe("slide");
    expect(await motion.getByTestId("anim-1-preset").inputValue()).toBe("fade");
    // A text layer is offered the text presets; the form offers what the engine's registry says.
    const offered = await motion.getByTestId("anim-0-preset").locator("option").allTextContents();
    expect(offered).toEqual(expect.arrayContaining(["fade", "slide", "typewriter"]));

    await motion.getByTestId("anim-add-exit").click();
    await motion.getByTestId("anim-2-preset").selectOption("scale");
    await motion.getByTestId("anim-2-start").fill("1.5");
    await motion.getByTestId("anim-2-duration").fill("0.25");
    await motion.getByTestId("anim-2-easing").selectOption("cubic-bezier");
    await motion.getByTestId("anim-2-easing-y2").fill("0.8");
    await motion.getByTestId("kf-property").selectOption("opacity");
    await motion.getByTestId("kf-add-track").click();
    await motion.getByTestId("kf-opacity-add").click();
    await motion.getByTestId("kf-opacity-1-value").fill("0.5");
    await motion.getByTestId("kf-opacity-1-easing").selectOption("ease-in");

    const doc = (await currentDoc(page)) as unknown as {
      frames: { layers: { id: string; animations?: unknown[]; keyframes?: unknown }[] }[];
    };
    const cta = doc.frames[0]?.layers.find((l) => l.id === "cta");
    expect(cta?.animations?.[2]).toEqual({
      preset: "scale",
      phase: "exit",
      start: 1.5,
      duration: 0.25,
      easing: { cubic_bezier: [0.25, 0.1, 0.25, 0.8] },
    });
    expect(cta?.keyframes).toEqual({
      opacity: [
        { time: 0, value: 1 },
        { time: 0.5, value: 0.5, easing: "ease-in" },
      ],
    });
    // The canvas (still at the last frame) draws the edit: the call to action has scaled away.
    const end = await canvasShowing(
      page,
      FRAME.name,
      await editorMoment(page, FRAME.name, scale, (FRAMES - 1) / FRAME.fps),
    );
    expect(endBefore && end.equals(endBefore)).toBe(false);
    const violations = async () =>
      (
        await new AxeBuilder({ page })
          .include(".props")
          .include(`[data-testid="timeline-${FRAME.name}"]`)
          .analyze()
      ).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
    expect(await violations()).toEqual([]);
    // With nothing selected, the frame's motion: its duration, fps and poster (empty: the default).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press("Escape");
    const motionFields = page.getByTestId("frame-motion");
    expect([
      await motionFields.getByTestId("frame-duration").inputValue(),
      await motionFields.getByTestId("frame-fps").inputValue(),
      await motionFields.getByTestId("frame-poster").inputValue(),
    ]).toEqual(["2", "12", ""]);
    expect(await violations()).toEqual([]);
  }, 120_000);
});
