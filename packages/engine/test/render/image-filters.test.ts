import {
  type ImageLayerT,
  type Layer,
  type SlotT,
  type TemplateDocumentT,
  validateDocument,
} from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { documentOf, imageLayer } from "../support/documents.ts";
import { testEngine } from "../support/engine.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "image-filters";

type Filters = NonNullable<ImageLayerT["filters"]>;

/** Each filter alone, one tile each, in a 5 x 2 grid; the first tile has none. */
const SINGLE: [string, Filters | undefined][] = [
  ["none", undefined],
  ["grayscale", { grayscale: 1 }],
  ["grayscale-half", { grayscale: 0.5 }],
  ["sepia", { sepia: 1 }],
  ["brightness", { brightness: 1.5 }],
  ["darker", { brightness: 0.5 }],
  ["contrast", { contrast: 2 }],
  ["saturation", { saturation: 2.5 }],
  ["desaturated", { saturation: 0.3 }],
  ["blur", { blur: 3 }],
];

function tilesDocument(tiles: [string, Filters | undefined][], src = "gradient:160x160"): TemplateDocumentT {
  const layers: Layer[] = tiles.map(([id, filters], i) =>
    imageLayer({
      id,
      src,
      x: 10 + (i % 5) * 78,
      y: 10 + Math.floor(i / 5) * 95,
      width: 70,
      height: 85,
      ...(filters === undefined ? {} : { filters }),
    }),
  );
  return documentOf(layers, { background: "#FFFFFF" });
}

const slots: SlotT[] = [{ name: "brand", type: "color" }];

/** Duotone (design colours and a bound dark colour), combined filters, and filters with masks and rotation. */
function combinedDocument(): TemplateDocumentT {
  return documentOf(
    [
      imageLayer({
        id: "duotone",
        src: "gradient:160x160",
        x: 10,
        y: 10,
        width: 90,
        height: 85,
        filters: { duotone: { dark: "#1D3557", light: "#F4A261" } },
      }),
      imageLayer({
        id: "duotone-bound",
        src: "checker:160x160",
        x: 110,
        y: 10,
        width: 90,
        height: 85,
        filters: { duotone: { dark: "#000000", light: "#F1FAEE" } },
        bind: { "filters.duotone.dark": "brand" },
      }),
      imageLayer({
        id: "combined",
        src: "gradient:160x160",
        x: 210,
        y: 10,
        width: 90,
        height: 85,
        filters: { brightness: 1.2, contrast: 1.3, saturation: 0.5, sepia: 0.6, blur: 1.5 },
      }),
      imageLayer({
        id: "everything",
        src: "gradient:160x160",
        x: 310,
        y: 10,
        width: 80,
        height: 85,
        filters: {
          grayscale: 0.2,
          sepia: 0.2,
          brightness: 0.9,
          contrast: 1.5,
          saturation: 1.5,
          duotone: { dark: "#2A1B3D", light: "#E9C46A" },
          blur: 0.8,
        },
      }),
      // A blurred circle avatar with a ring: the blur stays inside, the ring stays sharp.
      imageLayer({
        id: "avatar",
        src: "gradient:160x160",
        x: 10,
        y: 105,
        width: 85,
        height: 85,
        mask: { shape: "circle" },
        border: { width: 4, color: "#1D3557" },
        filters: { blur: 4, grayscale: 1 },
      }),
      // Rotated: drawn in the layer's box, the blur scaled by the canvas.
      imageLayer({
        id: "turned",
        src: "checker:160x160",
        x: 130,
        y: 115,
        width: 110,
        height: 65,
        rotation: -12,
        filters: { blur: 2, sepia: 1 },
      }),
      imageLayer({
        id: "translucent",
        src: "gradient:160x160",
        x: 270,
        y: 105,
        width: 120,
        height: 85,
        opacity: 0.6,
        corner_radius: 12,
        filters: { contrast: 0.5, blur: 6 },
      }),
    ],
    { slots, background: "#E9ECEF" },
  );
}

