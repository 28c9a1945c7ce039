import { createEngine, type SlotValues, validateDocument } from "@pictor/engine";
import { loadFontSet } from "@pictor/fonts";
import { describe, expect, it } from "vitest";
import { loadCanvasKit } from "../support/canvaskit.ts";
import { documentOf, stackLayer, textLayer } from "../support/documents.ts";

const chip = (id: string, text: string, family = "Inter") =>
  stackLayer({
    id,
    direction: "row",
    padding: [4, 10, 4, 10],
    fill: "#E9F5F2",
    corner_radius: 12,
    layout: { width: "hug", height: "hug" },
    layers: [
      textLayer({
        id: `${id}-text`,
        text,
        color: "#1D3557",
        font: { family, size: 18 },
        layout: { width: "hug", height: "hug" },
      }),
    ],
  });

/** Design text (chips, one in a family the set lacks), a bound headline and a repeat of bound names. */
function scene() {
  const document = documentOf(
    [
      textLayer({
        id: "headline",
        x: 10,
        y: 10,
        width: 380,
        height: 40,
        text: "",
        bind: { text: "headline" },
      }),
      stackLayer({
        id: "chips",
        x: 10,
        y: 60,
        width: 380,
        height: 80,
        direction: "row",
        wrap: true,
        gap: 6,
        layers: [chip("a", "Remote"), chip("b", "Full time"), chip("c", "Brand words", "Brand")],
      }),
      stackLayer({
        id: "names",
        x: 10,
        y: 150,
        width: 380,
        height: 140,
        gap: 4,
        repeat: { slot: "names", max: 4 },
        layers: [
          textLayer({ id: "name", text: "Name", width: 380, height: 24, bind: { text: "item.name" } }),
        ],
      }),
    ],
    {
      height: 300,
      slots: [
        { name: "headline", type: "text" },
        { name: "names", type: "list", fields: [{ name: "name", type: "text", required: true }] },
      ],
    },
  );
  const result = validateDocument(document);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.document;
}

const valuesA: SlotValues = { headline: "Remote", names: [{ name: "Remote" }, { name: "Ada" }] };
const valuesB: SlotValues = {
  headline: "Full time",
  names: [{ name: "Grace" }, { name: "Full time" }, { name: "Alan" }],
};

describe("paragraphs of design text kept between renders", () => {
  it("draw what an engine keeping none draws, as values change and fonts are added between renders", async () => {
    const [canvasKit, fonts] = await Promise.all([loadCanvasKit(), loadFontSet()]);
    const keeping = createEngine({ canvasKit, fonts });
    const keepingNone = createEngine({ canvasKit, fonts, keptParagraphs: 0 });
    const document = scene();
    const both = (values: SlotValues, label: string) => {
      const kept = Uint8Array.from(keeping.render(document, { values }).pixels);
      const fresh = keepingNone.render(document, { values }).pixels;
      expect(Buffer.compare(Buffer.from(kept), Buffer.from(fresh)), label).toBe(0);
      return kept;
    };
    const before = both(valuesA, "first render");
    both(valuesB, "other values, the same design text");
    both(valuesA, "the first values again");
    // The chip in "Brand" was drawn with a fallback family; once the family exists it is drawn in it,
    // not from the paragraph shaped before.
    const brand = fonts.faces.find((f) => f.family === "JetBrains Mono" && f.weight === 400);
    if (!brand) throw new Error("JetBrains Mono 400 is not in the shipped font set");
    for (const engine of [keeping, keepingNone])
      engine.registerFonts([{ family: "Brand", weight: 400, style: "normal", bytes: brand.bytes }]);
    const after = both(valuesA, "after a family was added");
    expect(
      Buffer.compare(Buffer.from(after), Buffer.from(before)),
      "the added family changed the chip",
    ).not.toBe(0);
    keeping.dispose();
    keepingNone.dispose();
  });
});
