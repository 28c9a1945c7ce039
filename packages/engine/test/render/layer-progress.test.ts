import { checkRenderValues, type ProgressLayerT, type SlotT, validateDocument } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { documentOf } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "layer-progress";

function progressLayer(fields: Partial<ProgressLayerT>): ProgressLayerT {
  return { id: "progress", type: "progress", x: 20, y: 20, width: 200, height: 20, value: 72, ...fields };
}

const LABEL_FONT = { family: "Inter", weight: 700, size: 13 };
const labelFont = () => ({ ...LABEL_FONT });

const SUNSET = {
  type: "linear" as const,
  angle: 90,
  stops: [
    { offset: 0, color: "#F59E0B" },
    { offset: 1, color: "#DC2626" },
  ],
};

/**
 * Bars: 0, 35, 72, 100 of 0..100, below min (-10: no fill) and above max (120: full, label "120%"),
 * a value shorter than the bar is high (3: a lens in the rounded start), square ends, no track, a
 * gradient fill, a bound track colour, labels left, centred and right, a value label with prefix and
 * decimals on a range of 0..50,000, rotation, a label at the fill's end inside it and after it.
 */
function barsDocument() {
  const column = (i: number) => 20 + (i % 2) * 240;
  const row = (i: number) => 16 + Math.floor(i / 2) * 36;
  const bars: Partial<ProgressLayerT>[] = [
    { value: 0 },
    { value: 35 },
    { value: 72, label: { font: LABEL_FONT, color: "#FFFFFF", align: "left" } },
    { value: 100, label: { font: LABEL_FONT, color: "#FFFFFF" } },
    { value: -10, label: { font: LABEL_FONT, align: "right" } },
    { value: 120, fill: "#16A34A", label: { font: LABEL_FONT, color: "#FFFFFF" } },
    { value: 3 },
    { value: 60, rounded: false, fill: "#7C3AED", track: "#EDE9FE" },
    { value: 45, track: null, fill: SUNSET },
    { value: 80, fill: SUNSET, bind: { track: "brand" } },
    {
      value: 36_250.5,
      min: 0,
      max: 50_000,
      height: 26,
      label: {
        font: LABEL_FONT,
        content: "value",
        prefix: "$",
        suffix: " raised",
        decimals: 1,
        align: "left",
      },
      fill: "#0EA5E9",
      track: "#0C4A6E",
    },
    { value: 55, rotation: -6, height: 14 },
    { value: 64, fill: "#0F766E", label: { font: LABEL_FONT, color: "#FFFFFF", align: "end" } },
    { value: 12, fill: "#0F766E", label: { font: LABEL_FONT, color: "#0F766E", align: "end" } },
  ];
  // Each layer its own copy: a document is a JSON tree, never shared objects.
  const layers = bars.map((fields, i) =>
    progressLayer({ id: `bar-${i}`, x: column(i), y: row(i), ...structuredClone(fields) }),
  );
  const doc = documentOf(layers, {
    width: 480,
    height: 272,
    slots: [{ name: "brand", type: "color", default: "#FDE68A" }],
  });
  const validated = validateDocument(doc);
  expect(validated.ok ? [] : validated.errors).toEqual([]);
  return doc;
}

/**
 * Rings: 0, 25, 72 (label), 100 (full, no caps), 150 (clamped), square ends, a thick ring, a gradient
 * fill with no track, a ring in a wide box (centred), a ring on -50..50.
 */
function ringsDocument() {
  const rings: Partial<ProgressLayerT>[] = [
    { value: 0 },
    { value: 25 },
    { value: 72, label: { font: { family: "Inter", weight: 700, size: 18 } } },
    { value: 100, fill: "#16A34A" },
    { value: 150, label: { font: LABEL_FONT } },
    { value: 40, rounded: false },
    { value: 66, thickness: 28, fill: "#E11D48", track: "#FFE4E6" },
    { value: 85, fill: SUNSET, track: null, thickness: 14 },
    { value: 50, width: 110, height: 70, label: { font: LABEL_FONT } },
    { value: 10, min: -50, max: 50, label: { font: LABEL_FONT, content: "value" } },
  ];
  const layers = rings.map((fields, i) =>
    progressLayer({
      id: `ring-${i}`,
      shape: "ring",
      x: 16 + (i % 5) * 92,
      y: 16 + Math.floor(i / 5) * 96,
      width: 80,
      height: 80,
      ...structuredClone(fields),
    }),
  );
  const doc = documentOf(layers, { width: 480, height: 208 });
  const validated = validateDocument(doc);
  expect(validated.ok ? [] : validated.errors).toEqual([]);
  return doc;
}

