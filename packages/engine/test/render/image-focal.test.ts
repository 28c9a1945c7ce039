import { describe, it } from "vitest";
import { documentOf, imageLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

describe("image focal point", () => {
  it("keeps the focal point in view when cover crops (left, centre, right)", async () => {
    const layers = [0, 0.5, 1].map((x, index) =>
      imageLayer({
        id: `focal-${x}`,
        src: "gradient:480x160",
        fit: "cover",
        focal: { x, y: 0.5 },
        x: 10 + index * 130,
        y: 40,
        width: 120,
        height: 120,
      }),
    );
    await expectGolden("image-focal", "horizontal", documentOf(layers));
  });
});
