import { describe, it } from "vitest";
import { documentOf, imageLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

describe("image corner radius", () => {
  it("clips the image to rounded corners (antialiased), up to a circle", async () => {
    await expectGolden(
      "image-corner-radius",
      "radii",
      documentOf([
        imageLayer({
          id: "soft",
          src: "checker:160x160",
          x: 20,
          y: 30,
          width: 140,
          height: 140,
          corner_radius: 16,
        }),
        imageLayer({
          id: "circle",
          src: "gradient:160x160",
          x: 200,
          y: 30,
          width: 140,
          height: 140,
          corner_radius: 70,
        }),
      ]),
    );
  });

  it("clips at fractional scale on the snapped device box", async () => {
    await expectGolden(
      "image-corner-radius",
      "scale-1.5",
      documentOf([
        imageLayer({
          id: "soft",
          src: "checker:160x160",
          x: 21,
          y: 31,
          width: 141,
          height: 99,
          corner_radius: 24,
        }),
      ]),
      { scale: 1.5 },
    );
  });
});