describe("progress layers", () => {
  it("draws bars: clamped values, rounded and square ends, tracks, gradients and labels", async () => {
    const result = await expectGolden(FEATURE, "bars", barsDocument());
    expect(result.warnings).toEqual([
      { code: "slot_default_used", slot: "brand", layer: "bar-9", message: expect.any(String) },
    ]);
    await expectGolden(FEATURE, "bars-2x", barsDocument(), { scale: 2 });
  });

  it("draws rings from the top, clockwise: clamped values, caps, thickness, gradients and labels", async () => {
    await expectGolden(FEATURE, "rings", ringsDocument());
    await expectGolden(FEATURE, "rings-2x", ringsDocument(), { scale: 2 });
  });

  it("takes a bound fill colour from the request", async () => {
    const doc = documentOf([progressLayer({ bind: { fill: "brand" } })], {
      width: 240,
      height: 60,
      slots: [{ name: "brand", type: "color" }],
    });
    expect(validateDocument(doc).ok).toBe(true);
    await expectGolden(FEATURE, "bound-fill", doc, { values: { brand: "#DB2777" } });
  });
});

describe("progress design validation", () => {
  const errorsOf = (...layers: ProgressLayerT[]) => {
    const result = validateDocument(documentOf(layers));
    return result.ok ? [] : result.errors.map((e) => [e.path, e.message]);
  };

  it("refuses a max not above min and a thickness on a bar", () => {
    expect(
      errorsOf(
        progressLayer({ id: "a", min: 10, max: 10 }),
        progressLayer({ id: "b", min: 5, max: 1 }),
        progressLayer({ id: "c", thickness: 4 }),
        progressLayer({ id: "d", shape: "ring", thickness: 4 }),
      ),
    ).toEqual([
      ["frames[0].layers[0].max", "must be greater than min (10)"],
      ["frames[0].layers[1].max", "must be greater than min (5)"],
      ["frames[0].layers[2].thickness", 'applies to shape "ring" only (a bar is its box)'],
    ]);
  });

  it("refuses a value that is not a number, an unknown shape and a label without a font", () => {
    const paths = errorsOf(
      progressLayer({ id: "a", value: "72" as unknown as number }),
      progressLayer({ id: "b", shape: "pie" as "ring" }),
      progressLayer({ id: "c", label: {} as ProgressLayerT["label"] }),
    ).map(([path]) => path);
    expect(paths).toEqual([
      "frames[0].layers[0].value",
      "frames[0].layers[1].shape",
      "frames[0].layers[2].label.font",
    ]);
  });
});

