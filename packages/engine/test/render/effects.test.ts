import { BLEND_MODES, createEngine, type Layer, validateDocument } from "@pictor/engine";
import { loadFontSet } from "@pictor/fonts";
import { describe, expect, it } from "vitest";
import { loadCanvasKit } from "../support/canvaskit.ts";
import {
  documentOf,
  groupLayer,
  panelOverWords,
  shapeLayer,
  slateToIndigo,
  textLayer,
} from "../support/documents.ts";
import { testEngine } from "../support/engine.ts";
import { codes, expectGolden } from "../support/render.ts";

const FEATURE = "effects";

const shadowed = (): Layer[] => [
  shapeLayer({
    id: "card",
    x: 30,
    y: 30,
    width: 120,
    height: 120,
    corner_radius: 16,
    fill: "#FFFFFF",
    shadows: [{ x: 0, y: 8, blur: 16, color: "#0F172A66" }],
  }),
  shapeLayer({
    id: "two",
    shape: "ellipse",
    x: 180,
    y: 40,
    width: 90,
    height: 90,
    fill: "#F59E0B",
    opacity: 0.8,
    shadows: [
      { x: -10, y: 0, blur: 0, color: "#2563EB" },
      { x: 10, y: 10, blur: 6, color: "#DC2626AA" },
    ],
  }),
  textLayer({
    id: "title",
    x: 290,
    y: 50,
    width: 100,
    height: 100,
    text: "Hi!",
    color: "#FFFFFF",
    font: { family: "Inter", weight: 700, size: 48 },
    shadows: [{ x: 3, y: 3, blur: 0, color: "#000000" }],
  }),
];

const blends = (): Layer[] =>
  BLEND_MODES.map((mode, i) =>
    shapeLayer({
      id: `b-${mode}`,
      shape: "ellipse",
      x: 8 + (i % 8) * 49,
      y: 20 + Math.floor(i / 8) * 90,
      width: 60,
      height: 60,
      fill: "#3B82F6",
      blend_mode: mode,
    }),
  );

const stripes = (): Layer[] =>
  [0, 1, 2, 3].map((i) =>
    shapeLayer({
      id: `s${i}`,
      x: 0,
      y: i * 50,
      width: 400,
      height: 50,
      fill: ["#F43F5E", "#FACC15", "#22C55E", "#1E293B"][i],
    }),
  );

const flipped = (): Layer[] => [
  textLayer({
    id: "plain",
    x: 10,
    y: 20,
    width: 180,
    height: 60,
    text: "Mirror",
    font: { family: "Inter", size: 40 },
  }),
  textLayer({
    id: "x",
    x: 210,
    y: 20,
    width: 180,
    height: 60,
    text: "Mirror",
    font: { family: "Inter", size: 40 },
    flip_x: true,
  }),
  shapeLayer({
    id: "tri",
    x: 10,
    y: 100,
    width: 180,
    height: 80,
    fill: "#0EA5E9",
    corner_radius: [40, 0, 0, 0],
  }),
  shapeLayer({
    id: "tri-y",
    x: 210,
    y: 100,
    width: 180,
    height: 80,
    fill: "#0EA5E9",
    corner_radius: [40, 0, 0, 0],
    flip_y: true,
  }),
];

