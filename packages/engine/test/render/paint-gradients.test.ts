import type { PaintT } from "@pictor/engine";
import { createEngine, validateDocument } from "@pictor/engine";
import { loadFontSet } from "@pictor/fonts";
import { describe, expect, it } from "vitest";
import { loadCanvasKit } from "../support/canvaskit.ts";
import { documentOf, shapeLayer, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "paint-gradients";

const sunset = (angle: number): PaintT => ({
  type: "linear",
  angle,
  stops: [
    { offset: 0, color: "#FF0066" },
    { offset: 0.5, color: "#FFB000" },
    { offset: 1, color: "#2563EB" },
  ],
});

const angles = () =>
  documentOf(
    [0, 90, 135, 180].map((angle, i) =>
      shapeLayer({ id: `a${angle}`, x: 10 + i * 97, y: 20, width: 87, height: 160, fill: sunset(angle) }),
    ),
  );

const radialAndStrokes = () =>
  documentOf(
    [
      shapeLayer({
        id: "radial",
        shape: "ellipse",
        x: 10,
        y: 20,
        width: 160,
        height: 160,
        fill: {
          type: "radial",
          center: { x: 0.35, y: 0.3 },
          radius: 0.7,
          stops: [
            { offset: 0, color: "#FFFFFF" },
            { offset: 1, color: "#0F172A" },
          ],
        },
      }),
      shapeLayer({
        id: "fade",
        x: 180,
        y: 20,
        width: 100,
        height: 160,
        fill: {
          type: "linear",
          stops: [
            { offset: 0, color: "#10B981" },
            { offset: 1, color: "#10B98100" },
          ],
        },
      }),
      shapeLayer({
        id: "ring",
        x: 290,
        y: 20,
        width: 100,
        height: 160,
        corner_radius: 24,
        fill: null,
        stroke: { width: 12, color: sunset(90) },
      }),
    ],
    { background: "#E2E8F0" },
  );

describe("gradient paints", () => {
  it("draws linear gradients at CSS angles (0 up, 90 right, 135, 180 down)", async () => {
    await expectGolden(FEATURE, "linear-angles", angles());
    await expectGolden(FEATURE, "linear-angles-scale-2", angles(), { scale: 2 });
  });

  it("draws radial gradients, translucent stops and gradient strokes", async () => {
    await expectGolden(FEATURE, "radial-translucent-stroke", radialAndStrokes());
    await expectGolden(FEATURE, "radial-translucent-stroke-scale-2", radialAndStrokes(), { scale: 2 });
  });

  it("fills the frame background with a gradient; a colour slot binds one stop", async () => {
    const doc = documentOf([], {
      slots: [{ name: "brand", type: "color" }],
      frameBind: { "background.stops[1].color": "brand" },
    });
    doc.frames[0] = { ...doc.frames[0], background: sunset(90) } as (typeof doc.frames)[0];
    expect(validateDocument(doc).ok).toBe(true);
    const result = await expectGolden(FEATURE, "background-stop-bound", doc, {
      values: { brand: "#00FF88" },
    });
    expect(result.opaque).toBe(true);
  });

  it("reports bad gradients with their JSON paths", () => {
    const bad = documentOf([
      shapeLayer({
        id: "bad",
        fill: {
          type: "linear",
          stops: [
            { offset: 0.6, color: "#000000" },
            { offset: 0.2, color: "#FFFFFF" },
          ],
        },
        bind: { "fill.stops[5].color": "brand" },
      }),
      shapeLayer({ id: "solid", fill: "#000000", bind: { "fill.stops[0].color": "brand" } }),
    ]);
    bad.slots = [{ name: "brand", type: "color" }];
    const result = validateDocument(bad);
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.errors).toEqual([
      {
        path: "frames[0].layers[0].fill.stops[1].offset",
        message: "must be >= the previous stop's offset (0.6); stops go in ascending order",
      },
      {
        path: 'frames[0].layers[0].bind["fill.stops[5].color"]',
        message: "is bound, but fill has only 2 stops",
      },
      {
        path: 'frames[0].layers[1].bind["fill.stops[0].color"]',
        message: "is bound, but fill is not a gradient (it has no stops)",
      },
    ]);
    const one = documentOf([
      shapeLayer({ id: "one", fill: { type: "radial", stops: [{ offset: 0, color: "#000000" }] } }),
    ]);
    const single = validateDocument(one);
    expect(single.ok ? [] : single.errors).toContainEqual({
      path: "frames[0].layers[0].fill.stops",
      message: "must have at least 2 items",
    });
  });
});