describe("progress bound to number slots", () => {
  const slots: SlotT[] = [
    { name: "raised", type: "number", min: 0 },
    { name: "goal", type: "number", default: 50_000 },
    { name: "floor", type: "number" },
  ];
  const doc = () => {
    const bar = (id: string, y: number, value: number) =>
      progressLayer({
        id,
        y,
        width: 360,
        height: 24,
        value,
        max: 100,
        bind: { value: "raised", max: "goal" },
        label: { font: labelFont(), color: "#FFFFFF", align: "end" },
      });
    const document = documentOf(
      [
        bar("bar", 16, 10),
        progressLayer({
          id: "ring",
          shape: "ring",
          x: 400,
          y: 8,
          width: 64,
          height: 64,
          value: 10,
          bind: { value: "raised", max: "goal", min: "floor" },
          label: { font: labelFont() },
        }),
      ],
      { width: 480, height: 80, slots },
    );
    const validated = validateDocument(document);
    expect(validated.ok ? [] : validated.errors).toEqual([]);
    return document;
  };

  it("fills to the request's number against a bound max (the slot's default when not given)", async () => {
    const result = await expectGolden(FEATURE, "bound-numbers", doc(), { values: { raised: 36_250 } });
    expect(result.warnings.map((w) => [w.code, w.slot])).toEqual([["slot_default_used", "goal"]]);
    // The same render with the numbers given: the same pixels.
    await expectGolden(FEATURE, "bound-numbers", doc(), { values: { raised: 7250, goal: 10_000 } });
  });

  it("refuses a bound range that is empty before rendering, naming the slot", () => {
    expect(checkRenderValues(doc(), undefined, { raised: 5, goal: 40_000 })).toEqual([]);
    expect(checkRenderValues(doc(), undefined, { goal: 0 })).toEqual([
      {
        path: "values.goal",
        slot: "goal",
        kind: "invalid",
        message: "must be greater than the progress layer's min (0)",
      },
      {
        path: "values.goal",
        slot: "goal",
        kind: "invalid",
        message: "must be greater than the progress layer's min (0)",
      },
    ]);
    expect(checkRenderValues(doc(), undefined, { floor: 60_000 })).toEqual([
      {
        path: "values.floor",
        slot: "floor",
        kind: "invalid",
        message: "must be less than the progress layer's max (50000)",
      },
    ]);
  });

  it("refuses a binding to a slot of another type, and a number slot for a paint", () => {
    const result = validateDocument(
      documentOf(
        [
          progressLayer({ id: "a", bind: { value: "title" } }),
          progressLayer({ id: "b", bind: { fill: "raised" } }),
        ],
        { slots: [{ name: "title", type: "text" }, ...slots] },
      ),
    );
    expect(result.ok ? [] : result.errors.map((e) => e.path)).toEqual([
      "frames[0].layers[0].bind.value",
      "frames[0].layers[1].bind.fill",
    ]);
  });
});

describe("progress labels in a locale", () => {
  it("writes the share and the value through a format: en, de-DE and ar-EG digits and signs", async () => {
    const bar = (id: string, y: number, label: Partial<NonNullable<ProgressLayerT["label"]>>) =>
      progressLayer({
        id,
        y,
        width: 300,
        height: 22,
        value: 36_250.5,
        max: 50_000,
        label: { font: labelFont(), color: "#FFFFFF", align: "end", ...label },
      });
    const doc = documentOf(
      [
        bar("en", 10, { format: { decimals: 1 } }),
        bar("de", 40, { format: { locale: "de-DE", decimals: 1 } }),
        bar("ar", 70, { format: { locale: "ar-EG", decimals: 1 } }),
        bar("de-eur", 100, {
          content: "value",
          format: { locale: "de-DE", style: "currency", currency: "EUR" },
        }),
        bar("ar-egp", 130, { content: "value", format: { locale: "ar-EG", style: "compact" } }),
        progressLayer({
          id: "ring",
          shape: "ring",
          x: 330,
          y: 10,
          width: 140,
          height: 140,
          value: 0.725,
          max: 1,
          label: { font: { family: "Inter", weight: 700, size: 24 }, format: { locale: "ar-EG" } },
        }),
      ],
      { width: 480, height: 162 },
    );
    const validated = validateDocument(doc);
    expect(validated.ok ? [] : validated.errors).toEqual([]);
    const result = await expectGolden(FEATURE, "formats", doc);
    expect(result.warnings).toEqual([]);
  });

  it("refuses a format beside decimals, prefix or suffix, and a locale without formats", () => {
    const result = validateDocument(
      documentOf([
        progressLayer({
          label: { font: labelFont(), decimals: 1, suffix: "!", format: { locale: "xx-YY" } },
        }),
      ]),
    );
    expect(result.ok ? [] : result.errors.map((e) => e.path)).toEqual([
      "frames[0].layers[0].label.format.locale",
      "frames[0].layers[0].label.decimals",
      "frames[0].layers[0].label.suffix",
    ]);
  });
});
