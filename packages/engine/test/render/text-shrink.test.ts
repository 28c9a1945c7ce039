import { describe, expect, it } from "vitest";
import { documentOf, shapeLayer, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

const box = { x: 40, y: 20, width: 320, height: 100 };

function shrinkDocument(text: string, extra: { min_size?: number; max_lines?: number } = {}) {
  return documentOf(
    [
      shapeLayer({ id: "box", ...box, fill: "#EEF3F8" }),
      textLayer({
        id: "headline",
        text,
        ...box,
        fit: "shrink",
        font: { family: "Inter", size: 48, weight: 700 },
        ...extra,
      }),
    ],
    { height: 140 },
  );
}

describe("fit shrink", () => {
  it("keeps the design size when the text fits", async () => {
    const result = await expectGolden("text-shrink", "fits", shrinkDocument("Big news"));
    expect(result.warnings).toEqual([]);
  });

  it("shrinks long text to the largest size on the 0.5 px grid that fits, warning text_shrunk", async () => {
    const result = await expectGolden(
      "text-shrink",
      "shrunk",
      shrinkDocument("Our biggest summer sale ever starts this Friday at noon"),
    );
    expect(result.warnings.map((w) => w.code)).toEqual(["text_shrunk"]);
    const size = Number(/to ([\d.]+)px/.exec(result.warnings[0]?.message ?? "")?.[1]);
    expect(size).toBeLessThan(48);
    expect(size).toBeGreaterThanOrEqual(24);
    expect((size * 2) % 1).toBe(0);
  });

  it("stops at min_size and then truncates with an ellipsis", async () => {
    const result = await expectGolden(
      "text-shrink",
      "min-size-then-truncate",
      shrinkDocument(
        "This text is far too long for its box even at the smallest allowed size, so after shrinking to min_size it is cut.",
        { min_size: 30 },
      ),
    );
    expect(result.warnings.map((w) => w.code)).toEqual(["text_shrunk", "text_truncated"]);
    expect(result.warnings[0]?.message).toContain("to 30px");
  });

  it("shrinks so a long word is not broken inside the box width", async () => {
    const result = await expectGolden("text-shrink", "long-word", shrinkDocument("Supercalifragilistic"));
    expect(result.warnings.map((w) => w.code)).toEqual(["text_shrunk"]);
  });
});