describe("gradient backgrounds kept between renders", () => {
  const backdrop = (stop: string) =>
    documentOf([shapeLayer({ id: "card", x: 100, y: 50, width: 200, height: 100, fill: "#FFFFFF80" })], {
      background: {
        type: "linear",
        angle: 135,
        stops: [
          { offset: 0, color: "#0F172A" },
          { offset: 1, color: stop },
        ],
      },
    });

  it("copies back exactly the pixels it drew, and draws again when the background changes", async () => {
    const fresh = async (doc: ReturnType<typeof backdrop>, scale: number) => {
      const engine = createEngine({ canvasKit: await loadCanvasKit(), fonts: await loadFontSet() });
      const pixels = Buffer.from(engine.render(doc, { scale }).pixels);
      engine.dispose();
      return pixels;
    };
    const engine = createEngine({ canvasKit: await loadCanvasKit(), fonts: await loadFontSet() });
    const render = (doc: ReturnType<typeof backdrop>, scale = 1) =>
      Buffer.from(engine.render(doc, { scale }).pixels);
    const first = render(backdrop("#312E81"));
    expect(render(backdrop("#312E81")).equals(first)).toBe(true);
    const other = render(backdrop("#BE185D"));
    expect(other.equals(first)).toBe(false);
    expect(other.equals(await fresh(backdrop("#BE185D"), 1))).toBe(true);
    expect(render(backdrop("#BE185D"), 2).equals(await fresh(backdrop("#BE185D"), 2))).toBe(true);
    expect(render(backdrop("#312E81")).equals(first)).toBe(true);
    engine.dispose();
  });
});

describe("radial gradients as ellipses", () => {
  const STOPS = [
    { offset: 0, color: "#FFFFFF" },
    { offset: 0.6, color: "#F59E0B" },
    { offset: 1, color: "#7C2D12" },
  ];
  // The same wide box as a circle (cut off at the short sides) and as an ellipse fitted to it; then
  // an ellipse off-centre, on text (recoloured glyphs) and turned (through the shader).
  const ellipses = () =>
    documentOf([
      shapeLayer({
        id: "circle",
        x: 10,
        y: 10,
        width: 185,
        height: 80,
        fill: { type: "radial", stops: STOPS },
      }),
      shapeLayer({
        id: "ellipse",
        x: 205,
        y: 10,
        width: 185,
        height: 80,
        fill: { type: "radial", shape: "ellipse", stops: STOPS },
      }),
      shapeLayer({
        id: "off-centre",
        x: 10,
        y: 100,
        width: 120,
        height: 90,
        fill: { type: "radial", shape: "ellipse", center: { x: 0.3, y: 0.3 }, radius: 0.8, stops: STOPS },
      }),
      textLayer({
        id: "text",
        text: "Glow",
        x: 135,
        y: 100,
        width: 165,
        height: 90,
        font: { family: "Inter", size: 56, weight: 700 },
        color: { type: "radial", shape: "ellipse", stops: STOPS },
      }),
      shapeLayer({
        id: "turned",
        x: 300,
        y: 110,
        width: 90,
        height: 70,
        rotation: 20,
        stroke: { width: 8, color: { type: "radial", shape: "ellipse", stops: STOPS } },
        fill: { type: "radial", shape: "ellipse", radius: 0.4, stops: STOPS },
      }),
    ]);

  it("fits the ellipse to the box when shape is ellipse; the circle stays the default", async () => {
    await expectGolden(FEATURE, "radial-ellipse", ellipses());
  });

  it("draws the same at scale 2", async () => {
    await expectGolden(FEATURE, "radial-ellipse-scale-2", ellipses(), { scale: 2 });
  });
});
