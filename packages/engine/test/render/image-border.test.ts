import { type Layer, type SlotT, type TemplateDocumentT, validateDocument } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { documentOf, imageLayer, shapeLayer, starLayer } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "image-border";

const slots: SlotT[] = [{ name: "ring", type: "color" }];

const SUNSET = {
  type: "linear" as const,
  angle: 135,
  stops: [
    { offset: 0, color: "#F4A261" },
    { offset: 1, color: "#E63946" },
  ],
};

/**
 * Borders follow what shows of the image: a circle avatar's ring, an ellipse, a star mask, the
 * rounded corners, a plain box; solid, translucent and gradient colours; one bound to a slot.
 */
function bordersDocument(): TemplateDocumentT {
  return documentOf(
    [
      imageLayer({
        id: "avatar",
        src: "gradient:160x160",
        x: 10,
        y: 10,
        width: 100,
        height: 100,
        mask: { shape: "circle" },
        border: { width: 6, color: "#FFFFFF" },
      }),
      imageLayer({
        id: "oval",
        src: "checker:160x160",
        x: 125,
        y: 10,
        width: 130,
        height: 90,
        mask: { shape: "ellipse" },
        border: { width: 4, color: SUNSET },
      }),
      starLayer({ id: "star", x: 270, y: 5, width: 120, height: 115, visible: false }),
      imageLayer({
        id: "starred",
        src: "gradient:160x160",
        x: 270,
        y: 5,
        width: 120,
        height: 115,
        mask: { layer: "star" },
        border: { width: 5, color: "#1D3557" },
      }),
      imageLayer({
        id: "rounded",
        src: "gradient:160x160",
        x: 10,
        y: 125,
        width: 110,
        height: 65,
        corner_radius: 16,
        border: { width: 3, color: "#1D3557CC" },
      }),
      imageLayer({
        id: "plain",
        src: "checker:160x160",
        x: 135,
        y: 125,
        width: 110,
        height: 65,
        border: { width: 8, color: "#E6394699" },
      }),
      // A bound ring colour, and a rotated avatar whose ring turns with it.
      imageLayer({
        id: "bound",
        src: "gradient:160x160",
        x: 265,
        y: 125,
        width: 100,
        height: 65,
        rotation: 15,
        mask: { shape: "rounded", radius: 20 },
        border: { width: 5, color: "#000000" },
        bind: { "border.color": "ring" },
      }),
    ],
    { slots, background: "#A8DADC" },
  );
}

describe("image borders", () => {
  it("draws inside the edge, following the mask or the corner radius", async () => {
    await expectGolden(FEATURE, "borders", bordersDocument(), { values: { ring: "#2A9D8F" } });
  });

  it("draws the same at scale 2", async () => {
    await expectGolden(FEATURE, "borders-scale-2", bordersDocument(), {
      values: { ring: "#2A9D8F" },
      scale: 2,
    });
  });
});

function errorsOf(layers: Layer[]): { path: string; message: string }[] {
  const result = validateDocument(documentOf(layers, { slots: [...slots, { name: "title", type: "text" }] }));
  return result.ok ? [] : result.errors;
}

describe("image borders: errors name the JSON path", () => {
  it("a border of width 0, or without a colour", () => {
    expect(
      errorsOf([
        imageLayer({ id: "a", src: "x", border: { width: 0, color: "#FFFFFF" } }),
        imageLayer({ id: "b", src: "x", border: { width: 2 } as never }),
      ]),
    ).toEqual([
      { path: "frames[0].layers[0].border.width", message: "must be > 0" },
      { path: "frames[0].layers[1].border.color", message: "is required" },
    ]);
  });

  it("a border colour bound without a border, or to a text slot", () => {
    expect(
      errorsOf([
        imageLayer({ id: "a", src: "x", bind: { "border.color": "ring" } }),
        imageLayer({
          id: "b",
          src: "x",
          border: { width: 2, color: "#FFFFFF" },
          bind: { "border.color": "title" },
        }),
      ]),
    ).toEqual([
      {
        path: 'frames[0].layers[0].bind["border.color"]',
        message: 'is bound, but the layer has no border to colour (add "border")',
      },
      {
        path: 'frames[0].layers[1].bind["border.color"]',
        message: 'slot "title" is a text slot, but "border.color" needs a color slot',
      },
    ]);
  });

  it("binds a gradient border's stop colours", () => {
    expect(
      errorsOf([
        shapeLayer({ id: "s" }),
        imageLayer({
          id: "a",
          src: "x",
          border: { width: 2, color: SUNSET },
          bind: { "border.color.stops[1].color": "ring" },
        }),
      ]),
    ).toEqual([]);
  });
});
