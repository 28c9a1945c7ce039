import { validateDocument, validateSlotValues } from "@pictor/engine";
import { describe, expect, it } from "vitest";
import { richTextsDocument, textLayer, violetToPink } from "../support/documents.ts";
import { expectGolden } from "../support/render.ts";

const FEATURE = "text-inline-styles";

const inlineStyles = {
  em: { style: "italic", color: "#E11D48" },
  strong: { weight: 800 },
  mark: { background: "#FDE68A" },
  brand: { weight: 700, color: "#000000", bind: { color: "brand" } },
  big: { relative_size: 1.5, letter_spacing: 2 },
  tag: {
    color: "#FFFFFF",
    background: "#000000",
    relative_size: 0.75,
    underline: true,
    bind: { background: "accent" },
  },
} as const;

const styledDocument = () => {
  const doc = richTextsDocument(
    [
      { id: "words", y: 10, height: 100, font: { family: "Inter", size: 24 } },
      {
        id: "gradient",
        y: 116,
        height: 60,
        font: { family: "Inter", weight: 700, size: 28 },
        color: violetToPink(),
      },
      {
        id: "spaced",
        y: 182,
        width: 300,
        height: 110,
        font: { family: "Lora", size: 22 },
        paragraph_spacing: 10,
      },
    ],
    {
      height: 300,
      background: "#F8FAFC",
      moreSlots: [
        { name: "brand", type: "color", default: "#2563EB" },
        { name: "accent", type: "color", default: "#0F766E" },
      ],
    },
  );
  return { ...doc, inline_styles: structuredClone(inlineStyles) as never };
};

const values = {
  words:
    "An <em>emphasis</em>, <strong>strong words</strong>, a <mark>marked phrase</mark> and the <brand>brand colour</brand>.",
  gradient: "<big>Big</big> and <tag>TAG</tag> over <em>a gradient</em>",
  spaced: "A <mark>mark that wraps onto the next line</mark><br>and a <b><em>bold em</em></b>",
  brand: "#059669",
};

describe("named inline styles of rich text", () => {
  it("draws weight, italic, colour (literal or slot), background, size, letter spacing and underline runs", async () => {
    const doc = styledDocument();
    expect(validateDocument(doc).ok).toBe(true);
    expect(validateSlotValues(doc, values).ok).toBe(true);
    await expectGolden(FEATURE, "styles", doc, { values });
    await expectGolden(FEATURE, "styles-scale-2", doc, { values, scale: 2 });
  });

  it("refuses a style named as a built-in tag, bound to a missing or non-colour slot, and unknown tags in the design", () => {
    const doc = styledDocument();
    const bad = {
      ...doc,
      inline_styles: {
        b: { weight: 900 },
        em: { bind: { color: "words" } },
        mark: { bind: { background: "nope" } },
      },
    };
    bad.frames[0]?.layers.push(
      textLayer({ id: "design", text: "<strong>x</strong>", bind: { text: "words" } }) as never,
    );
    const result = validateDocument(bad);
    expect(result.ok ? [] : result.errors.map((e) => `${e.path}: ${e.message}`)).toEqual([
      'frames[0].layers[3].text: has malformed markup at character 1: <strong> is not a tag of this template (it has <b>, <i>, <u>, <s>, <color>, <br>, <b>, <em>, <mark>): define an inline style "strong", or write &lt; for a literal "<"',
      'inline_styles.b: "b" is a built-in tag (<b>); name the style otherwise',
      'inline_styles.em.bind.color: slot "words" is a text slot, but "color" needs a color slot',
      'inline_styles.mark.bind.background: slot "nope" does not exist',
    ]);
  });
});
