import { describe, expect, it } from "vitest";
import { documentOf, imageLayer, shapeLayer, textLayer } from "../support/documents.ts";
import { testEngine } from "../support/engine.ts";
import { expectGolden } from "../support/render.ts";

const document = documentOf(
  [
    imageLayer({
      id: "photo",
      src: "checker:200x200",
      bind: { src: "photo" },
      x: 20,
      y: 20,
      width: 160,
      height: 160,
    }),
    textLayer({
      id: "headline",
      text: "Designer's headline",
      bind: { text: "headline" },
      x: 200,
      width: 180,
      font: { family: "Inter", size: 20 },
    }),
    textLayer({
      id: "tagline",
      text: "Designer's tagline",
      bind: { text: "tagline" },
      x: 200,
      y: 120,
      width: 180,
      height: 60,
      font: { family: "Inter", size: 20 },
    }),
  ],
  {
    slots: [
      { name: "photo", type: "image" },
      { name: "headline", type: "text" },
      { name: "tagline", type: "text", default: "Default tagline" },
    ],
  },
);

describe("binding text and image sources", () => {
  it("keeps the designer's text and image for unnamed slots; uses a slot default with a warning", async () => {
    const result = await expectGolden("binding-content", "design-values", document);
    expect(result.warnings).toEqual([
      expect.objectContaining({ code: "slot_default_used", slot: "tagline", layer: "tagline" }),
    ]);
  });

  it("replaces text and image source with slot values", async () => {
    const result = await expectGolden("binding-content", "bound-values", document, {
      values: { photo: "gradient:320x320", headline: "Request headline", tagline: "Request tagline" },
    });
    expect(result.warnings).toEqual([]);
  });
});

describe("warnings name each (code, slot) once", () => {
  it("a slot bound on several layers gives one slot_default_used and one text_shrunk", async () => {
    const engine = await testEngine();
    const long = "A headline far too long to fit this small box at its size, so it must shrink";
    const twice = documentOf(
      [
        textLayer({
          id: "top",
          text: "x",
          bind: { text: "title" },
          width: 120,
          height: 30,
          font: { family: "Inter", size: 40 },
          fit: "shrink",
        }),
        textLayer({
          id: "bottom",
          text: "x",
          bind: { text: "title" },
          y: 200,
          width: 120,
          height: 30,
          font: { family: "Inter", size: 40 },
          fit: "shrink",
        }),
        shapeLayer({ id: "a", bind: { fill: "ink" } }),
        shapeLayer({ id: "b", bind: { fill: "ink" }, x: 100 }),
      ],
      {
        slots: [
          { name: "title", type: "text", default: long },
          { name: "ink", type: "color", default: "#112233" },
        ],
      },
    );
    const result = engine.render(twice, {});
    const pairs = result.warnings.map((w) => `${w.code}:${w.slot}`);
    expect(pairs.filter((p) => p === "slot_default_used:title")).toHaveLength(1);
    expect(pairs.filter((p) => p === "slot_default_used:ink")).toHaveLength(1);
    expect(pairs).toContain("text_shrunk:title");
    expect(new Set(pairs).size).toBe(pairs.length);
  });
});
