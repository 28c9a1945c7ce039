import { type TemplateDocumentT, validateDocument } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { documentOf, groupLayer, imageLayer, shapeLayer, textLayer } from "../support/documents.ts";
import { testEngine } from "../support/engine.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "soft-mask";

const FADE = {
  type: "linear" as const,
  angle: 90,
  stops: [
    { offset: 0.3, color: "#000000" },
    { offset: 1, color: "#00000000" },
  ],
};

/**
 * A photo fading to transparent over a dot pattern; a photo seen through the word "MASK" (a hidden
 * text layer, bound to a slot); a group (two shapes) faded from its centre by a radial gradient; a
 * turned photo whose fade turns with it, casting a shadow that fades too.
 */
function softMasks(): TemplateDocumentT {
  return documentOf(
    [
      imageLayer({
        id: "fade",
        src: "gradient:480x240",
        x: 10,
        y: 10,
        width: 180,
        height: 90,
        mask: { type: "alpha", gradient: FADE },
      }),
      textLayer({
        id: "word",
        text: "MASK",
        bind: { text: "word" },
        visible: false,
        x: 200,
        y: 10,
        width: 190,
        height: 90,
        font: { family: "Inter", size: 60, weight: 700 },
      }),
      imageLayer({
        id: "through-text",
        src: "checker:64x64",
        x: 200,
        y: 10,
        width: 190,
        height: 90,
        mask: { type: "alpha", layer: "word" },
      }),
      groupLayer({
        id: "group",
        x: 10,
        y: 110,
        width: 180,
        height: 80,
        mask: {
          type: "alpha",
          gradient: {
            type: "radial",
            radius: 0.5,
            stops: [
              { offset: 0.4, color: "#000000" },
              { offset: 1, color: "#00000000" },
            ],
          },
        },
        layers: [
          shapeLayer({ id: "a", x: 0, y: 0, width: 120, height: 80, fill: "#E63946" }),
          shapeLayer({ id: "b", x: 60, y: 0, width: 120, height: 80, fill: "#1D3557", opacity: 0.8 }),
        ],
      }),
      imageLayer({
        id: "turned",
        src: "gradient:480x240",
        x: 230,
        y: 115,
        width: 130,
        height: 70,
        rotation: -12,
        shadows: [{ x: 4, y: 4, blur: 6, color: "#00000099" }],
        mask: {
          type: "alpha",
          gradient: {
            type: "linear",
            angle: 180,
            stops: [
              { offset: 0, color: "#000000" },
              { offset: 1, color: "#00000022" },
            ],
          },
        },
      }),
    ],
    {
      background: { type: "pattern", pattern: "dots", color: "#1D355740", background: "#F1FAEE", size: 10 },
      slots: [{ name: "word", type: "text" }],
    },
  );
}

describe("soft masks", () => {
  it("validates gradient and layer sources; a soft mask may name a text or image layer", () => {
    expect(validateDocument(softMasks())).toMatchObject({ ok: true });
    const missing = documentOf([imageLayer({ src: "x", mask: { type: "alpha", layer: "nope" } })]);
    expect(validateDocument(missing).ok).toBe(false);
  });

  it("fades a photo, shows one through a word, fades a group and a turned photo with its shadow", async () => {
    await expectGolden(FEATURE, "sources", softMasks(), { values: { word: "MASK" } });
  });

  it("draws the same at scale 2", async () => {
    await expectGolden(FEATURE, "sources-scale-2", softMasks(), { scale: 2, values: { word: "MASK" } });
  });

  it("plans the images of a hidden mask source layer", async () => {
    const document = documentOf([
      imageLayer({ id: "logo", src: "checker:32x32", visible: false, x: 0, y: 0, width: 100, height: 100 }),
      shapeLayer({
        id: "tinted",
        x: 0,
        y: 0,
        width: 100,
        height: 100,
        mask: { type: "alpha", layer: "logo" },
      }),
    ]);
    const requests = (await testEngine()).planImages(document, {});
    expect(requests.map((r) => r.src)).toEqual(["checker:32x32"]);
    await expectGolden(FEATURE, "image-source", document);
  });
});