describe("image filters", () => {
  it("applies each filter on its own", async () => {
    await expectGolden(FEATURE, "single", tilesDocument(SINGLE));
  });

  it("applies each filter on its own at scale 2 (blur in template px)", async () => {
    await expectGolden(FEATURE, "single-scale-2", tilesDocument(SINGLE), { scale: 2 });
  });

  it("duotone, bound duotone, combined filters, with masks, borders, rotation and opacity", async () => {
    await expectGolden(FEATURE, "combined", combinedDocument(), { values: { brand: "#6A0DAD" } });
  });

  it("the same at scale 2", async () => {
    await expectGolden(FEATURE, "combined-scale-2", combinedDocument(), {
      values: { brand: "#6A0DAD" },
      scale: 2,
    });
  });

  it("filters that change nothing leave the image exactly as without filters", async () => {
    const engine = await testEngine();
    const plain = tilesDocument([["a", undefined]]);
    const neutral = tilesDocument([
      ["a", { grayscale: 0, sepia: 0, brightness: 1, contrast: 1, saturation: 1, blur: 0 }],
    ]);
    const images = new Map(
      engine.planImages(plain, {}).map((request) => [request.key, prepare(request.width, request.height)]),
    );
    // Filters never change which pixels the host prepares.
    expect(engine.planImages(neutral, {})).toEqual(engine.planImages(plain, {}));
    const a = engine.render(plain, { images });
    const b = engine.render(neutral, { images });
    expect(Buffer.from(b.pixels).equals(Buffer.from(a.pixels))).toBe(true);
  });
});

function prepare(width: number, height: number) {
  const rgba = new Uint8Array(width * height * 4).map((_, i) => (i % 4 === 3 ? 255 : (i * 7) % 256));
  return { width, height, rgba, upscaled: false };
}

function errorsOf(layers: Layer[]): { path: string; message: string }[] {
  const result = validateDocument(documentOf(layers, { slots }));
  return result.ok ? [] : result.errors;
}

describe("image filters: errors name the JSON path", () => {
  it("values out of range", () => {
    expect(
      errorsOf([
        imageLayer({
          id: "a",
          src: "x",
          filters: { grayscale: 1.5, sepia: -0.1, brightness: -1, contrast: 5, saturation: -1, blur: 101 },
        }),
      ]),
    ).toEqual([
      { path: "frames[0].layers[0].filters.brightness", message: "must be >= 0" },
      { path: "frames[0].layers[0].filters.contrast", message: "must be <= 4" },
      { path: "frames[0].layers[0].filters.saturation", message: "must be >= 0" },
      { path: "frames[0].layers[0].filters.grayscale", message: "must be <= 1" },
      { path: "frames[0].layers[0].filters.sepia", message: "must be >= 0" },
      { path: "frames[0].layers[0].filters.blur", message: "must be <= 100" },
    ]);
  });

  it("an unknown filter, and duotone colours that are not #RRGGBB", () => {
    expect(
      errorsOf([
        imageLayer({
          id: "a",
          src: "x",
          filters: { greyscale: 1, duotone: { dark: "#00000080", light: "white" } } as never,
        }),
      ]),
    ).toEqual([
      {
        path: "frames[0].layers[0].filters.greyscale",
        message: 'is not a known property (did you mean "grayscale"?)',
      },
      { path: "frames[0].layers[0].filters.duotone.dark", message: 'must be a colour in the form "#RRGGBB"' },
      {
        path: "frames[0].layers[0].filters.duotone.light",
        message: 'must be a colour in the form "#RRGGBB"',
      },
    ]);
  });

  it("a duotone colour bound without a duotone filter", () => {
    expect(
      errorsOf([
        imageLayer({ id: "a", src: "x", filters: { blur: 2 }, bind: { "filters.duotone.light": "brand" } }),
      ]),
    ).toEqual([
      {
        path: 'frames[0].layers[0].bind["filters.duotone.light"]',
        message: 'is bound, but the layer has no duotone filter (add "filters.duotone")',
      },
    ]);
  });
});
