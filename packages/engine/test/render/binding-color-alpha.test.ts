import {
  CURRENT_VERSION,
  type Layer,
  migrateDocument,
  type SlotT,
  type TemplateDocumentT,
  validateDocument,
} from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { documentOf, imageLayer, shapeLayer, stackLayer, textLayer } from "../support/documents.ts";
import { testEngine } from "../support/engine.ts";
import { prepareAll } from "../support/images.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "binding-color-alpha";

// Four tints of one brand colour over a striped backdrop: the slot's colour as given (opaque, as a
// binding drew it before document v4; this document is written as v2, and migrating it says so), kept at the design colour's 40 % alpha, at an alpha of its own, and tinted
// toward white and black; a gradient stop bound with the design alpha.
const tints = () =>
  documentOf(
    [
      ...[0, 1, 2, 3].map((i) =>
        shapeLayer({ id: `stripe-${i}`, x: 0, y: i * 50, width: 420, height: 25, fill: "#0F172A" }),
      ),
      shapeLayer({
        id: "given",
        x: 10,
        y: 10,
        width: 70,
        height: 180,
        fill: "#FF000066",
        bind: { fill: "brand" },
      }),
      {
        ...shapeLayer({ id: "design-alpha", x: 90, y: 10, width: 70, height: 180, fill: "#FF000066" }),
        bind: { fill: "brand" },
        bind_colors: { fill: { alpha: "design" } },
      },
      {
        ...shapeLayer({ id: "own-alpha", x: 170, y: 10, width: 70, height: 180, fill: "#FF0000" }),
        bind: { fill: "brand" },
        bind_colors: { fill: { alpha: 0.7 } },
      },
      {
        ...shapeLayer({ id: "tints", x: 250, y: 10, width: 70, height: 85, fill: "#FF0000" }),
        bind: { fill: "brand" },
        bind_colors: { fill: { tint: 0.6 } },
      },
      {
        ...shapeLayer({ id: "shades", x: 250, y: 105, width: 70, height: 85, fill: "#FF0000" }),
        bind: { fill: "brand" },
        bind_colors: { fill: { tint: -0.5 } },
      },
      {
        ...textLayer({
          id: "fade",
          x: 330,
          y: 10,
          width: 80,
          height: 180,
          text: "Fade\nto\nblue",
          font: { family: "Inter", weight: 800, size: 26, line_height: 1.6 },
          color: {
            type: "linear",
            angle: 180,
            stops: [
              { offset: 0, color: "#FF0000" },
              { offset: 1, color: "#FF000033" },
            ],
          },
        }),
        bind: { "color.stops[1].color": "brand" },
        bind_colors: { "color.stops[1].color": { alpha: "design" } },
      },
    ],
    { width: 420, height: 200, background: "#F8FAFC", slots: [{ name: "brand", type: "color" }] },
  );

describe("alpha and tint on bound colours", () => {
  it("applies the binding's alpha (its own, or the design colour's) and tint to the slot's #RRGGBB", async () => {
    expect(validateDocument(tints()).ok).toBe(true);
    const values = { brand: "#2563EB" };
    await expectGolden(FEATURE, "tints", tints(), { values });
    await expectGolden(FEATURE, "tints-scale-2", tints(), { values, scale: 2 });
  });

  it("refuses options for a property that is not bound, or bound to a slot that is not a colour", () => {
    const doc = tints();
    const layers = doc.frames[0]?.layers ?? [];
    Object.assign(layers[4] as object, { bind_colors: { stroke: { alpha: 0.5 } } });
    const result = validateDocument(doc);
    expect(result.ok ? [] : result.errors).toEqual([
      {
        path: "frames[0].layers[4].bind_colors.stroke",
        message: '"stroke" is not bound: bind it to a colour slot first',
      },
    ]);
  });
});

describe("a binding without an alpha option (document v4)", () => {
  const asVersion = (version: number) => ({ ...tints(), version }) as unknown as TemplateDocumentT;
  const values = { brand: "#2563EB" };

  it('keeps the design colour\'s alpha: the unset column draws as the one that says "design"', async () => {
    const v4 = asVersion(CURRENT_VERSION);
    expect(validateDocument(v4).ok).toBe(true);
    await expectGolden(FEATURE, "default-design-alpha", v4, { values });
    await expectGolden(FEATURE, "default-design-alpha-scale-2", v4, { values, scale: 2 });
    // Column "given" (x 10..80) and column "design-alpha" (x 90..160) hold the same pixels, row by row.
    const { pixels, width } = (await testEngine()).render(v4, { values });
    for (const y of [12, 30, 60, 110, 187]) {
      for (const dx of [0, 35, 69]) {
        const at = (x: number) => Array.from(pixels.subarray((y * width + x) * 4, (y * width + x) * 4 + 4));
        expect(at(10 + dx), `y ${y}, dx ${dx}`).toEqual(at(90 + dx));
      }
    }
  });

  it("a v3 document, migrated, still draws the slot's colour opaque (the v2-written golden, byte for byte)", async () => {
    const v3 = asVersion(3);
    const migrated = migrateDocument(v3);
    if (!migrated.ok) throw new Error(JSON.stringify(migrated.errors));
    const layers = (migrated.document as TemplateDocumentT).frames[0]?.layers ?? [];
    expect(layers.map((layer) => ("bind_colors" in layer ? layer.bind_colors : undefined))).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      { fill: { alpha: 1 } },
      { fill: { alpha: "design" } },
      { fill: { alpha: 0.7 } },
      { fill: { alpha: 1, tint: 0.6 } },
      { fill: { alpha: 1, tint: -0.5 } },
      { "color.stops[1].color": { alpha: "design" } },
    ]);
    await expectGolden(FEATURE, "tints", v3, { values });
    await expectGolden(FEATURE, "tints-scale-2", v3, { values, scale: 2 });
  });
});

