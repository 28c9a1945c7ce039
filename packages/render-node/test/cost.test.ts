import { type TemplateDocumentT, validateDocument } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import {
  COPY_BYTES_PER_PIXEL,
  ENCODE_BYTES_PER_PIXEL,
  estimateRenderCost,
  PDF_HELD_BYTES_PER_PIXEL,
  PREPARE_BASE_BYTES,
} from "../src/cost.ts";
import { DEFAULT_IMAGE_LIMITS } from "../src/prepare-image.ts";

/**
 * A render's estimate around the engine's (src/cost.ts): images prepared before the drawing, the
 * frame's copy and its encoder after, and a PDF's pages, drawn one at a time but held compressed
 * until the document is written.
 */

function page(name: string, width: number, height: number, layers: unknown[] = []) {
  return { name, width, height, background: "#FFFFFF", layers };
}

function documentOf(frames: unknown[]): TemplateDocumentT {
  const result = validateDocument({ version: 2, key: "d", name: "d", slots: [], frames });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.document;
}

const photo = (src: string, size: number) => ({
  id: "photo",
  type: "image",
  x: 0,
  y: 0,
  width: size,
  height: size,
  src,
});

describe("estimateRenderCost", () => {
  it("adds the frame's copy and its encoder to the drawing, per pixel and format", () => {
    const doc = documentOf([page("a", 1000, 500)]);
    const drawing = estimateRenderCost(doc, { format: "png" }).costliest.frame.bytes;
    for (const format of ["png", "jpeg", "webp"] as const) {
      const cost = estimateRenderCost(doc, { format });
      expect(cost.bytes).toBe(drawing + (COPY_BYTES_PER_PIXEL + ENCODE_BYTES_PER_PIXEL[format]) * 500_000);
    }
    expect(estimateRenderCost(doc, { format: "png", scale: 2 }).bytes).toBeGreaterThan(
      estimateRenderCost(doc, { format: "png" }).bytes,
    );
  });

  it("counts the decode of each image source, at its known size or the largest accepted", () => {
    const doc = documentOf([page("a", 1200, 630, [photo("asset://ast_small", 200)])]);
    const known = estimateRenderCost(doc, { format: "png", sourcePixels: () => 1_000_000 });
    const unknown = estimateRenderCost(doc, { format: "png" });
    expect(known.costliest.prepareBytes).toBe(4 * 200 * 200 + PREPARE_BASE_BYTES + 1.5 * 1_000_000);
    expect(unknown.costliest.prepareBytes).toBe(
      4 * 200 * 200 + PREPARE_BASE_BYTES + 1.5 * DEFAULT_IMAGE_LIMITS.maxPixels,
    );
    // A small image from a 50-megapixel source costs more to prepare than to draw.
    expect(unknown.bytes).toBe(unknown.costliest.prepareBytes);
    expect(known.bytes).toBeLessThan(unknown.bytes);
  });

  it("a PDF's drawing counts once, for its costliest page; every page's compressed image is held", () => {
    const small = page("small", 1000, 1000);
    const large = page("large", 4000, 4000, [photo("https://example.com/p.jpg", 4000)]);
    const doc = documentOf([small, large, page("small2", 1000, 1000)]);
    const one = estimateRenderCost(doc, { format: "pdf", frames: ["large"] });
    const three = estimateRenderCost(doc, { format: "pdf", frames: ["small", "large", "small2"] });
    expect(three.costliest.frame.frame).toBe("large");
    expect(three.heldBytes).toBe(2 * PDF_HELD_BYTES_PER_PIXEL * (16_000_000 + 2 * 1_000_000));
    expect(three.bytes - one.bytes).toBe(2 * PDF_HELD_BYTES_PER_PIXEL * 2 * 1_000_000);
    expect(three.frames.map((f) => f.frame.frame)).toEqual(["small", "large", "small2"]);
  });

  it("names a frame whose rasters do not fit CanvasKit's heap", () => {
    const doc = documentOf([
      page("fine", 1200, 630),
      page("huge", 8000, 8000, [
        {
          id: "t",
          type: "text",
          x: 0,
          y: 0,
          width: 8000,
          height: 8000,
          text: "HELLO",
          color: "#000000",
          font: { family: "Inter", size: 2000 },
          shadows: [{ x: 0, y: 0, blur: 500, color: "#000000" }],
        },
      ]),
    ]);
    expect(estimateRenderCost(doc, { format: "png", frames: ["fine"] }).unfit).toBeNull();
    expect(estimateRenderCost(doc, { format: "pdf", frames: ["fine", "huge"] }).unfit?.frame).toBe("huge");
  });
});
