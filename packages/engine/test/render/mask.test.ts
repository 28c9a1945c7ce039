import { type Layer, type TemplateDocumentT, validateDocument } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import {
  documentOf,
  groupLayer,
  imageLayer,
  shapeLayer,
  starLayer,
  textLayer,
} from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "mask";

/** Circle (in a wide box: the largest centred circle), ellipse and rounded masks on images and a shape. */
function shapeMasksDocument(): TemplateDocumentT {
  return documentOf(
    [
      imageLayer({
        id: "circle",
        src: "gradient:160x160",
        x: 10,
        y: 20,
        width: 140,
        height: 100,
        mask: { shape: "circle" },
      }),
      imageLayer({
        id: "ellipse",
        src: "checker:160x160",
        x: 150,
        y: 20,
        width: 120,
        height: 80,
        mask: { shape: "ellipse" },
      }),
      shapeLayer({
        id: "rounded",
        x: 290,
        y: 20,
        width: 100,
        height: 100,
        fill: "#457B9D",
        stroke: { color: "#1D3557", width: 6 },
        mask: { shape: "rounded", radius: 24 },
      }),
      // Turns with its layer: the mask is in the layer's own box.
      imageLayer({
        id: "turned",
        src: "gradient:160x160",
        x: 40,
        y: 130,
        width: 120,
        height: 60,
        rotation: 20,
        mask: { shape: "ellipse" },
      }),
      // Opacity and mask: the masked layer is translucent as a whole.
      imageLayer({
        id: "faded",
        src: "checker:160x160",
        x: 200,
        y: 130,
        width: 60,
        height: 60,
        opacity: 0.5,
        mask: { shape: "circle" },
      }),
      textLayer({
        id: "text",
        text: "MASK",
        x: 280,
        y: 130,
        width: 110,
        height: 60,
        font: { family: "Inter", size: 34, weight: 800 },
        color: "#E63946",
        mask: { shape: "ellipse" },
      }),
    ],
    { background: "#F1FAEE" },
  );
}

/** Masks from other layers' outlines: hidden star and shapes, rotated mask layers, groups. */
function layerMasksDocument(): TemplateDocumentT {
  return documentOf(
    [
      starLayer({ id: "star", x: 10, y: 10, width: 120, height: 120, visible: false }),
      imageLayer({
        id: "starred",
        src: "gradient:160x160",
        x: 10,
        y: 10,
        width: 120,
        height: 120,
        mask: { layer: "star" },
      }),
      imageLayer({
        id: "pilled",
        src: "checker:160x160",
        x: 140,
        y: 10,
        width: 120,
        height: 120,
        mask: { layer: "pill" },
      }),
      // A visible mask layer (after the layer it masks) is drawn as usual, and still masks.
      shapeLayer({
        id: "pill",
        x: 150,
        y: 40,
        width: 100,
        height: 50,
        corner_radius: 25,
        fill: "#E6394666",
        rotation: -30,
      }),
      // The masked layer turns, the mask (an ellipse shape) stays where it is.
      shapeLayer({
        id: "oval",
        shape: "ellipse",
        x: 280,
        y: 20,
        width: 110,
        height: 70,
        fill: null,
        visible: false,
      }),
      imageLayer({
        id: "turning",
        src: "gradient:160x160",
        x: 280,
        y: 10,
        width: 110,
        height: 110,
        rotation: 45,
        mask: { layer: "oval" },
      }),
      // Inside a group: the mask is a sibling in the group's coordinates; the group has its own mask.
      groupLayer({
        id: "group",
        x: 20,
        y: 130,
        width: 360,
        height: 60,
        mask: { shape: "rounded", radius: 12 },
        layers: [
          shapeLayer({ id: "band", x: 0, y: 0, width: 360, height: 60, fill: "#A8DADC" }),
          starLayer({ id: "inner-star", x: 150, y: 0, width: 60, height: 60, points: 6, visible: false }),
          imageLayer({
            id: "inner",
            src: "checker:160x160",
            x: 140,
            y: 0,
            width: 80,
            height: 60,
            mask: { layer: "inner-star" },
          }),
        ],
      }),
    ],
    { background: "#FFFFFF" },
  );
}

