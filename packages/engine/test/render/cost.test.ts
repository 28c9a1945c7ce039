import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import {
  CANVASKIT_HEAP_BASE_BYTES,
  CANVASKIT_HEAP_LIMIT_BYTES,
  createEngine,
  estimateFrameCost,
  type Layer,
  type TemplateDocumentT,
} from "@pictor/engine";
import { loadDeferredFontSet } from "@pictor/fonts";
import type { CanvasKit, CanvasKitInitOptions } from "canvaskit-wasm";
import { describe, expect, it } from "vitest";
import {
  documentOf,
  groupLayer,
  imageLayer,
  lineLayer,
  shapeLayer,
  stackLayer,
  starLayer,
  textLayer,
} from "../support/documents.ts";
import { loadTestIcons } from "../support/engine.ts";
import { prepareAll } from "../support/images.ts";

/**
 * The cost estimate (render/cost.ts): the peak memory of drawing a frame, from the document alone. It
 * must grow with the scale, count what allocates (shadows, blurs, offscreen layers, masks, images),
 * name the layer that weighs most, and bound what a real render takes of CanvasKit's heap.
 */

const MB = 1024 * 1024;
const SCALES = [1, 1.5, 2, 3, 4];
const cost = (doc: TemplateDocumentT, scale = 1, values = {}) => estimateFrameCost(doc, { scale, values });
const frame = (layers: Layer[], width = 1200, height = 630) => documentOf(layers, { width, height });

const shadowed = textLayer({
  id: "headline",
  x: 100,
  y: 100,
  width: 1000,
  height: 300,
  text: "Summer sale",
  font: { family: "Inter", size: 120 },
  shadows: [{ x: 4, y: 4, blur: 24, color: "#00000080" }],
});
const gradient = {
  type: "linear" as const,
  angle: 90,
  stops: [
    { offset: 0, color: "#FF0000" },
    { offset: 1, color: "#0000FF" },
  ],
};

/** Documents that allocate in different ways, each with what it exercises. */
const DOCUMENTS: Record<string, TemplateDocumentT> = {
  "plain card": frame([shapeLayer({ id: "panel" }), textLayer({ id: "title", text: "Hello" })]),
  "shadowed text (pixel shadows)": frame([shadowed]),
  "turned shadowed text (filtered shadows)": frame([{ ...shadowed, rotation: 12 }]),
  "shape with a shadow (layer raster, silhouette)": frame([
    shapeLayer({
      id: "card",
      width: 800,
      height: 400,
      shadows: [{ x: 0, y: 8, blur: 40, color: "#00000044" }],
    }),
  ]),
  "line with a shadow (layer raster, pixel shadows)": frame([
    lineLayer({ id: "rule", width: 900, height: 0, shadows: [{ x: 0, y: 4, blur: 12, color: "#00000066" }] }),
  ]),
  "masked, filtered image": frame([
    imageLayer({
      id: "photo",
      src: "gradient:400x300",
      width: 600,
      height: 500,
      mask: { shape: "circle" },
      filters: { grayscale: 1 },
      border: { width: 8, color: "#FFFFFF" },
    }),
  ]),
  "translucent group": frame([
    groupLayer({
      id: "badge",
      width: 1200,
      height: 630,
      opacity: 0.5,
      layers: [shapeLayer({ id: "a" }), starLayer({ id: "b", x: 300 })],
    }),
  ]),
  "gradient text": frame([textLayer({ id: "gradient-title", text: "Gradient", color: gradient })]),
  "gradient background": documentOf([], { width: 1200, height: 630, background: gradient }),
};

