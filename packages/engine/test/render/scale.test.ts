import { describe, expect, it } from "vitest";
import { documentOf, imageLayer, shapeLayer, textLayer } from "../support/documents.ts";
import { testEngine } from "../support/engine.ts";
import { expectGolden } from "../support/render.ts";

const document = documentOf(
  [
    shapeLayer({
      id: "card",
      x: 10,
      y: 10,
      width: 181,
      height: 81,
      corner_radius: 12,
      stroke: { color: "#1D3557", width: 3 },
    }),
    imageLayer({ id: "photo", src: "gradient:200x200", x: 200, y: 10, width: 91, height: 81 }),
    textLayer({ id: "text", text: "Scaled text", x: 10, y: 100, width: 280, height: 40 }),
  ],
  { width: 301, height: 151 },
);

describe("scale", () => {
  for (const scale of [1, 1.5, 2, 2.25, 4]) {
    it(`renders at scale ${scale} with size round(frame x scale)`, async () => {
      const result = await expectGolden("scale", `scale-${scale}`, document, { scale });
      expect([result.width, result.height]).toEqual([Math.round(301 * scale), Math.round(151 * scale)]);
    });
  }

  it("plans image boxes as round(layer size x scale)", async () => {
    const engine = await testEngine();
    const [request] = engine.planImages(document, { scale: 1.5 });
    expect([request?.width, request?.height]).toEqual([Math.round(91 * 1.5), Math.round(81 * 1.5)]);
  });

  it.each([0.5, 0, 4.01, Number.NaN, Number.POSITIVE_INFINITY])(
    "rejects scale %s with a typed error",
    async (scale) => {
      const engine = await testEngine();
      const error = expect.objectContaining({ code: "invalid_scale", path: "scale" });
      expect(() => engine.render(document, { scale })).toThrow(error);
      expect(() => engine.planImages(document, { scale })).toThrow(error);
    },
  );
});