describe("layer effects", () => {
  it("draws drop shadows beneath shapes and text, several stacked first lowest, with opacity", async () => {
    const doc = documentOf(shadowed(), { background: "#E2E8F0" });
    await expectGolden(FEATURE, "shadows", doc);
    await expectGolden(FEATURE, "shadows-scale-2", doc, { scale: 2 });
  });

  it("draws an unbound shadowed shape the same from its kept raster as the first time, at any scale", async () => {
    // The panel goes through a raster the engine keeps (render/layer-rasters.ts); a bound copy of it
    // is drawn directly every time. A fresh engine with no room for rasters draws each once more.
    const layers = shadowed().slice(0, 2);
    const document = documentOf(layers);
    const kit = await loadCanvasKit();
    const fonts = await loadFontSet();
    const cold = createEngine({ canvasKit: kit, fonts, cacheBytes: { layerRasters: 0 } });
    const warm = await testEngine();
    for (const scale of [1, 2, 1.5]) {
      const first = Uint8Array.from(warm.render(document, { scale }).pixels);
      const again = Uint8Array.from(warm.render(document, { scale }).pixels);
      const uncached = Uint8Array.from(cold.render(document, { scale }).pixels);
      expect(Buffer.compare(Buffer.from(again), Buffer.from(first)), `scale ${scale}, kept raster`).toBe(0);
      expect(
        Buffer.compare(Buffer.from(uncached), Buffer.from(first)),
        `scale ${scale}, no raster kept`,
      ).toBe(0);
    }
    cold.dispose();
  });

  it("draws a kept raster over varying layers beneath it the same as a fresh engine does", async () => {
    // Where no earlier layer may have drawn, the engine copies the raster as it lies over the
    // background (render/underlay.ts); where one may have, it blends. An engine keeping no raster
    // blends everywhere: the bytes must be the same, whatever the text beneath and wherever it is.
    const gradient = slateToIndigo();
    const documents = {
      "text beneath, gradient": panelOverWords(gradient),
      "text beneath, solid": panelOverWords("#F8FAFC"),
      "turned layer beneath": panelOverWords(gradient, { rotation: 10 }),
      "hidden layer beneath": panelOverWords(gradient, { visible_when: { slot: "words", equals: "show" } }),
      "translucent background": panelOverWords("#F8FAFC80"),
    };
    const kit = await loadCanvasKit();
    const fonts = await loadFontSet();
    const cold = createEngine({ canvasKit: kit, fonts, cacheBytes: { layerRasters: 0 } });
    const warm = await testEngine();
    for (const [name, document] of Object.entries(documents)) {
      for (const words of ["show", "Words under the panel", "", "A longer text that wraps under it"]) {
        for (const scale of [1, 2]) {
          const kept = Uint8Array.from(warm.render(document, { scale, values: { words } }).pixels);
          const fresh = cold.render(document, { scale, values: { words } }).pixels;
          expect(
            Buffer.compare(Buffer.from(kept), Buffer.from(fresh)),
            `${name}, "${words}", x${scale}`,
          ).toBe(0);
        }
      }
    }
    cold.dispose();
  });

  it("casts one shadow for a whole group", async () => {
    const doc = documentOf(
      [
        groupLayer({
          id: "g",
          x: 40,
          y: 40,
          width: 200,
          height: 120,
          shadows: [{ x: 6, y: 6, blur: 10, color: "#00000080" }],
          layers: [
            shapeLayer({ id: "a", x: 0, y: 0, width: 120, height: 120, fill: "#22C55E" }),
            shapeLayer({ id: "b", shape: "ellipse", x: 80, y: 0, width: 120, height: 120, fill: "#EAB308" }),
          ],
        }),
      ],
      { background: "#FFFFFF" },
    );
    await expectGolden(FEATURE, "group-shadow", doc);
    await expectGolden(FEATURE, "group-shadow-scale-2", doc, { scale: 2 });
  });

  it("composites with every blend mode", async () => {
    const doc = documentOf([...stripes(), ...blends()]);
    await expectGolden(FEATURE, "blend-modes", doc);
    await expectGolden(FEATURE, "blend-modes-scale-2", doc, { scale: 2 });
  });

  it("mirrors layers with flip_x and flip_y", async () => {
    const doc = documentOf(flipped());
    await expectGolden(FEATURE, "flip", doc);
    await expectGolden(FEATURE, "flip-scale-2", doc, { scale: 2 });
  });

  it("rejects an unknown blend mode and a negative blur with their JSON paths", () => {
    const doc = documentOf([
      shapeLayer({
        id: "x",
        blend_mode: "burn" as never,
        shadows: [{ x: 0, y: 0, blur: -1, color: "#000000" }],
      }),
    ]);
    const result = validateDocument(doc);
    const paths = result.ok ? [] : result.errors.map((e) => e.path);
    expect(paths).toEqual(
      ["frames[0].layers[0].shadows[0].blur", "frames[0].layers[0].blend_mode"].sort(
        (a, b) => paths.indexOf(a) - paths.indexOf(b),
      ),
    );
    expect(paths).toHaveLength(2);
  });
});

describe("visible_when", () => {
  const conditional = () => {
    const doc = documentOf(
      [
        shapeLayer({
          id: "badge",
          x: 20,
          y: 20,
          width: 100,
          height: 100,
          fill: "#DC2626",
          visible_when: { slot: "badge", is: "non_empty" },
        }),
        textLayer({
          id: "label",
          x: 20,
          y: 130,
          width: 300,
          height: 50,
          text: "x",
          bind: { text: "badge" },
          visible_when: { slot: "badge", is: "non_empty" },
        }),
        shapeLayer({
          id: "empty",
          x: 140,
          y: 20,
          width: 100,
          height: 100,
          fill: "#16A34A",
          visible_when: { slot: "badge", is: "empty" },
        }),
        shapeLayer({
          id: "pro",
          x: 260,
          y: 20,
          width: 100,
          height: 100,
          fill: "#7C3AED",
          visible_when: { slot: "plan", equals: "pro" },
        }),
        groupLayer({
          id: "photo-group",
          visible_when: { slot: "plan", equals: "pro" },
          layers: [
            {
              id: "photo",
              type: "image",
              x: 0,
              y: 0,
              width: 50,
              height: 50,
              src: "",
              bind: { src: "photo" },
            },
          ],
        }),
      ],
      {
        slots: [
          { name: "badge", type: "text", default: "" },
          { name: "plan", type: "text" },
          { name: "photo", type: "image", default: "gradient:100x100" },
        ],
      },
    );
    expect(validateDocument(doc).ok).toBe(true);
    return doc;
  };

  it("hides layers whose condition fails: no pixels, no warnings, no image planned", async () => {
    const doc = conditional();
    const hidden = await expectGolden(FEATURE, "visible-when-empty", doc, { values: {} });
    expect(codes(hidden.warnings)).toEqual([]);
    const engine = await testEngine();
    expect(engine.planImages(doc, { values: { plan: "free" } })).toEqual([]);
    expect(engine.planImages(doc, { values: { plan: "pro" } })).toHaveLength(1);
  });

  it("shows layers whose condition holds", async () => {
    const doc = conditional();
    await expectGolden(FEATURE, "visible-when-given", doc, { values: { badge: "NEW", plan: "pro" } });
    await expectGolden(FEATURE, "visible-when-given-scale-2", doc, {
      values: { badge: "NEW", plan: "pro" },
      scale: 2,
    });
  });

  it("reports a condition on a missing slot with its JSON path", () => {
    const doc = documentOf([shapeLayer({ id: "x", visible_when: { slot: "bdge", is: "empty" } })], {
      slots: [{ name: "badge", type: "text" }],
    });
    const result = validateDocument(doc);
    expect(result.ok ? [] : result.errors).toEqual([
      {
        path: "frames[0].layers[0].visible_when.slot",
        message: 'slot "bdge" does not exist (did you mean "badge"?)',
      },
    ]);
  });
});
