import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import {
  createEngine,
  type Engine,
  type ImageRequest,
  type PreparedImage,
  type RenderOptions,
  type SlotValues,
  type TemplateDocumentT,
  validateDocument,
} from "@pictor/engine";
import { loadFontSet } from "@pictor/fonts";
import { describe, expect, it } from "vitest";
import { Bindings } from "../../src/render/bindings.ts";
import { KeptBottoms } from "../../src/render/kept-bottom.ts";
import type { RasterSurface } from "../../src/render/surface.ts";
import { EXAMPLES_DIR } from "../document/helpers.ts";
import { loadCanvasKit } from "../support/canvaskit.ts";
import { documentOf, imageLayer, shapeLayer, textLayer } from "../support/documents.ts";
import { loadTestIcons } from "../support/engine.ts";
import { prepareSynthetic } from "../support/images.ts";

let pair: Promise<{ keeping: Engine; drawing: Engine }> | undefined;

/** One engine keeping bottoms (the default) and one keeping none, shared by the file's tests. */
function engines(): Promise<{ keeping: Engine; drawing: Engine }> {
  pair ??= (async () => {
    const [canvasKit, fonts, icons] = await Promise.all([loadCanvasKit(), loadFontSet(), loadTestIcons()]);
    return {
      keeping: createEngine({ canvasKit, fonts, icons }),
      drawing: createEngine({ canvasKit, fonts, icons, keptBottoms: 0 }),
    };
  })();
  return pair;
}

/** The render's pixels (hashed) and warnings, with every planned image a synthetic one of `source`. */
function drawn(
  engine: Engine,
  document: TemplateDocumentT,
  options: RenderOptions,
  source = "gradient:64x48",
) {
  const images = new Map<string, PreparedImage>();
  for (const request of engine.planImages(document, options)) {
    images.set(request.key, prepared(request, source));
  }
  const result = engine.render(document, { ...options, images });
  return {
    pixels: createHash("sha256").update(result.pixels).digest("hex"),
    warnings: result.warnings,
  };
}

// The host hands out the same prepared object for the same source (its cache): so does this stand-in.
const preparedCache = new Map<string, PreparedImage>();
function prepared(request: ImageRequest, src: string): PreparedImage {
  const id = `${request.key}|${src}`;
  let image = preparedCache.get(id);
  if (image === undefined) {
    image = prepareSynthetic({ ...request, src });
    preparedCache.set(id, image);
  }
  return image;
}

/** The reference card's shape: a bound photo, a translucent panel, a shadowed badge of a bound colour, bound text. */
function card(): TemplateDocumentT {
  const document = documentOf(
    [
      imageLayer({ id: "photo", x: 200, y: 0, width: 200, height: 200, src: "", bind: { src: "photo" } }),
      shapeLayer({
        id: "panel",
        x: 14,
        y: 14,
        width: 260,
        height: 170,
        fill: "#1E293BCC",
        corner_radius: 18,
      }),
      shapeLayer({
        id: "badge",
        x: 30,
        y: 120,
        width: 60,
        height: 40,
        fill: "#F4A259",
        corner_radius: 8,
        bind: { fill: "badge" },
        shadows: [{ x: 0, y: 4, blur: 8, color: "#00000066" }],
      }),
      textLayer({
        id: "headline",
        x: 30,
        y: 30,
        width: 230,
        height: 80,
        text: "",
        bind: { text: "headline" },
      }),
    ],
    {
      background: "#0F172A",
      slots: [
        { name: "photo", type: "image" },
        { name: "badge", type: "color", default: "#F4A259" },
        { name: "headline", type: "text" },
      ],
    },
  );
  const result = validateDocument(document);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.document;
}

describe("kept bottom layers", () => {
  it("draws the same bytes and warnings as an engine keeping none, across renders that change and repeat", async () => {
    const { keeping, drawing } = await engines();
    const document = card();
    const steps: { values: SlotValues; source: string }[] = [
      { values: { photo: "a", headline: "One" }, source: "gradient:64x48" },
      { values: { photo: "a", headline: "Two" }, source: "gradient:64x48" },
      { values: { photo: "a", headline: "Three" }, source: "gradient:64x48" },
      { values: { photo: "a", headline: "Three", badge: "#2A9D8F" }, source: "gradient:64x48" },
      { values: { photo: "a", headline: "Four" }, source: "checker:32x32" },
      { values: { photo: "a", headline: "Five" }, source: "checker:32x32" },
      { values: { photo: "a", headline: "Six" }, source: "checker:32x32" },
      { values: { photo: "b", headline: "Six" }, source: "checker:32x32" },
      { values: { photo: "a", headline: "Seven" }, source: "gradient:64x48" },
    ];
    for (const [i, { values, source }] of steps.entries()) {
      for (const scale of [1, 2]) {
        const options = { values, scale };
        expect(drawn(keeping, document, options, source), `step ${i} at scale ${scale}`).toEqual(
          drawn(drawing, document, options, source),
        );
      }
    }
  });

  it("draws example templates with kept bottoms three times as an engine keeping none draws them", async () => {
    const { keeping, drawing } = await engines();
    // Bottoms of a photo and panels, of a second photo, a rating and an icon.
    for (const file of ["og-card.json", "review-card.json"]) {
      const result = validateDocument(JSON.parse(await readFile(new URL(file, EXAMPLES_DIR), "utf8")));
      if (!result.ok) throw new Error(`${file}: ${JSON.stringify(result.errors)}`);
      const document = result.document;
      const options = { values: (document.sample ?? {}) as SlotValues };
      const expected = drawn(drawing, document, options);
      for (let i = 0; i < 3; i++)
        expect(drawn(keeping, document, options), `${file} #${i}`).toEqual(expected);
    }
  });

  it("resumes after the kept layers from the third render of the same bottom on", () => {
    const document = card();
    const frame = document.frames[0] as TemplateDocumentT["frames"][number];
    const pixels = new Uint8Array(16);
    const surface = { pixels: () => pixels } as unknown as RasterSurface;
    const bottoms = new KeptBottoms();
    const context = {
      document,
      background: "bg",
      path: "frames[0]",
      layers: frame.layers,
      values: { photo: "a" },
      bindings: new Bindings(document, { photo: "a" }, null),
      images: new Map(),
      fonts: 0,
    };
    const plans = [0, 1, 2].map(() => {
      const plan = bottoms.plan(context, pixels.length);
      bottoms.restore(plan, surface, []);
      if (plan.keepBefore >= 0) bottoms.keep(plan, surface, []);
      return [plan.start, plan.keepBefore];
    });
    // Photo, panel and badge are kept; the headline (text) is drawn every time.
    expect(plans).toEqual([
      [0, -1],
      [0, 3],
      [3, -1],
    ]);
  });
});
