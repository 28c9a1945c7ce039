import { describe, expect, it } from "vitest";
import { documentOf, groupLayer, imageLayer, shapeLayer, textLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

function badge(id: string, extra: Partial<Parameters<typeof groupLayer>[0]> = {}) {
  return groupLayer({
    id,
    x: 40,
    y: 30,
    width: 160,
    height: 140,
    layers: [
      shapeLayer({ id: `${id}-bg`, x: 0, y: 0, width: 160, height: 140, fill: "#F4A261", corner_radius: 20 }),
      shapeLayer({
        id: `${id}-dot`,
        shape: "ellipse",
        x: 100,
        y: 80,
        width: 80,
        height: 80,
        fill: "#264653",
      }),
      textLayer({
        id: `${id}-label`,
        text: "SALE",
        x: 10,
        y: 10,
        width: 140,
        height: 50,
        font: { family: "Bebas Neue", size: 44 },
      }),
    ],
    ...extra,
  });
}

describe("groups", () => {
  it("positions children relative to the group origin", async () => {
    await expectGolden("layer-group", "origin", documentOf([badge("a"), badge("b", { x: 220, y: 40 })]));
  });

  it("rotates the whole group about its centre and applies opacity to the composite once", async () => {
    await expectGolden(
      "layer-group",
      "rotation-opacity",
      documentOf([
        shapeLayer({ id: "stripe", x: 0, y: 80, width: 400, height: 40, fill: "#1D3557" }),
        badge("rotated", { rotation: 20 }),
        badge("faded", { x: 220, opacity: 0.5 }),
      ]),
    );
  });

  it("nests groups (offsets add up) and warns for layers inside them", async () => {
    const inner = groupLayer({
      id: "inner",
      x: 50,
      y: 40,
      width: 120,
      height: 80,
      rotation: -10,
      layers: [
        imageLayer({ id: "photo", src: "", bind: { src: "photo" }, x: 10, y: 10, width: 100, height: 60 }),
      ],
    });
    const outer = groupLayer({
      id: "outer",
      x: 100,
      y: 20,
      width: 200,
      height: 160,
      opacity: 0.8,
      layers: [inner],
    });
    const document = documentOf([outer], {
      slots: [{ name: "photo", type: "image", default: "checker:40x40" }],
    });
    const result = await expectGolden("layer-group", "nested", document);
    expect(result.warnings.map((w) => [w.code, w.layer])).toEqual([
      ["slot_default_used", "photo"],
      ["image_upscaled", "photo"],
    ]);
  });

  it("draws the children of a group whose own box is empty", async () => {
    await expectGolden("layer-group", "empty-box", documentOf([badge("zero", { width: 0, height: 0 })]));
  });
});