describe("bound colours inside a repeated stack", () => {
  // Each item's copy of the children: a panel bound to a colour slot (tinted), a bar bound to the
  // item's colour field (its own alpha) and a dot bound to it without options (the design's 40 %).
  // The same children in a stack that does not repeat, bound to slots holding the item's values,
  // draw what one item's copy draws.
  const children = (shade: string) => [
    {
      ...shapeLayer({ id: "panel", width: 60, height: 60, fill: "#FF0000" }),
      bind: { fill: "brand" },
      bind_colors: { fill: { tint: 0.6 } },
    },
    {
      ...shapeLayer({ id: "bar", width: 60, height: 60, fill: "#FF0000" }),
      bind: { fill: shade },
      bind_colors: { fill: { alpha: 0.5 } },
    },
    { ...shapeLayer({ id: "dot", width: 60, height: 60, fill: "#FF000066" }), bind: { fill: shade } },
  ];
  const slots: SlotT[] = [
    { name: "brand", type: "color" },
    { name: "shade", type: "color" },
    { name: "rows", type: "list", fields: [{ name: "shade", type: "color" }] },
  ];
  const stack = (repeat: boolean): TemplateDocumentT => ({
    ...documentOf(
      [
        stackLayer({
          id: "rows",
          x: 10,
          y: 10,
          width: 200,
          height: 60,
          direction: "row",
          gap: 10,
          ...(repeat ? { repeat: { slot: "rows", max: 1 } } : {}),
          layers: children(repeat ? "item.shade" : "shade") as Layer[],
        }),
      ],
      { width: 220, height: 80, background: "#F8FAFC", slots },
    ),
    version: CURRENT_VERSION,
  });
  const values = { brand: "#2563EB", shade: "#16A34A", rows: [{ shade: "#16A34A" }] };

  it("applies each binding's alpha and tint to a copy as to the designed layer", async () => {
    const check = validateDocument(stack(true));
    expect(check.ok ? [] : check.errors).toEqual([]);
    expect(validateDocument(stack(false)).ok).toBe(true);
    const engine = await testEngine();
    const repeated = engine.render(stack(true), { values }).pixels.slice();
    const { pixels: designed, width } = engine.render(stack(false), { values });
    const at = (pixels: Uint8Array, x: number) =>
      Array.from(pixels.subarray((40 * width + x) * 4, (40 * width + x) * 4 + 4));
    // Panel, bar and dot centres: tinted, at alpha 0.5, at the design's 40 % (over the light background).
    for (const x of [40, 110, 180]) expect(at(repeated, x), `x ${x}`).toEqual(at(designed, x));
    expect(at(designed, 180)).not.toEqual([0x16, 0xa3, 0x4a, 255]);
    expect(Buffer.compare(Buffer.from(repeated), Buffer.from(designed))).toBe(0);
  });
});

// Named inline styles and duotone filter colours bound to the brand slot, over a striped backdrop:
// "wash" (a 40 % literal background) and "ink" (a 50 % literal colour) set no alpha; "own" sets
// alpha 0.6 and a tint; a duotone's dark end bound as it is, and tinted toward white (in v4; a v3
// document's duotone options drew nothing, and migrating it drops them).
const stylesAndDuotone = (literal: (color: string) => string = (color) => color) => {
  const doc = documentOf(
    [
      ...[0, 1, 2].map((i) =>
        shapeLayer({ id: `stripe-${i}`, x: 0, y: 8 + i * 36, width: 420, height: 18, fill: "#0F172A" }),
      ),
      textLayer({
        id: "words",
        x: 10,
        y: 10,
        width: 220,
        height: 100,
        text: "",
        font: { family: "Inter", weight: 800, size: 26, line_height: 1.3 },
        color: "#0F172A",
        bind: { text: "words" },
      }),
      imageLayer({
        id: "duotone",
        src: "gradient:160x160",
        x: 240,
        y: 10,
        width: 80,
        height: 100,
        filters: { duotone: { dark: literal("#000000"), light: "#F1FAEE" } },
        bind: { "filters.duotone.dark": "brand" },
      }),
      {
        ...imageLayer({
          id: "duotone-tinted",
          src: "gradient:160x160",
          x: 330,
          y: 10,
          width: 80,
          height: 100,
          filters: { duotone: { dark: literal("#000000"), light: "#F1FAEE" } },
        }),
        bind: { "filters.duotone.dark": "brand" },
        bind_colors: { "filters.duotone.dark": { tint: 0.5 } },
      },
    ],
    {
      width: 420,
      height: 120,
      background: "#F8FAFC",
      slots: [
        { name: "brand", type: "color" },
        { name: "words", type: "text", rich: true },
      ],
    },
  );
  return {
    ...doc,
    inline_styles: {
      wash: { background: literal("#FF000066"), bind: { background: "brand" } },
      ink: { color: literal("#FF000080"), bind: { color: "brand" } },
      own: {
        color: literal("#FF0000"),
        bind: { color: "brand" },
        bind_colors: { color: { alpha: 0.6, tint: 0.3 } },
      },
    },
  } as TemplateDocumentT;
};

