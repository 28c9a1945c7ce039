import { createHash } from "node:crypto";
import type { CanvasKit } from "canvaskit-wasm";
import { describe, expect, it } from "vitest";
import { createNodeRenderer, type NodeRenderer } from "../src/renderer.ts";
import { trappingShadowedText } from "./fixtures/trapping-shadowed-text.ts";

/**
 * A render must never poison its thread: after a draw fails with an error the engine cannot vouch
 * for (a WebAssembly trap inside CanvasKit), the renderer draws the next render on a fresh instance.
 * Before, the trapped instance's heap stayed exhausted and every later render of every account failed
 * with "could not create a 1200x630 raster surface" until the thread idled for 10 s.
 */

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const noImages = async (): Promise<Uint8Array> => {
  throw new Error("this test loads no images");
};

/** Another account's ordinary card. */
const card = {
  version: 2,
  key: "card",
  name: "Card",
  slots: [],
  frames: [
    {
      name: "f",
      width: 1200,
      height: 630,
      background: "#F4F1EA",
      layers: [
        {
          id: "r",
          type: "shape",
          shape: "rectangle",
          x: 60,
          y: 60,
          width: 300,
          height: 200,
          fill: "#1F6FEB",
        },
        {
          id: "t",
          type: "text",
          x: 60,
          y: 300,
          width: 1000,
          height: 120,
          text: "Still rendering",
          color: "#111111",
          font: { family: "Inter", size: 64, weight: 700 },
        },
      ],
    },
  ],
};

const heavy = trappingShadowedText("heavy");

async function cardBytes(renderer: NodeRenderer): Promise<string> {
  const out = await renderer.render(card, { format: "png", loadImage: noImages });
  return sha(out.bytes);
}

describe("a failed draw does not poison the renderer", () => {
  it("replaces a CanvasKit instance a draw broke, and the next render is drawn as on a fresh renderer", async () => {
    const reference = await createNodeRenderer({ trimNativeHeap: false });
    const expected = await cardBytes(reference);
    reference.dispose();

    let broken: CanvasKit | null = null;
    const renderer = await createNodeRenderer({
      trimNativeHeap: false,
      // What a trap leaves behind, made deterministic: the instance can no longer allocate a surface
      // (its heap is exhausted), and the draw ends in a WebAssembly RuntimeError.
      beforeDraw(kit, document) {
        if (document.key !== "heavy" || broken) return;
        broken = kit;
        kit.MakeRasterDirectSurface = () => null;
        throw new WebAssembly.RuntimeError("null function or function signature mismatch");
      },
    });
    try {
      await expect(renderer.render(heavy, { format: "png", loadImage: noImages })).rejects.toThrow(
        WebAssembly.RuntimeError,
      );
      expect(await cardBytes(renderer)).toBe(expected);
      expect(renderer.replacements).toBe(1);
      // Renders after it stay on the fresh instance: no second replacement.
      expect(await cardBytes(renderer)).toBe(expected);
      expect(renderer.replacements).toBe(1);
    } finally {
      renderer.dispose();
    }
  });

  it("a recycle prepared while a failed draw replaced the grown instance does not swap a second time", async () => {
    const reference = await createNodeRenderer({ trimNativeHeap: false });
    const expected = await cardBytes(reference);
    reference.dispose();

    let breaks = 0;
    const renderer = await createNodeRenderer({
      trimNativeHeap: false,
      // The card (1200x630, 3 MB of pixels) grows the heap; idleMs 0: recycled only when asked.
      recycle: { aboveBytes: 1024 * 1024, idleMs: 0 },
      beforeDraw(kit, document) {
        if (document.key !== "heavy") return;
        breaks++;
        kit.MakeRasterDirectSurface = () => null;
        throw new WebAssembly.RuntimeError("null function or function signature mismatch");
      },
    });
    try {
      await cardBytes(renderer);
      // The recycle prepares its fresh instance (a wasm instantiation) while the failing draw, queued
      // first, runs and its replacement takes the engine: the recycle's swap comes after both.
      const failed = renderer.render(heavy, { format: "png", loadImage: noImages });
      const recycled = renderer.recycleNow();
      await expect(failed).rejects.toThrow(WebAssembly.RuntimeError);
      expect(await recycled).toBe(false);
      expect(breaks).toBe(1);
      expect(renderer.replacements).toBe(1);
      expect(renderer.recycles).toBe(0);
      expect(await cardBytes(renderer)).toBe(expected);
      // That render grew the replacement's heap: a recycle now moves on from it, once.
      expect(await renderer.recycleNow()).toBe(true);
      expect(renderer.recycles).toBe(1);
      expect(await cardBytes(renderer)).toBe(expected);
    } finally {
      renderer.dispose();
    }
  });

  it("a typed failure (an image that cannot be loaded) keeps the instance", async () => {
    const renderer = await createNodeRenderer({ trimNativeHeap: false });
    try {
      const withImage = {
        ...card,
        frames: [
          {
            ...card.frames[0],
            layers: [{ id: "i", type: "image", x: 0, y: 0, width: 10, height: 10, src: "missing.png" }],
          },
        ],
      };
      await expect(renderer.render(withImage, { format: "png", loadImage: noImages })).rejects.toMatchObject({
        code: "image_fetch_failed",
      });
      await cardBytes(renderer);
      expect(renderer.replacements).toBe(0);
    } finally {
      renderer.dispose();
    }
  });

  it("after the real trapping document (8000x8000 text, stroke 200, shadow blur 500), another render succeeds", async () => {
    const reference = await createNodeRenderer({ trimNativeHeap: false });
    const expected = await cardBytes(reference);
    reference.dispose();

    const renderer = await createNodeRenderer({ trimNativeHeap: false });
    try {
      // Whether this draw traps depends on the instance's state (it did on every fresh thread here);
      // either way the next render must succeed.
      const outcome = await renderer.render(heavy, { format: "png", loadImage: noImages }).then(
        () => "drawn",
        (error: unknown) => String(error),
      );
      expect(await cardBytes(renderer)).toBe(expected);
      expect(renderer.replacements).toBe(outcome === "drawn" ? 0 : 1);
    } finally {
      renderer.dispose();
    }
  }, 120_000);
});
