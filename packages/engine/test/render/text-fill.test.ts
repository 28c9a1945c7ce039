import type { TextLayerT } from "@pictor/engine";
import { validateDocument } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { documentOf, shapeLayer, textLayer } from "../support/documents.ts";
import { testEngine } from "../support/engine.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "text-fill";
const box = { x: 20, y: 20, width: 360, height: 120 };

function fillDocument(text: string, extra: Partial<TextLayerT> = {}) {
  return documentOf(
    [
      shapeLayer({ id: "box", ...box, fill: "#EEF3F8" }),
      textLayer({
        id: "headline",
        text,
        ...box,
        fit: "fill",
        vertical_align: "middle",
        font: { family: "Inter", size: 24, weight: 700 },
        ...extra,
      }),
    ],
    { height: 160 },
  );
}

async function pixelsOf(doc: ReturnType<typeof fillDocument>): Promise<Buffer> {
  const engine = await testEngine();
  return Buffer.from(engine.render(doc, {}).pixels); // a copy: the engine reuses its buffer
}

describe("fit fill: grow up to max_size, shrink down to min_size", () => {
  it("grows short text to fill the box, without a warning", async () => {
    const result = await expectGolden(FEATURE, "grown", fillDocument("Big news"));
    expect(result.warnings).toEqual([]);
    await expectGolden(FEATURE, "grown-scale-2", fillDocument("Big news"), { scale: 2 });
    const designSize = await pixelsOf(fillDocument("Big news", { fit: "none" }));
    expect(Buffer.compare(await pixelsOf(fillDocument("Big news")), designSize)).not.toBe(0);
  });

  it("grows no further than max_size (default: one line as tall as the box)", async () => {
    const capped = await pixelsOf(fillDocument("Hi", { max_size: 24 }));
    expect(Buffer.compare(capped, await pixelsOf(fillDocument("Hi", { fit: "none" })))).toBe(0);
    // The 120 px box at line height 1.2 holds one line of 100 px: the default cap, and "Hi" reaches it.
    const byDefault = await pixelsOf(fillDocument("Hi"));
    const explicit = await pixelsOf(
      fillDocument("Hi", { fit: "none", font: { family: "Inter", size: 100, weight: 700 } }),
    );
    expect(Buffer.compare(byDefault, explicit)).toBe(0);
    expect(Buffer.compare(await pixelsOf(fillDocument("Hi", { max_size: 300 })), explicit)).toBe(0);
    await expectGolden(FEATURE, "max-size", fillDocument("Hi", { max_size: 90 }));
  });

  it("shrinks text too long for the box, as fit shrink does", async () => {
    const long = "Our biggest summer sale ever starts this Friday at noon, with free delivery on every order";
    const result = await expectGolden(
      FEATURE,
      "shrunk",
      fillDocument(long, { font: { family: "Inter", size: 30, weight: 700 } }),
    );
    expect(result.warnings.map((w) => w.code)).toEqual(["text_shrunk"]);
    const asShrink = await pixelsOf(
      fillDocument(long, { fit: "shrink", font: { family: "Inter", size: 30, weight: 700 } }),
    );
    expect(
      Buffer.compare(
        await pixelsOf(fillDocument(long, { font: { family: "Inter", size: 30, weight: 700 } })),
        asShrink,
      ),
    ).toBe(0);
  });

  it("refuses a max_size below the font size, with its JSON path", () => {
    const result = validateDocument(fillDocument("x", { max_size: 12 }));
    expect(result.ok ? [] : result.errors.map((e) => [e.path, e.message])).toEqual([
      ["frames[0].layers[1].max_size", "must be >= font.size (24)"],
    ]);
  });
});

const spaced = () =>
  documentOf(
    [
      textLayer({
        id: "spaced",
        x: 20,
        y: 16,
        width: 170,
        height: 230,
        text: "First paragraph wraps over two lines.\nSecond one.\n\nAfter an empty line.",
        font: { family: "Inter", size: 18 },
        paragraph_spacing: 14,
        highlight: { color: "#FEF08A", padding: 2 },
      }),
      textLayer({
        id: "plain",
        x: 210,
        y: 16,
        width: 170,
        height: 230,
        text: "First paragraph wraps over two lines.\nSecond one.\n\nAfter an empty line.",
        font: { family: "Inter", size: 18 },
        highlight: { color: "#FEF08A", padding: 2 },
      }),
      textLayer({
        id: "middle",
        x: 20,
        y: 250,
        width: 360,
        height: 120,
        text: "Centred\nwith spacing",
        font: { family: "Inter", size: 22, weight: 700 },
        paragraph_spacing: 20,
        vertical_align: "middle",
        align: "center",
        color: {
          type: "linear",
          angle: 180,
          stops: [
            { offset: 0, color: "#2563EB" },
            { offset: 1, color: "#DB2777" },
          ],
        },
        stroke: { width: 1, color: "#0F172A" },
      }),
      textLayer({
        id: "cut",
        x: 20,
        y: 380,
        width: 360,
        height: 56,
        text: "One\nTwo is cut: the gap pushes it out",
        font: { family: "Inter", size: 20 },
        paragraph_spacing: 12,
      }),
    ],
    { height: 450, background: "#FFFFFF" },
  );

describe("paragraph spacing", () => {
  it("adds space after each line break, moving highlights, alignment and gradients along", async () => {
    const result = await expectGolden(FEATURE, "paragraph-spacing", spaced());
    await expectGolden(FEATURE, "paragraph-spacing-scale-2", spaced(), { scale: 2 });
    // Two lines of 24 px fit the 56 px box without spacing; with 12 px after the break only one does.
    expect(result.warnings.map((w) => [w.code, w.layer])).toEqual([["text_truncated", "cut"]]);
  });

  it("draws exactly as before when the spacing is 0", async () => {
    const doc = spaced();
    const zero = spaced();
    for (const layer of zero.frames[0]?.layers ?? []) if (layer.type === "text") layer.paragraph_spacing = 0;
    for (const layer of doc.frames[0]?.layers ?? [])
      if (layer.type === "text") delete layer.paragraph_spacing;
    expect(Buffer.compare(await pixelsOf(zero), await pixelsOf(doc))).toBe(0);
  });
});
