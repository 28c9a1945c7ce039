import { describe, expect, it } from "vitest";
import { documentOf, lineLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "layer-line";

/** Horizontal (box height 0), vertical (box width 0) and both diagonals; the three caps. */
function capsDocument() {
  return documentOf([
    lineLayer({ id: "butt", x: 40, y: 40, width: 200, height: 0, stroke: { color: "#1D3557", width: 16 } }),
    lineLayer({
      id: "round",
      x: 40,
      y: 90,
      width: 200,
      height: 0,
      cap: "round",
      stroke: { color: "#E63946", width: 16 },
    }),
    lineLayer({
      id: "square",
      x: 40,
      y: 140,
      width: 200,
      height: 0,
      cap: "square",
      stroke: { color: "#2A9D8F", width: 16 },
    }),
    // Thin guides at x = 40 and x = 240 show where each cap ends.
    lineLayer({
      id: "guide-left",
      x: 40,
      y: 20,
      width: 0,
      height: 150,
      stroke: { color: "#00000080", width: 1 },
    }),
    lineLayer({
      id: "guide-right",
      x: 240,
      y: 20,
      width: 0,
      height: 150,
      stroke: { color: "#00000080", width: 1 },
    }),
    lineLayer({ id: "down", x: 280, y: 30, width: 90, height: 60, stroke: { color: "#F4A261", width: 6 } }),
    lineLayer({
      id: "up",
      x: 280,
      y: 110,
      width: 90,
      height: 60,
      from: { x: 0, y: 1 },
      to: { x: 1, y: 0 },
      cap: "round",
      stroke: { color: "#6D597A", width: 6 },
    }),
  ]);
}

/** Dashes (even and odd lists, dots from zero-length round dashes) and gradient strokes. */
function dashesDocument() {
  return documentOf([
    lineLayer({
      id: "dashed",
      x: 30,
      y: 30,
      width: 340,
      height: 0,
      dash: [12, 6],
      stroke: { color: "#1D3557", width: 6 },
    }),
    lineLayer({
      id: "odd",
      x: 30,
      y: 60,
      width: 340,
      height: 0,
      dash: [20],
      stroke: { color: "#E63946", width: 6 },
    }),
    lineLayer({
      id: "dots",
      x: 30,
      y: 90,
      width: 340,
      height: 0,
      dash: [0, 16],
      cap: "round",
      stroke: { color: "#2A9D8F", width: 10 },
    }),
    lineLayer({
      id: "gradient",
      x: 30,
      y: 125,
      width: 340,
      height: 0,
      cap: "round",
      stroke: {
        color: {
          type: "linear",
          angle: 90,
          stops: [
            { offset: 0, color: "#E63946" },
            { offset: 1, color: "#457B9D" },
          ],
        },
        width: 14,
      },
    }),
    lineLayer({
      id: "dashed-gradient",
      x: 30,
      y: 150,
      width: 340,
      height: 30,
      from: { x: 0, y: 1 },
      to: { x: 1, y: 0 },
      dash: [24, 8, 4, 8],
      cap: "square",
      stroke: {
        color: {
          type: "linear",
          angle: 90,
          stops: [
            { offset: 0, color: "#F4A261" },
            { offset: 1, color: "#264653" },
          ],
        },
        width: 5,
      },
    }),
  ]);
}

describe("line layers", () => {
  it("draws lines across the box with butt, round and square caps", async () => {
    const result = await expectGolden(FEATURE, "caps", capsDocument());
    expect(result.warnings).toEqual([]);
  });

  it("draws the caps at scale 2", async () => {
    const result = await expectGolden(FEATURE, "caps-2x", capsDocument(), { scale: 2 });
    expect(result.width).toBe(800);
  });

  it("draws dashes, dots and gradient strokes", async () => {
    await expectGolden(FEATURE, "dashes", dashesDocument());
  });

  it("draws dashes at scale 2 with the same lengths in template pixels", async () => {
    await expectGolden(FEATURE, "dashes-2x", dashesDocument(), { scale: 2 });
  });

  it("takes its colour from a bound colour slot, with opacity and rotation", async () => {
    await expectGolden(
      FEATURE,
      "bound",
      documentOf(
        [
          lineLayer({
            id: "accent",
            x: 100,
            y: 100,
            width: 200,
            height: 0,
            rotation: -20,
            opacity: 0.6,
            cap: "round",
            stroke: { color: "#000000", width: 20 },
            bind: { "stroke.color": "accent" },
          }),
        ],
        { slots: [{ name: "accent", type: "color" }] },
      ),
      { values: { accent: "#E63946" } },
    );
  });
});
