import { describe, expect, it } from "vitest";
import { documentOf, pathLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "layer-path";

// Two squares wound the same way, the second inside the first: nonzero fills both, evenodd cuts a hole.
const FRAMED = "M0 0H100V100H0Z M25 25H75V75H25Z";
// A five-pointed star drawn in one stroke: its centre is wound twice.
const PENTAGRAM = "M50 0 L79 90 L2 35 L98 35 L21 90 Z";
const HEART =
  "M2 9.5a5.5 5.5 0 0 1 9.591-3.676.56.56 0 0 0 .818 0A5.49 5.49 0 0 1 22 9.5c0 2.29-1.5 4-3 5.5l-5.492 5.313a2 2 0 0 1-3 .019L5 15c-1.5-1.5-3-3.2-3-5.5";

function pathsDocument() {
  return documentOf([
    pathLayer({ id: "nonzero", x: 10, y: 10, width: 80, height: 80, d: FRAMED, fill: "#1D3557" }),
    pathLayer({
      id: "evenodd",
      x: 100,
      y: 10,
      width: 80,
      height: 80,
      d: FRAMED,
      fill_rule: "evenodd",
      fill: "#1D3557",
    }),
    pathLayer({ id: "pentagram", x: 190, y: 10, width: 80, height: 80, d: PENTAGRAM, fill: "#E63946" }),
    pathLayer({
      id: "pentagram-evenodd",
      x: 280,
      y: 10,
      width: 80,
      height: 80,
      d: PENTAGRAM,
      fill_rule: "evenodd",
      fill: "#E63946",
    }),
    // A 24x24 icon path in its own view box, contained (centred in the wide box) and stretched.
    pathLayer({
      id: "heart-contain",
      x: 10,
      y: 110,
      width: 120,
      height: 80,
      d: HEART,
      view_box: [0, 0, 24, 24],
      fill: {
        type: "linear",
        angle: 135,
        stops: [
          { offset: 0, color: "#F4A261" },
          { offset: 1, color: "#E63946" },
        ],
      },
      stroke: { color: "#1D3557", width: 3, join: "round" },
    }),
    pathLayer({
      id: "heart-fill",
      x: 140,
      y: 110,
      width: 120,
      height: 80,
      d: HEART,
      fit: "fill",
      fill: "#E9C46A",
    }),
    // An open wave, stroked only (centred stroke, the default for paths).
    pathLayer({
      id: "wave",
      x: 270,
      y: 120,
      width: 120,
      height: 60,
      d: "M0 30 C20 0 40 0 60 30 S100 60 120 30",
      fill: null,
      stroke: { color: "#2A9D8F", width: 6, join: "round" },
    }),
  ]);
}

describe("path layers", () => {
  it("draws SVG path data fitted to the box, with nonzero and evenodd fill, gradients and strokes", async () => {
    const result = await expectGolden(FEATURE, "paths", pathsDocument());
    expect(result.warnings).toEqual([]);
  });

  it("draws paths at scale 2", async () => {
    await expectGolden(FEATURE, "paths-2x", pathsDocument(), { scale: 2 });
  });

  it("draws nothing, and does not fail, for path data Skia cannot parse", async () => {
    // Validation refuses this document ("d"); the renderer must still survive it.
    await expectGolden(
      FEATURE,
      "unparsable",
      documentOf([
        pathLayer({ id: "bad", d: "M 10 10 L", stroke: { color: "#000000", width: 2 } }),
        pathLayer({ id: "empty", x: 200, d: "", stroke: { color: "#000000", width: 2 } }),
      ]),
    );
  });
});
