import { validateDocument } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { documentOf, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "text-styles";
const bold = { family: "Inter", weight: 700, size: 44 } as const;

const styled = () =>
  documentOf(
    [
      textLayer({
        id: "outlined",
        x: 16,
        y: 10,
        width: 368,
        height: 60,
        text: "OUTLINED",
        color: "#FFE600",
        font: bold,
        stroke: { width: 4, color: "#000000" },
        shadows: [{ x: 0, y: 4, blur: 6, color: "#00000099" }],
      }),
      textLayer({
        id: "gradient",
        x: 16,
        y: 72,
        width: 368,
        height: 60,
        text: "Gradient text",
        font: bold,
        color: {
          type: "linear",
          angle: 90,
          stops: [
            { offset: 0, color: "#FF0066" },
            { offset: 1, color: "#2563EB" },
          ],
        },
      }),
      textLayer({
        id: "highlight",
        x: 24,
        y: 140,
        width: 360,
        height: 110,
        text: "Highlighted caption\nper line",
        color: "#FFFFFF",
        font: { family: "Inter", size: 28 },
        highlight: { color: "#E11D48", padding: 6, corner_radius: 6 },
      }),
      textLayer({
        id: "decorated",
        x: 16,
        y: 262,
        width: 368,
        height: 40,
        text: "underline and strike",
        font: { family: "Inter", size: 26 },
        underline: true,
        strikethrough: true,
      }),
    ],
    { width: 400, height: 310, background: "#E2E8F0" },
  );

const cases = () =>
  documentOf(
    (["none", "uppercase", "lowercase", "title"] as const).map((transform, i) =>
      textLayer({
        id: `case-${transform}`,
        x: 16,
        y: 10 + i * 45,
        width: 368,
        height: 40,
        text: "the quick BROWN fox-trot don't",
        font: { family: "Inter", size: 24 },
        transform,
      }),
    ),
  );

describe("text styles", () => {
  it("draws outlines, gradient fills, per-line highlights, underline and strike-through", async () => {
    await expectGolden(FEATURE, "styles", styled());
    await expectGolden(FEATURE, "styles-scale-2", styled(), { scale: 2 });
  });

  it("changes letter case: none, uppercase, lowercase, title", async () => {
    await expectGolden(FEATURE, "letter-case", cases());
    await expectGolden(FEATURE, "letter-case-scale-2", cases(), { scale: 2 });
  });

  it("binds the outline and highlight colours, and refuses them without an outline or highlight", async () => {
    const doc = documentOf(
      [
        textLayer({
          id: "bound",
          text: "Brand",
          font: bold,
          stroke: { width: 3, color: "#000000" },
          highlight: { color: "#000000" },
          bind: { "stroke.color": "brand", "highlight.color": "accent" },
        }),
      ],
      {
        slots: [
          { name: "brand", type: "color" },
          { name: "accent", type: "color" },
        ],
      },
    );
    expect(validateDocument(doc).ok).toBe(true);
    await expectGolden(FEATURE, "bound-colours", doc, { values: { brand: "#FF0066", accent: "#FDE68A" } });
    const bare = documentOf([textLayer({ id: "bare", text: "x", bind: { "stroke.color": "brand" } })], {
      slots: [{ name: "brand", type: "color" }],
    });
    const result = validateDocument(bare);
    expect(result.ok ? [] : result.errors).toEqual([
      {
        path: 'frames[0].layers[0].bind["stroke.color"]',
        message: 'is bound, but the layer has no stroke to colour (add "stroke")',
      },
    ]);
  });
});