describe("estimateFrameCost", () => {
  it.each(Object.keys(DOCUMENTS))("grows with the scale: %s", (name) => {
    const doc = DOCUMENTS[name] as TemplateDocumentT;
    const estimates = SCALES.map((scale) => cost(doc, scale));
    for (let i = 1; i < estimates.length; i++) {
      const [before, after] = [estimates[i - 1], estimates[i]];
      expect(after?.bytes, `scale ${SCALES[i]} over ${SCALES[i - 1]}`).toBeGreaterThan(before?.bytes ?? 0);
      expect(after?.heapBytes).toBeGreaterThan(before?.heapBytes ?? 0);
    }
    // At least the frame's surface, 4 bytes a device pixel, in the heap.
    const at4 = estimates.at(-1);
    expect(at4?.surfaceBytes).toBe(4 * 4800 * 2520);
    expect(at4?.heapBytes).toBeGreaterThanOrEqual(at4?.surfaceBytes ?? Number.POSITIVE_INFINITY);
  });

  it("counts each shadow, and more for a larger blur", () => {
    const withShadows = (shadows: NonNullable<Layer["shadows"]>) =>
      cost(frame([{ ...shadowed, shadows }])).bytes;
    const none = withShadows([]);
    const one = withShadows([{ x: 4, y: 4, blur: 24, color: "#000000" }]);
    const two = withShadows([
      { x: 4, y: 4, blur: 24, color: "#000000" },
      { x: -4, y: 8, blur: 24, color: "#FF0000" },
    ]);
    const blurrier = withShadows([{ x: 4, y: 4, blur: 240, color: "#000000" }]);
    expect(one).toBeGreaterThan(none);
    expect(two).toBeGreaterThan(one);
    expect(blurrier).toBeGreaterThan(one);
    // A shadow from the layer's pixels: its raster (box and overhang) in the heap and copied to JS,
    // and the cast shadow (6 bytes a pixel in JS, 4 in the heap) over the raster widened by the blur.
    const raster = (1000 + 2 * 240 + 1) * (300 + 2 * 240 + 1);
    expect(one - none).toBeGreaterThanOrEqual(8 * raster + 10 * raster);
  });

  it("counts the shadows of every kind, whichever way they are drawn", () => {
    const shadow = [{ x: 0, y: 10, blur: 60, color: "#00000066" }];
    for (const layer of [
      shapeLayer({ id: "s", width: 600, height: 300 }),
      starLayer({ id: "s", width: 300, height: 300 }),
      lineLayer({ id: "s", width: 600, height: 0 }),
      textLayer({ id: "s", text: "Shadow" }),
      imageLayer({ id: "s", src: "gradient:10x10", width: 600, height: 300 }),
      groupLayer({ id: "s", layers: [shapeLayer({ id: "inner" })] }),
      { ...textLayer({ id: "s", text: "Turned" }), rotation: 30 },
    ] as Layer[]) {
      const plain = cost(frame([layer])).bytes;
      const shadowedLayer = cost(frame([{ ...layer, shadows: shadow }]));
      expect(shadowedLayer.bytes, layer.type).toBeGreaterThan(plain);
      expect(shadowedLayer.layers[0]?.id).toBe("s");
    }
  });

  it("counts offscreen layers: opacity, blend modes, translucent groups (within the frame)", () => {
    const opaque = cost(frame([shapeLayer({ id: "s", width: 800, height: 400 })])).bytes;
    const translucent = cost(frame([shapeLayer({ id: "s", width: 800, height: 400, opacity: 0.5 })])).bytes;
    const blended = cost(
      frame([shapeLayer({ id: "s", width: 800, height: 400, blend_mode: "multiply" })]),
    ).bytes;
    expect(translucent).toBeGreaterThan(opaque);
    expect(blended).toBeGreaterThan(opaque);
    // An offscreen layer covers at most the frame, however large the layer.
    const huge = cost(frame([shapeLayer({ id: "s", width: 100_000, height: 100_000, opacity: 0.5 })]));
    expect(huge.heapBytes).toBeLessThanOrEqual(huge.surfaceBytes * 2 + 8 * 1024);
  });

  it("counts masks, radii, borders and colour filters of an image, and the prepared pixels", () => {
    const photo = imageLayer({ id: "p", src: "gradient:10x10", width: 500, height: 400 });
    const plain = cost(frame([photo]));
    expect(plain.imageBytes).toBe(4 * 500 * 400);
    expect(plain.images.map((i) => i.src)).toEqual(["gradient:10x10"]);
    const masked = cost(frame([{ ...photo, mask: { shape: "circle" } }])).bytes;
    const filtered = cost(frame([{ ...photo, mask: { shape: "circle" }, filters: { sepia: 1 } }])).bytes;
    const bordered = cost(frame([{ ...photo, border: { width: 4, color: "#000000" } }])).bytes;
    expect(masked).toBeGreaterThan(plain.bytes);
    expect(filtered).toBeGreaterThan(masked);
    expect(bordered).toBeGreaterThan(plain.bytes);
  });

  it("counts only what is drawn: hidden layers, failed conditions and unbound empty images cost nothing", () => {
    const base = cost(frame([])).bytes;
    const heavy = { ...shadowed, shadows: [{ x: 0, y: 0, blur: 400, color: "#000000" }] };
    const slots = [{ name: "promo", type: "text" as const }];
    const hidden = documentOf(
      [
        { ...heavy, id: "off", visible: false },
        { ...heavy, id: "clear", opacity: 0 },
        { ...heavy, id: "conditional", visible_when: { slot: "promo", is: "non_empty" } },
        imageLayer({ id: "empty", src: "" }),
      ],
      { width: 1200, height: 630, slots },
    );
    expect(cost(hidden).bytes).toBe(base);
    expect(cost(hidden, 1, { promo: "yes" }).bytes).toBeGreaterThan(base);
  });

  it("counts each copy a repeat draws: what each item's copy keeps adds up", () => {
    const slots = [
      { name: "team", type: "list" as const, fields: [{ name: "photo", type: "image" as const }] },
    ];
    const face = imageLayer({ id: "face", width: 40, height: 40, src: "", mask: { shape: "circle" } });
    const list = stackLayer({
      id: "team",
      width: 400,
      height: 600,
      repeat: { slot: "team", max: 12 },
      layers: [{ ...face, bind: { src: "item.photo" } }],
    });
    const doc = documentOf([list], { width: 400, height: 600, slots });
    const team = (n: number) => ({
      team: Array.from({ length: n }, (_, i) => ({ photo: `https://example.com/${i}.jpg` })),
    });
    const one = cost(doc, 1, team(1));
    const twelve = cost(doc, 1, team(12));
    const twenty = cost(doc, 1, team(20));
    // Each copy's composed pixels stay in the heap (the picture, its opaque twin, the mask's coverage).
    const keptPerCopy = 3 * 4 * 40 * 40;
    expect(twelve.images).toHaveLength(12);
    expect(twelve.imageBytes - one.imageBytes).toBe(11 * 4 * 40 * 40);
    expect(twelve.heapBytes - one.heapBytes).toBe(11 * keptPerCopy);
    // Past the repeat's max, no more copies are drawn.
    expect(twenty.bytes).toBe(twelve.bytes);
  });

  it("names the layer that weighs most, and a group's children by their own names", () => {
    const doc = frame([
      shapeLayer({ id: "background", width: 1200, height: 630 }),
      groupLayer({
        id: "group",
        width: 1200,
        height: 630,
        layers: [textLayer({ id: "small", text: "Small" }), { ...shadowed, id: "inner-shadowed" }],
      }),
    ]);
    const { layers } = cost(doc);
    expect(layers[0]).toMatchObject({ id: "inner-shadowed", path: "frames[0].layers[1].layers[1]" });
  });

  it("the shadowed text of issue 33 (8000x8000, size 2000, stroke 200, shadow blur 500) cannot be drawn at scale 2", () => {
    const doc = documentOf(
      [
        textLayer({
          id: "t",
          x: 0,
          y: 0,
          width: 8000,
          height: 8000,
          text: "HELLO WORLD HELLO WORLD",
          color: "#112233",
          fit: "shrink",
          font: { family: "Inter", size: 2000 },
          stroke: { width: 200, color: "#FF0000" },
          shadows: [{ x: 10, y: 10, blur: 500, color: "#000000" }],
        }),
      ],
      { width: 8000, height: 8000 },
    );
    const atTwo = cost(doc, 2);
    expect(atTwo.fitsHeap).toBe(false);
    expect(atTwo.layers[0]?.id).toBe("t");
    // Its text raster: the box and two font sizes plus the stroke on each side, 32,800 px square.
    expect(atTwo.layers[0]?.heapBytes).toBeGreaterThan(4 * 32_800 * 32_800);
    expect(atTwo.heapBytes + CANVASKIT_HEAP_BASE_BYTES).toBeGreaterThan(CANVASKIT_HEAP_LIMIT_BYTES);
    // At scale 1 a real draw grew CanvasKit's heap to 1,549 MB and peaked 2,850 MB over its start.
    const atOne = cost(doc, 1);
    expect(atOne.heapBytes).toBeGreaterThan(1_549 * 1e6 - CANVASKIT_HEAP_BASE_BYTES);
    expect(atOne.bytes).toBeGreaterThan(2_850 * 1e6);
    expect(cost(DOCUMENTS["plain card"] as TemplateDocumentT, 4).fitsHeap).toBe(true);
  });
});

