import { describe, expect, it } from "vitest";
import type { TemplateDocumentT } from "../../src/index.ts";
import { documentFontFamilies, renameFontFamilies, restoreFontFamilyNames } from "../../src/index.ts";

const text = (id: string, family: string) => ({
  id,
  type: "text",
  x: 0,
  y: 0,
  width: 10,
  height: 10,
  text: "a",
  font: { family, size: 12 },
  color: "#000000",
});

const doc = {
  version: 1,
  key: "k",
  name: "n",
  slots: [],
  frames: [
    { name: "a", width: 10, height: 10, layers: [text("t1", "Inter"), text("t2", "Brand Sans")] },
    {
      name: "b",
      width: 10,
      height: 10,
      layers: [{ id: "g", type: "group", x: 0, y: 0, layers: [text("t3", "Brand Serif")] }],
    },
  ],
} as unknown as TemplateDocumentT;

describe("font families of a document", () => {
  it("finds every family named in any frame or group", () => {
    expect([...documentFontFamilies(doc)].sort()).toEqual(["Brand Sans", "Brand Serif", "Inter"]);
  });

  it("finds the families each kind draws in: a chart's default Inter, a progress bar's label font", () => {
    const chart = {
      id: "c",
      type: "chart",
      x: 0,
      y: 0,
      width: 100,
      height: 50,
      chart: "bar",
      values: [1, 2],
    };
    const progress = {
      id: "p",
      type: "progress",
      x: 0,
      y: 0,
      width: 100,
      height: 10,
      value: 50,
      label: { font: { family: "Caveat", size: 12 }, color: "#000000" },
    };
    const kinds = { ...doc, frames: [{ name: "a", width: 100, height: 100, layers: [chart, progress] }] };
    expect([...documentFontFamilies(kinds as unknown as TemplateDocumentT)].sort()).toEqual([
      "Caveat",
      "Inter",
    ]);
  });

  it("renames into a copy, leaving the document as it was; nothing to rename gives the document itself", () => {
    const before = JSON.stringify(doc);
    const names = new Map([
      ["Brand Sans", "account:Brand Sans:ast_1"],
      ["Brand Serif", "account:Brand Serif:ast_2"],
    ]);
    const renamed = renameFontFamilies(doc, names);
    expect([...documentFontFamilies(renamed)].sort()).toEqual([
      "Inter",
      "account:Brand Sans:ast_1",
      "account:Brand Serif:ast_2",
    ]);
    expect(JSON.stringify(doc)).toBe(before);
    expect(renameFontFamilies(doc, new Map())).toBe(doc);
    const familyOf = new Map([...names].map(([family, name]) => [name, family]));
    expect(restoreFontFamilyNames("'account:Brand Sans:ast_1' has no glyph for 'é'", familyOf)).toBe(
      "'Brand Sans' has no glyph for 'é'",
    );
  });
});

describe("a repeating stack's more line", () => {
  it("names its font family and is renamed with the rest", () => {
    const more = {
      id: "more",
      type: "text",
      x: 0,
      y: 0,
      width: 100,
      height: 20,
      text: "and {n} more",
      font: { family: "Brand Sans", size: 12 },
      color: "#000000",
    };
    const document = {
      version: 3,
      key: "k",
      name: "n",
      slots: [],
      frames: [
        {
          name: "f",
          width: 100,
          height: 100,
          layers: [
            {
              id: "s",
              type: "stack",
              x: 0,
              y: 0,
              width: 100,
              height: 100,
              repeat: { slot: "l", more },
              layers: [],
            },
          ],
        },
      ],
    } as unknown as TemplateDocumentT;
    expect([...documentFontFamilies(document)]).toEqual(["Brand Sans"]);
    const renamed = renameFontFamilies(document, new Map([["Brand Sans", "acct1-Brand Sans"]]));
    expect(JSON.stringify(renamed)).toContain('"family":"acct1-Brand Sans"');
  });
});