/** Mirrored layers: a shape mask mirrors with its layer; a layer mask stays where its layer is. */
function flippedDocument(): TemplateDocumentT {
  return documentOf(
    [
      imageLayer({ id: "plain", src: "gradient:160x160", x: 10, y: 10, width: 120, height: 90 }),
      imageLayer({
        id: "mirrored",
        src: "gradient:160x160",
        x: 140,
        y: 10,
        width: 120,
        height: 90,
        flip_x: true,
        mask: { shape: "rounded", radius: 30 },
        border: { width: 3, color: "#1D3557" },
      }),
      shapeLayer({
        id: "tilted",
        x: 280,
        y: 30,
        width: 110,
        height: 50,
        corner_radius: [25, 0, 25, 0],
        fill: null,
        rotation: 25,
        flip_y: true,
        visible: false,
      }),
      imageLayer({
        id: "upside-down",
        src: "gradient:160x160",
        x: 270,
        y: 10,
        width: 120,
        height: 90,
        flip_y: true,
        mask: { layer: "tilted" },
      }),
      imageLayer({
        id: "both",
        src: "checker:160x160",
        x: 10,
        y: 110,
        width: 160,
        height: 80,
        flip_x: true,
        flip_y: true,
        rotation: 10,
        mask: { shape: "ellipse" },
      }),
    ],
    { background: "#F1FAEE" },
  );
}

describe("masks", () => {
  it("mirrors with flipped layers", async () => {
    await expectGolden(FEATURE, "flipped", flippedDocument());
    await expectGolden(FEATURE, "flipped-scale-2", flippedDocument(), { scale: 2 });
  });

  it("clips to a circle, an ellipse and a rounded rectangle in the layer's box", async () => {
    await expectGolden(FEATURE, "shapes", shapeMasksDocument());
  });

  it("clips to the shapes at scale 2", async () => {
    await expectGolden(FEATURE, "shapes-scale-2", shapeMasksDocument(), { scale: 2 });
  });

  it("clips to another layer's outline (hidden or not, turned or not, inside groups)", async () => {
    await expectGolden(FEATURE, "layers", layerMasksDocument());
  });

  it("clips to another layer's outline at scale 2", async () => {
    await expectGolden(FEATURE, "layers-scale-2", layerMasksDocument(), { scale: 2 });
  });
});

function errorsOf(layers: Layer[]): { path: string; message: string }[] {
  const result = validateDocument(documentOf(layers));
  return result.ok ? [] : result.errors;
}

describe("masks: errors name the JSON path", () => {
  it("accepts masks of every kind", () => {
    expect(
      errorsOf([
        shapeLayer({ id: "m", visible: false }),
        imageLayer({ id: "a", src: "x", mask: { shape: "circle" } }),
        imageLayer({ id: "b", src: "x", mask: { shape: "rounded", radius: 8 } }),
        imageLayer({ id: "c", src: "x", mask: { layer: "m" } }),
      ]),
    ).toEqual([]);
  });

  it("a mask layer that does not exist, with the closest id", () => {
    expect(
      errorsOf([
        shapeLayer({ id: "circle-mask" }),
        imageLayer({ id: "a", src: "x", mask: { layer: "circle-msk" } }),
      ]),
    ).toEqual([
      {
        path: "frames[0].layers[1].mask.layer",
        message: 'layer "circle-msk" does not exist in this frame (did you mean "circle-mask"?)',
      },
    ]);
  });

  it("a layer masking itself", () => {
    expect(errorsOf([imageLayer({ id: "a", src: "x", mask: { layer: "a" } })])).toEqual([
      { path: "frames[0].layers[0].mask.layer", message: "a layer cannot be its own mask" },
    ]);
  });

  it("a mask layer without an outline", () => {
    expect(
      errorsOf([textLayer({ id: "t", text: "x" }), imageLayer({ id: "a", src: "x", mask: { layer: "t" } })]),
    ).toEqual([
      {
        path: "frames[0].layers[1].mask.layer",
        message:
          'layer "t" is a text layer, which has no outline to mask with (layer types that have one: "shape", "polygon", "star", "path")',
      },
    ]);
  });

  it("a mask layer in another group", () => {
    const errors = errorsOf([
      shapeLayer({ id: "outside" }),
      groupLayer({ id: "g", layers: [imageLayer({ id: "a", src: "x", mask: { layer: "outside" } })] }),
    ]);
    expect(errors).toEqual([
      {
        path: "frames[0].layers[1].layers[0].mask.layer",
        message:
          'layer "outside" (frames[0].layers[0]) is not beside this layer; a mask layer must be in the same frame or group as the layer it masks',
      },
    ]);
  });

  it("a rounded mask without a radius, and an unknown mask shape", () => {
    expect(
      errorsOf([
        imageLayer({ id: "a", src: "x", mask: { shape: "rounded" } as never }),
        imageLayer({ id: "b", src: "x", mask: { shape: "triangle" } as never }),
      ]),
    ).toEqual([
      { path: "frames[0].layers[0].mask.radius", message: "is required" },
      {
        path: "frames[0].layers[1].mask.shape",
        message: 'must be one of "circle", "ellipse", "rounded"',
      },
    ]);
  });
});
