import { createEngine } from "@pictor/engine";
import { loadFontSet } from "@pictor/fonts";
import { describe, expect, it } from "vitest";
import { loadCanvasKit } from "../support/canvaskit.ts";
import { documentOf, iconLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "layer-icon";

/** Paths, circles (one filled dot), rects, lines, polylines; thin and bold strokes; a wide box. */
function iconsDocument() {
  return documentOf([
    iconLayer({ id: "heart", x: 10, y: 10, icon: "heart", color: "#E63946" }),
    iconLayer({ id: "star", x: 84, y: 10, icon: "star", color: "#E9C46A" }),
    iconLayer({ id: "palette", x: 158, y: 10, icon: "palette", color: "#1D3557" }),
    iconLayer({ id: "calendar", x: 232, y: 10, icon: "calendar", color: "#2A9D8F" }),
    iconLayer({ id: "activity", x: 306, y: 10, icon: "activity", color: "#6D597A" }),
    iconLayer({
      id: "thin",
      x: 10,
      y: 100,
      width: 80,
      height: 80,
      icon: "camera",
      stroke_width: 1,
      color: "#264653",
    }),
    iconLayer({
      id: "bold",
      x: 100,
      y: 100,
      width: 80,
      height: 80,
      icon: "camera",
      stroke_width: 3,
      color: "#264653",
    }),
    // A wide box: the icon keeps its square aspect, centred.
    iconLayer({
      id: "wide",
      x: 190,
      y: 100,
      width: 200,
      height: 80,
      icon: "badge-check",
      color: {
        type: "linear",
        angle: 90,
        stops: [
          { offset: 0, color: "#F4A261" },
          { offset: 1, color: "#E63946" },
        ],
      },
    }),
  ]);
}

describe("icon layers", () => {
  it("draws Lucide icons scaled into the box, centred, in solid and gradient colours", async () => {
    const result = await expectGolden(FEATURE, "icons", iconsDocument());
    expect(result.warnings).toEqual([]);
  });

  it("draws icons at scale 2", async () => {
    await expectGolden(FEATURE, "icons-2x", iconsDocument(), { scale: 2 });
  });

  it("covers overlapping strokes once with a translucent colour, and takes a bound colour", async () => {
    await expectGolden(
      FEATURE,
      "bound-translucent",
      documentOf(
        [
          // Translucent: where the lines meet the circles the colour must not double up.
          iconLayer({
            id: "share",
            x: 0,
            y: 0,
            width: 200,
            height: 200,
            icon: "share-2",
            color: "#1D355780",
            stroke_width: 3,
          }),
          iconLayer({
            id: "bound",
            x: 200,
            y: 0,
            width: 200,
            height: 200,
            icon: "share-2",
            color: "#000000",
            stroke_width: 3,
            bind: { color: "accent" },
          }),
        ],
        { slots: [{ name: "accent", type: "color" }] },
      ),
      { values: { accent: "#E63946" } },
    );
  });

  it("fails with icon_unavailable when the host supplied no icon data", async () => {
    const engine = createEngine({ canvasKit: await loadCanvasKit(), fonts: await loadFontSet() });
    try {
      expect(() => engine.render(documentOf([iconLayer({ id: "heart" })]), {})).toThrow(
        expect.objectContaining({ code: "icon_unavailable", path: "frames[0].layers[0].icon" }),
      );
    } finally {
      engine.dispose();
    }
  });
});
