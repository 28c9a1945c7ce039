import { describe, expect, it } from "vitest";
import { documentOf, imageLayer } from "../support/documents.ts";
import { testEngine } from "../support/engine.ts";
import { prepareAll } from "../support/images.ts";
import { expectGolden } from "../support/render.ts";

describe("image layers", () => {
  it("draws prepared pixels 1:1, snapped to whole device pixels at fractional positions", async () => {
    const document = documentOf([
      imageLayer({ id: "whole", src: "checker:64x64", x: 20, y: 20, width: 64, height: 64 }),
      imageLayer({ id: "fractional", src: "checker:64x64", x: 120.4, y: 20.6, width: 64, height: 64 }),
    ]);
    await expectGolden("layer-image", "snapped", document, { scale: 1.5 });
  });

  it("copies every source pixel unchanged onto an opaque frame", async () => {
    const engine = await testEngine();
    const document = documentOf([
      imageLayer({ id: "photo", src: "gradient:50x30", x: 7, y: 5, width: 50, height: 30, fit: "fill" }),
    ]);
    const images = prepareAll(engine.planImages(document, {}));
    const [prepared] = images.values();
    const result = engine.render(document, { images });
    if (!prepared) throw new Error("expected a prepared image");
    for (let y = 0; y < 30; y++) {
      const row = result.pixels.subarray(((y + 5) * result.width + 7) * 4, ((y + 5) * result.width + 57) * 4);
      expect(Buffer.from(row).equals(Buffer.from(prepared.rgba.subarray(y * 50 * 4, (y + 1) * 50 * 4)))).toBe(
        true,
      );
    }
  });
});