describe("bound colours of named inline styles and duotone filters", () => {
  const values = {
    brand: "#2563EB",
    words: "<wash>Wash</wash> <ink>Ink</ink>\n<own>Own</own> <wash><ink>both</ink></wash>",
  };
  const asVersion = (doc: TemplateDocumentT, version: number) => ({ ...doc, version }) as TemplateDocumentT;

  it("keep the literal colour's alpha by default, or apply the alpha and tint the style or layer sets", async () => {
    const v4 = asVersion(stylesAndDuotone(), CURRENT_VERSION);
    expect(validateDocument(v4).ok).toBe(true);
    await expectGolden(FEATURE, "styles-duotone", v4, { values });
    await expectGolden(FEATURE, "styles-duotone-scale-2", v4, { values, scale: 2 });
  });

  it("a v3 document, migrated, draws them opaque and the duotone untinted: as v3 drew them", async () => {
    const v3 = asVersion(stylesAndDuotone(), 3);
    const migrated = migrateDocument(v3);
    if (!migrated.ok) throw new Error(JSON.stringify(migrated.errors));
    const document = migrated.document as TemplateDocumentT;
    expect(document.inline_styles).toMatchObject({
      wash: { bind_colors: { background: { alpha: 1 } } },
      ink: { bind_colors: { color: { alpha: 1 } } },
      own: { bind_colors: { color: { alpha: 0.6, tint: 0.3 } } },
    });
    // Version 3 applied no duotone options: the tint becomes alpha 1, what it drew.
    expect(document.frames[0]?.layers[5]).toMatchObject({
      bind_colors: { "filters.duotone.dark": { alpha: 1 } },
    });
    await expectGolden(FEATURE, "styles-duotone-v3", v3, { values });
    await expectGolden(FEATURE, "styles-duotone-v3-scale-2", v3, { values, scale: 2 });
    // What v3 drew: the slot's #RRGGBB opaque, the same pixels as that colour written as the literal.
    const engine = await testEngine();
    for (const scale of [1, 2]) {
      const opaque = asVersion(
        stylesAndDuotone(() => "#2563EB"),
        CURRENT_VERSION,
      );
      const tinted = opaque.frames[0]?.layers[5] as { bind_colors?: unknown } | undefined;
      delete tinted?.bind_colors;
      // A render's pixels are the engine's buffer, overwritten by the next render: copied.
      const drawing = (doc: TemplateDocumentT) => {
        const images = prepareAll(engine.planImages(doc, { values, scale }));
        const result = engine.render(doc, { values, scale, images });
        return { pixels: result.pixels.slice(), warnings: result.warnings };
      };
      const expected = drawing(opaque);
      const drawn = drawing(document);
      expect(drawn.warnings, `scale ${scale}`).toEqual(expected.warnings);
      const differing = drawn.pixels.findIndex((byte, i) => byte !== expected.pixels[i]);
      expect(differing, `scale ${scale}`).toBe(-1);
    }
  });

  it("refuse options for a style colour that is not bound, and a duotone alpha below 1", () => {
    const doc = asVersion(stylesAndDuotone(), CURRENT_VERSION) as TemplateDocumentT & {
      inline_styles: Record<string, Record<string, unknown>>;
    };
    Object.assign(doc.inline_styles.wash as object, { bind_colors: { color: { alpha: 0.5 } } });
    const layers = doc.frames[0]?.layers ?? [];
    Object.assign(layers[5] as object, { bind_colors: { "filters.duotone.dark": { alpha: 0.5 } } });
    const result = validateDocument(doc);
    expect(result.ok ? [] : result.errors).toEqual([
      {
        path: 'frames[0].layers[5].bind_colors["filters.duotone.dark"].alpha',
        message: 'must be 1 or "design": duotone colours are opaque (use a tint)',
      },
      {
        path: "inline_styles.wash.bind_colors.color",
        message: '"color" is not bound: bind it to a colour slot first',
      },
    ]);
  });
});
