import { describe, expect, it } from "vitest";
import { documentOf, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "font-synthesized";

// Each row: a weight and style the family has (drawn as is), then one it lacks (its nearest face,
// faked). Oswald 800 is its 700 face unfaked (only 100 lighter); Lato 600 is its real 700.
const rows = [
  ["real-700", "Oswald", 700, "normal"],
  ["fake-900", "Oswald", 900, "normal"],
  ["near-800", "Oswald", 800, "normal"],
  ["fake-italic", "Fira Code", 400, "italic"],
  ["fake-both", "Anton", 700, "italic"],
  ["near-600", "Lato", 600, "normal"],
] as const;

const specimen = () =>
  documentOf(
    rows.map(([id, family, weight, style], i) =>
      textLayer({
        id,
        x: 12,
        y: 6 + i * 38,
        width: 376,
        height: 36,
        text: `${family} ${weight} ${style}`,
        font: { family, weight, style, size: 26 },
      }),
    ),
    { width: 400, height: 238 },
  );

describe("font_synthesized", () => {
  it("draws the nearest real face and warns when it fakes bold or italic, naming family, weight and style", async () => {
    const { warnings } = await expectGolden(FEATURE, "specimen", specimen());
    await expectGolden(FEATURE, "specimen-scale-2", specimen(), { scale: 2 });
    const synthesized = warnings.filter((w) => w.code === "font_synthesized");
    expect(synthesized.map((w) => [w.layer, w.details])).toEqual([
      [
        "fake-900",
        {
          family: "Oswald",
          weight: 900,
          style: "normal",
          face_weight: 700,
          face_style: "normal",
          synthesized: ["bold"],
        },
      ],
      [
        "fake-italic",
        {
          family: "Fira Code",
          weight: 400,
          style: "italic",
          face_weight: 400,
          face_style: "normal",
          synthesized: ["italic"],
        },
      ],
      [
        "fake-both",
        {
          family: "Anton",
          weight: 700,
          style: "italic",
          face_weight: 400,
          face_style: "normal",
          synthesized: ["bold", "italic"],
        },
      ],
    ]);
    expect(synthesized[0]?.message).toBe(
      'Font "Oswald" has no 900 normal face: layer "fake-900" was drawn with its 700 normal face and synthetic bold.',
    );
    expect(warnings.filter((w) => w.code !== "font_synthesized")).toEqual([]);
  });
});
