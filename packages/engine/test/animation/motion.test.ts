import {
  documentAt,
  ease,
  frameTimes,
  posterTime,
  type TemplateDocumentT,
  type TextLayerT,
  validateDocument,
} from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { testEngine } from "../support/engine.ts";
import { prepareAll } from "../support/images.ts";
import { expectGolden } from "../support/render.ts";
import { motionDocument } from "./motion-document.ts";

/** The document without its motion: what every layer looks like once arrived. */
function designOf(document: TemplateDocumentT): TemplateDocumentT {
  const still = structuredClone(document);
  for (const frame of still.frames) {
    delete frame.duration;
    delete frame.fps;
    delete frame.poster;
    for (const layer of frame.layers) {
      delete layer.animations;
      delete layer.keyframes;
    }
  }
  return still;
}

function layerAt(document: TemplateDocumentT, id: string) {
  const layer = document.frames[0]?.layers.find((l) => l.id === id);
  if (layer === undefined) throw new Error(`no layer ${id}`);
  return layer;
}

describe("motion: the document at a time", () => {
  const document = motionDocument();

  it("validates, and lasts whole frames at its fps", () => {
    expect(validateDocument(document).ok).toBe(true);
    const frame = document.frames[0];
    if (frame === undefined) throw new Error("no frame");
    expect(frameTimes(frame)).toHaveLength(10);
    expect(posterTime(frame)).toBeCloseTo(0.6, 12);
    const broken = structuredClone(document);
    (broken.frames[0] as { duration: number }).duration = 1.05;
    const result = validateDocument(broken);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]?.message).toContain("whole number of frames");
  });

  it("is a pure function: the design is never changed, a still frame is returned as is", () => {
    const before = JSON.stringify(document);
    const mid = documentAt(document, undefined, 0.3, {});
    expect(JSON.stringify(document)).toBe(before);
    expect(mid.document).not.toBe(document);
    const still = designOf(document);
    expect(documentAt(still, undefined, 0.3, {}).document).toBe(still);
  });

  it("applies presets and keyframes at the moment asked", () => {
    const start = documentAt(document, undefined, 0, {}).document;
    expect(layerAt(start, "panel").opacity).toBe(0);
    expect(layerAt(start, "panel").x).toBe(-90);
    expect((layerAt(start, "headline") as TextLayerT).text).toBe("");
    expect(layerAt(start, "bar").width).toBe(0);
    expect(layerAt(start, "badge").visible).toBe(false);
    const half = documentAt(document, undefined, 0.4, { headline: "abcdefgh" });
    expect((layerAt(half.document, "headline") as TextLayerT).text).toBe("abcd");
    const counted = layerAt(half.document, "count");
    const own = counted.bind?.text ?? "";
    expect(own).not.toBe("count");
    expect(half.values[own]).toBeGreaterThan(0);
    expect(half.values[own]).toBeLessThan(1250);
    const end = documentAt(document, undefined, 0.9, {}).document;
    expect(layerAt(end, "outro").opacity).toBeCloseTo(1 - ease("ease-in", 2 / 3), 12);
  });

  it("eases from 0 to 1 exactly, springs and Béziers included", () => {
    for (const easing of ["linear", "ease-in", "ease-out", "ease-in-out"] as const) {
      expect([ease(easing, 0), ease(easing, 1)]).toEqual([0, 1]);
    }
    expect(ease({ cubic_bezier: [0.42, 0, 0.58, 1] }, 0.5)).toBeCloseTo(0.5, 9);
    expect(ease("ease-in", 0.5)).toBeLessThan(0.5);
    // An underdamped spring overshoots before it settles.
    const spring = { spring: { stiffness: 200, damping: 5 } };
    expect(Math.max(...Array.from({ length: 99 }, (_, i) => ease(spring, (i + 1) / 100)))).toBeGreaterThan(1);
    expect(ease(spring, 1)).toBe(1);
  });
});

describe("motion: drawn", () => {
  const document = motionDocument();

  it("draws t = 0, mid and the last frame as their golden stills", async () => {
    await expectGolden("motion", "t0", document, { time: 0 });
    await expectGolden("motion", "t0.5", document, { time: 0.5 });
    await expectGolden("motion", "t0.9", document, { time: 0.9 });
  });

  it("draws a still of an animated frame at its poster moment: the design as arrived", async () => {
    const engine = await testEngine();
    const poster = engine.render(document, { images: prepareAll(engine.planImages(document, {})) });
    const posterPixels = Uint8Array.from(poster.pixels);
    const asTime = engine.render(document, { time: 0.6 });
    expect(Buffer.from(asTime.pixels).equals(Buffer.from(posterPixels))).toBe(true);
    const design = designOf(document);
    const designed = engine.render(design, {});
    expect(Buffer.from(designed.pixels).equals(Buffer.from(posterPixels))).toBe(true);
  });
});
