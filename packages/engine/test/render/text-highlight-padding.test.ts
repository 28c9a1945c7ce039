import { describe, it } from "vitest";
import { documentOf, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "text-highlight-padding";

// Two captions with the same band, 14 px across and 2 px down: the first spills past its box (its
// outline shows the box), the second (`bounds: box`) is cut to it on every side.
const captions = () =>
  documentOf(
    (["spill", "box"] as const).flatMap((bounds, i) => [
      {
        id: `box-${bounds}`,
        type: "shape" as const,
        shape: "rectangle" as const,
        x: 20,
        y: 20 + i * 90,
        width: 260,
        height: 70,
        fill: null,
        stroke: { color: "#0F172A", width: 1, align: "inside" as const },
      },
      textLayer({
        id: `caption-${bounds}`,
        x: 20,
        y: 20 + i * 90,
        width: 260,
        height: 70,
        text: "Wide band\nsecond line",
        color: "#FFFFFF",
        font: { family: "Inter", size: 24, line_height: 1.3 },
        highlight: { color: "#E11D48CC", padding_x: 14, padding_y: 2, corner_radius: 6, bounds },
      }),
    ]),
    { width: 300, height: 200, background: "#F1F5F9" },
  );

describe("text highlight padding", () => {
  it("pads the band by x and y separately, and keeps it inside the layer box when asked", async () => {
    await expectGolden(FEATURE, "padding-bounds", captions());
    await expectGolden(FEATURE, "padding-bounds-scale-2", captions(), { scale: 2 });
  });
});