const require = createRequire(import.meta.url);

/** A CanvasKit of its own, with a fresh heap, so a render's growth of it can be read. */
async function freshCanvasKit(): Promise<CanvasKit> {
  const init = require("canvaskit-wasm") as (options: CanvasKitInitOptions) => Promise<CanvasKit>;
  const bin = join(dirname(require.resolve("canvaskit-wasm/package.json")), "bin");
  return init({ locateFile: (file: string) => join(bin, file) });
}
const heapOf = (ck: CanvasKit) => (ck as unknown as { HEAPU8: Uint8Array }).HEAPU8.buffer.byteLength;

describe("the estimate bounds a real render's use of CanvasKit's heap", () => {
  const cases: [string, TemplateDocumentT, number][] = [
    ["shadowed text at scale 4", frame([shadowed]), 4],
    [
      "a large shape with a wide shadow",
      documentOf(
        [
          shapeLayer({
            id: "s",
            x: 200,
            y: 200,
            width: 2400,
            height: 1600,
            shadows: [{ x: 0, y: 20, blur: 200, color: "#00000088" }],
          }),
        ],
        { width: 2800, height: 2000 },
      ),
      2,
    ],
    [
      "a masked, filtered, bordered image at scale 2",
      documentOf(
        [
          imageLayer({
            id: "photo",
            src: "gradient:400x300",
            x: 0,
            y: 0,
            width: 2000,
            height: 1600,
            mask: { shape: "ellipse" },
            filters: { grayscale: 1 },
            border: { width: 8, color: "#FFFFFF" },
          }),
        ],
        { width: 2000, height: 1600 },
      ),
      2,
    ],
  ];
  it.each(cases)(
    "%s",
    async (_name, doc, scale) => {
      const ck = await freshCanvasKit();
      const engine = createEngine({
        canvasKit: ck,
        // As a render thread has them (deferred): the heap holds only the families this render loads.
        fonts: loadDeferredFontSet(),
        icons: await loadTestIcons(),
      });
      try {
        const images = prepareAll(engine.planImages(doc, { scale }));
        const before = heapOf(ck);
        engine.render(doc, { scale, images });
        const grown = heapOf(ck) - before;
        const estimate = cost(doc, scale);
        expect(grown, `${(grown / MB).toFixed(0)} MB grown`).toBeGreaterThan(0);
        expect(estimate.heapBytes).toBeGreaterThanOrEqual(grown);
      } finally {
        engine.dispose();
      }
    },
    60_000,
  );
});
